import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct OfflineAssistantTests {
  let assistant = OfflineAssistant(tree: SampleGuidance.tree(), stemmer: LightStemmer())

  func reply(_ message: String, sender: String = "s", language: Language = .en) async -> BotReply {
    let transport = OfflineTransport(assistant: assistant)
    return
      (try? await transport.send(ChatRequest(sender: sender, message: message, language: language)))
      ?? BotReply(messages: [])
  }

  func titles(_ reply: BotReply) -> [String] {
    reply.messages.last?.buttons.map(\.title) ?? []
  }

  @Test(arguments: [
    (Language.en, "What do you need help with?", "Residence permit"),
    (.ru, "С чем вам помочь?", "Вид на жительство"),
    (.uk, "З чим вам допомогти?", "Посвідка на проживання"),
  ])
  func startGreetsAndOffersTheTopics(language: Language, prompt: String, first: String) async {
    let start = await reply("/start", language: language)
    #expect(start.messages.count == 2)
    #expect(start.messages[1].text == prompt)
    #expect(titles(start).count == 5)
    #expect(titles(start).first == first)
    #expect(start.messages[1].buttons.first?.payload == #"/faq_tag{"id":1}"#)
  }

  /// A tree from a store offers its topics from the guides' outlines and reads the
  /// guides (every text in every language) only when one is shown, once (#50).
  @Test func theFirstAnswerReadsNoGuideAndAGuideIsReadOnce() async throws {
    let store = CountingGuidanceStore()
    try store.replaceFaqTags(SampleGuidance.tree().tags, source: .sample)
    try store.replaceFaqItems(
      Array(SampleGuidance.tree().items.values).sorted { $0.id < $1.id }, source: .sample)
    let transport = OfflineTransport(
      assistant: OfflineAssistant(tree: store.tree(), stemmer: LightStemmer()))
    let start = try await transport.send(ChatRequest(sender: "s", message: "/start", language: .en))
    #expect(start.messages.last?.buttons.count == 5)
    #expect(store.reads == 0, "the topics need no guide")
    let topic = try await transport.send(
      ChatRequest(sender: "s", message: #"/faq_tag{"id":1}"#, language: .en))
    #expect(topic.messages.last?.buttons.isEmpty == false)
    _ = try await transport.send(
      ChatRequest(sender: "s", message: "/faq_item{\"id\":10}", language: .en))
    #expect(store.reads == 1)
  }

  /// Topics offered from the outline whose guides are gone when read (a sync in
  /// another process in between) say so and offer the topics again.
  @Test func aTopicWhoseGuidesAreGoneWhenReadSaysSo() async throws {
    let store = CountingGuidanceStore()
    try store.replaceFaqTags(SampleGuidance.tree().tags, source: .sample)
    try store.replaceFaqItems(Array(SampleGuidance.tree().items.values), source: .sample)
    let tree = store.tree()
    try store.replaceFaqItems([], source: .sample)
    #expect(tree.topics.count == 5)
    let assistant = OfflineAssistant(tree: tree, stemmer: LightStemmer())
    let reply = try await OfflineTransport(assistant: assistant).send(
      ChatRequest(sender: "s", message: #"/faq_tag{"id":1}"#, language: .en))
    #expect(reply.messages.first?.text == Localizer(.en)(.assistantGone))
    #expect(reply.messages.last?.buttons.count == 5)
  }

  /// The sample's guides say they are made up, where shown and in `custom` for any client;
  /// the same guides from a synced tree do not.
  @Test func sampleGuidesAreMarkedAndSyncedOnesAreNot() async throws {
    let guide = await reply("/faq_item{\"id\":10}")
    #expect(guide.messages.first?.isSample == true)
    #expect(guide.messages.dropFirst().allSatisfy { !$0.isSample })
    let shown = Renderer(width: 80, color: false, language: .uk).render(.reply(guide)).stdout
    #expect(shown.hasPrefix("[Приклад інструкції: вигаданий"), "\(shown)")
    #expect(!shown.contains("\"sample\""), "the mark is not shown as data")
    let sample = SampleGuidance.tree()
    let synced = OfflineAssistant(
      tree: GuidanceTree(tags: sample.tags, items: Array(sample.items.values)),
      stemmer: LightStemmer())
    let messages = await synced.respond(
      sender: "s", message: "/faq_item{\"id\":10}", language: .en)
    #expect(!messages.isEmpty && messages.allSatisfy { $0["custom"]?["sample"] == nil })
    let menu = await reply("/start")
    #expect(menu.messages.allSatisfy { !$0.isSample }, "menus are not guides")
  }

  /// The assistant's own markers (`faq_item`, `sample`) have their place in the model and
  /// never reach the screen as data: no guide shows `{"`, in any language, sample or synced;
  /// what the client does not understand still does.
  @Test(arguments: Language.allCases, [true, false])
  func noGuideScreenShowsRawJSON(language: Language, sample: Bool) async throws {
    let tree = SampleGuidance.tree()
    let assistant =
      sample
      ? self.assistant
      : OfflineAssistant(
        tree: GuidanceTree(tags: tree.tags, items: Array(tree.items.values)),
        stemmer: LightStemmer())
    let transport = OfflineTransport(assistant: assistant)
    let renderer = Renderer(width: 80, color: false, language: language)
    for id in tree.items.keys.sorted() {
      let guide = try await transport.send(
        ChatRequest(sender: "s", message: "/faq_item{\"id\":\(id)}", language: language))
      #expect(guide.messages.first?.guideID == id)
      let shown = renderer.render(.reply(guide)).stdout
      #expect(!shown.contains("{\""), "guide \(id): \(shown)")
      #expect(!shown.contains("faq_item"), "guide \(id): \(shown)")
    }
    let unknown = BotMessage(
      text: "t", custom: .object(["faq_item": .number(7), "widget": .string("map")]))
    let shown = renderer.render(.reply(BotReply(messages: [unknown]))).stdout
    #expect(shown.contains(#"{"widget":"map"}"#) && !shown.contains("faq_item"), "\(shown)")
  }

  @Test func topicListsItsGuidesWithNavigation() async {
    let topic = await reply(#"/faq_tag{"id":3}"#)
    #expect(topic.messages.first?.text == "Accommodation: choose a guide.")
    #expect(titles(topic) == ["Finding accommodation", "Back", "Main menu"])
    #expect(topic.messages[0].buttons.last?.payload == "/start")
  }

  @Test func aGuideHasTextWarningHelpContactsStepsAndItsQuestion() async {
    let guide = await reply(#"/faq_item{"id":30}"#, language: .uk)
    let texts = guide.messages.compactMap(\.text)
    #expect(
      texts[0]
        == "**Пошук житла**\nЗавжди підписуйте **письмовий договір оренди**. У ньому мають бути квартира, плата, застава і строк оренди."
    )
    #expect(texts[1] == "**Увага:** Ніколи не платіть заставу, доки не побачили квартиру.")
    #expect(texts[2].hasPrefix("**Допомога:**"))
    #expect(guide.messages.flatMap(\.contactIDs) == ["138512"])
    #expect(texts[3].hasPrefix("**Кроки:**\n1. **Прочитайте договір** – "))
    #expect(texts.last == "У вас уже є квартира?")
    #expect(
      titles(guide) == [
        "Так, квартира є", "Ні, я шукаю", "Зберегти ці кроки в мій список справ", "Назад",
        "Головне меню",
      ])
    #expect(guide.messages.last?.buttons[2].payload == #"/todo_save{"id":30}"#)
    // Which guide this is, for the client's /todo save and /report.
    #expect(guide.messages.first?.guideID == 30)
    #expect(guide.problems.isEmpty)
  }

  @Test func theSaveButtonReachingTheAssistantSaysWhereStepsAreKeptAndBackReturns() async {
    _ = await reply(#"/faq_item{"id":30}"#, sender: "s")
    let answer = await reply(#"/todo_save{"id":30}"#, sender: "s")
    #expect(answer.messages.first?.text?.contains("/todo") == true)
    #expect(titles(answer) == ["Back", "Main menu"])
    let back = await reply("/back", sender: "s")
    #expect(back.messages.first?.guideID == 30)
    // A guide without steps offers no save button.
    let noSteps = await reply(#"/faq_item{"id":31}"#, sender: "s")
    #expect(!titles(noSteps).contains("Save these steps to my to-do list"))
  }

  @Test func backReturnsToWhereEachSenderCameFrom() async {
    _ = await reply(#"/faq_tag{"id":2}"#, sender: "a")
    _ = await reply(#"/faq_item{"id":20}"#, sender: "a")
    _ = await reply(#"/faq_item{"id":50}"#, sender: "b")
    let backA = await reply("/back", sender: "a")
    #expect(backA.messages.first?.text == "Health insurance: choose a guide.")
    let backB = await reply("/back", sender: "b")
    #expect(backB.messages.last?.text == "What do you need help with?")
    #expect(await assistant.conversationCount == 2)
  }

  @Test func freeTextFindsGuidesInTheCurrentLanguage() async {
    let found = await reply("how do I get health insurance")
    #expect(found.messages.first?.text == "Guides that match 'how do I get health insurance':")
    #expect(titles(found).first == "Health insurance")
    #expect(titles(found).last == "Main menu")
    // A step's word finds the guide the step belongs to, not the step alone.
    let russian = await reply("ЗАЛОГ", language: .ru)
    #expect(titles(russian).first == "Поиск жилья")
    #expect(!titles(russian).contains("Возьмите расписку за залог"))
    let diacritics = await reply("zamestnanecka karta")
    #expect(titles(diacritics).first == "Employee card")
  }

  /// Typed with the other keyboard layout on (#34): found, and the text as read is shown.
  @Test func freeTextInTheOtherLayoutIsReadAsMeant() async {
    let insurance = await reply("cnhf[jdrf", language: .ru)
    #expect(titles(insurance).first == "Медицинская страховка")
    #expect(insurance.messages.first?.text?.contains("страховка") == true)
    let english = await reply("ощи", language: .en)
    #expect(titles(english).first == "Finding a job")
    // A word found as typed is not switched.
    let job = await reply("job")
    #expect(job.messages.first?.text == "Guides that match 'job':")
  }

  /// Found in use (#15): topic names in every form, inflected words, and never a bare
  /// answer option ("Нет") out of its question's context.
  @Test(arguments: [
    ("житло", Language.uk, "Пошук житла"), ("посвідка", .uk, "Картка працівника"),
    ("жилье", .ru, "Поиск жилья"), ("жильё", .ru, "Поиск жилья"),
    ("housing", .en, "Finding accommodation"), ("страховка", .ru, "Медицинская страховка"),
    ("як отримати страховку", .uk, "Медичне страхування"),
  ])
  func topicsAndInflectedWordsFindTheirGuides(query: String, language: Language, title: String)
    async
  {
    let found = await reply(query, language: language)
    #expect(titles(found).first == title, "\(query): \(titles(found))")
  }

  @Test func anAnswerOptionIsNeverAResultAlone() async {
    let found = await reply("вид на жительство", language: .ru)
    let answers = SampleGuidance.tree().items.values.filter { $0.parentID != nil }
      .map { $0.title(in: .ru) }
    #expect(!titles(found).isEmpty)
    #expect(titles(found).allSatisfy { !answers.contains($0) }, "\(titles(found))")
  }

  @Test func nothingFoundOffersTheTopics() async {
    let none = await reply("zzzz qqqq")
    #expect(
      none.messages.first?.text
        == "Nothing found for 'zzzz qqqq'. Try other words, or choose a topic.")
    #expect(titles(none).count == 5)
  }

  @Test func restartIsSilentAndForgetsThePlace() async {
    _ = await reply(#"/faq_item{"id":10}"#)
    #expect(await reply("/restart").messages.isEmpty)
    #expect(await reply("/back").messages.last?.text == "What do you need help with?")
  }

  @Test func unknownOrBrokenPayloads() async {
    let gone = await reply(#"/faq_item{"id":999}"#)
    #expect(gone.messages.first?.text == "That guide is no longer available.")
    #expect(titles(gone).count == 5)
    // A payload that is not one of ours is searched as text, never a crash.
    let odd = await reply(#"/faq_item{"id":"#)
    #expect(!odd.messages.isEmpty)
    #expect(Payload(#"/faq_item{"id":"12"}"#) == .item(12))
    #expect(Payload("/greet") == .start)
    #expect(Payload("/unknown_intent") == .text("/unknown_intent"))
  }

  @Test func answersCarryTheRecipientAsRasaDoes() async {
    let messages = await assistant.respond(sender: "abc", message: "/start", language: .en)
    #expect(messages.allSatisfy { $0["recipient_id"] == .string("abc") })
  }

  @Test func theLeastRecentlyUsedConversationIsDropped() async {
    let small = OfflineAssistant(
      tree: SampleGuidance.tree(), stemmer: LightStemmer(), maxConversations: 2)
    _ = await small.respond(sender: "1", message: #"/faq_tag{"id":1}"#, language: .en)
    _ = await small.respond(sender: "2", message: #"/faq_tag{"id":2}"#, language: .en)
    _ = await small.respond(sender: "1", message: #"/faq_item{"id":10}"#, language: .en)
    _ = await small.respond(sender: "3", message: "/start", language: .en)
    #expect(await small.conversationCount == 2)
    // 2 was dropped, so its /back has nowhere to go; 1 still knows its place.
    let one = await small.respond(sender: "1", message: "/back", language: .en)
    #expect(one.first?["text"] == .string("Residence permit: choose a guide."))
    let two = await small.respond(sender: "2", message: "/back", language: .en)
    #expect(two.last?["text"] == .string("What do you need help with?"))
  }

  /// At scale, the conversations kept are exactly the most recently used ones (a
  /// reference LRU beside it), found without a scan of every conversation.
  @Test func dropsTheLeastRecentlyUsedAtScale() async {
    let limit = 50
    let small = OfflineAssistant(
      tree: SampleGuidance.tree(), stemmer: LightStemmer(), maxConversations: limit)
    var recent: [String] = []
    var generator = SplitMix(seed: 7)
    for _ in 0..<5_000 {
      let sender = "s\(generator.next() % 80)"
      _ = await small.respond(sender: sender, message: #"/faq_tag{"id":1}"#, language: .en)
      recent.removeAll { $0 == sender }
      recent.append(sender)
    }
    #expect(await small.conversationCount == limit)
    // What remembers the order stays bounded (it once kept every message's sender).
    #expect(await small.useListCount <= 2 * limit + 64)
    let kept = Set(recent.suffix(limit))
    for sender in Set(recent) {
      #expect(await small.holds(sender) == kept.contains(sender), "\(sender)")
    }
  }

  /// A new sender every message, a drop every message: the bookkeeping stays bounded.
  @Test func newSendersEveryMessageKeepMemoryBounded() async {
    let small = OfflineAssistant(
      tree: SampleGuidance.tree(), stemmer: LightStemmer(), maxConversations: 10)
    for index in 0..<3_000 {
      _ = await small.respond(sender: "s\(index)", message: "/start", language: .en)
    }
    #expect(await small.conversationCount == 10)
    #expect(await small.useListCount <= 2 * 10 + 64)
  }

  @Test func anEmptyTreeSaysSo() async {
    let empty = OfflineAssistant(tree: .empty, stemmer: LightStemmer())
    let messages = await empty.respond(sender: "s", message: "/start", language: .en)
    #expect(
      messages.first?["text"]?.stringValue?.hasPrefix("No guidance is available yet.") == true)
  }

  @Test func theSampleIsCompleteForEveryTopic() {
    let tree = SampleGuidance.tree()
    #expect(tree.topics.count == 5)
    for topic in tree.topics {
      let guides = tree.guides(tag: topic.id)
      #expect(!guides.isEmpty)
      for guide in guides {
        #expect(tree.answers(of: guide).count >= 2, "\(guide.title)")
        #expect(!tree.steps(of: guide).isEmpty, "\(guide.title)")
        #expect(!guide.contacts.isEmpty)
        for language in Language.allCases {
          #expect(guide.warning(in: language) != nil)
          #expect(guide.question(in: language) != nil)
          #expect(guide.localized[language]?.title != nil, "\(guide.id) \(language)")
        }
      }
    }
    let sampleIDs = Set(SampleDirectory.contacts().map(\.id))
    #expect(tree.items.values.flatMap(\.contacts).allSatisfy(sampleIDs.contains))
    let json =
      try? JSONSerialization.jsonObject(with: SampleGuidance.itemsPayload) as? [String: Any]
    #expect(json?["sample"] as? Bool == true)
  }

  @Test func itemsPayloadIsReadLiberally() throws {
    let body = """
      {"items":[
        {"id":"1","parentId":null,"title":"Guide","text":"<p>x</p>","tags":[3,"4"],"contacts":["138503"]},
        {"id":2,"parentId":1,"title":"Step","isTask":true},
        {"id":3,"title":"Bad task flag","isTask":"yes"},
        {"id":4,"title":"Bad tags","tags":"3"},
        {"title":"No id"},
        {"id":5,"parentId":"x","title":"Bad parent"}
      ]}
      """
    let payload = try ItemsPayloadDecoder.faqItems(Data(body.utf8))
    #expect(payload.items.map(\.id) == [1, 2])
    #expect(payload.skipped == 4)
    #expect(payload.items[0].tags == [3, 4])
    #expect(payload.items[0].contacts == [138503])
    #expect(payload.items[1].isTask)
  }
}

/// A small seeded generator, for tests that must be the same every run.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
