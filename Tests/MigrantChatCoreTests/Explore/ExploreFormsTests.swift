import Foundation
import Synchronization
import Testing

@testable import MigrantChatCore

/// A bot with a form that asks for free text: "Transfer" asks an amount (no buttons), a
/// number is taken, anything else gets the fallback. "Bye" ends the conversation. Each
/// sender's messages are kept, so `FormTracker` can say which slot the form requests.
final class FormBot: ChatTransport, Sendable {
  let sent = Mutex<[String: [String]]>([:])

  static let question: [Language: String] = [
    .en: "How much money do you want to transfer?", .ru: "Сколько денег вы хотите перевести?",
    .uk: "Скільки грошей ви хочете переказати?",
  ]

  func send(_ request: ChatRequest) async throws(ChatError) -> BotReply {
    sent.withLock { $0[request.sender, default: []].append(request.message) }
    let en = request.language == .en
    func say(_ text: String, _ buttons: [Button] = []) -> BotReply {
      BotReply(messages: [BotMessage(text: text, buttons: buttons)])
    }
    switch request.message {
    case "/start":
      return say(
        en ? "Welcome" : "Привет",
        [
          Button(title: en ? "Transfer" : "Перевод", payload: "/transfer"),
          Button(title: en ? "Bye" : "Пока", payload: "/bye"),
        ])
    case "/transfer": return say(Self.question[request.language] ?? "")
    case "/bye": return say(en ? "Goodbye." : "До свидания.")
    case let text where Int(text) != nil:
      return say(
        en ? "Sent \(text) CZK." : "Отправлено \(text) CZK.",
        [Button(title: en ? "Menu" : "Меню", payload: "/start")])
    default: return say(en ? "Sorry, I did not get that." : "Извините, я не понял.")
    }
  }
}

/// The form's tracker: after "/transfer" the form requests `amount`; an amount given
/// ends it (`active_loop` null). Words are NLU fallbacks, as the bot's model reads them.
struct FormTracker: TrackerSource {
  let bot: FormBot
  func events(sender: String) async -> [JSONValue]? {
    let sent = bot.sent.withLock { $0[sender] ?? [] }
    var events: [JSONValue] = []
    for message in sent {
      let intent =
        message.hasPrefix("/")
        ? String(message.dropFirst()) : Int(message) != nil ? "inform" : "nlu_fallback"
      events.append(
        .object([
          "event": .string("user"), "text": .string(message),
          "parse_data": .object(["intent": .object(["name": .string(intent)])]),
        ]))
      if message == "/transfer" {
        events.append(.object(["event": .string("active_loop"), "name": .string("transfer_form")]))
        events.append(
          .object([
            "event": .string("slot"), "name": .string("requested_slot"), "value": .string("amount"),
          ]))
      } else if Int(message) != nil {
        events.append(.object(["event": .string("active_loop"), "name": .null]))
      }
    }
    return events
  }
}

@Suite struct ExploreFormsTests {
  static func explore(
    starts: [String] = ["/start"], languages: [Language] = [.en], answers: ExploreAnswers? = nil,
    tracked: Bool = true
  ) async -> ExploreReport {
    let bot = FormBot()
    var options = BotExplorer.Options(
      languages: languages, start: "/start", depth: 4, maxTurns: 200, jobs: 2)
    options.starts = starts
    options.answers = answers
    let explorer = BotExplorer(
      options: options, makeTransport: { bot }, tracker: tracked ? FormTracker(bot: bot) : nil,
      missingContacts: { _ in [] })
    let (walks, mismatches) = await explorer.run()
    return ExploreReport(walks: walks, mismatches: mismatches)
  }

  static func lines(_ report: ExploreReport, _ l10n: Localizer = Localizer(.en)) -> [String] {
    report.findings.map {
      "\($0.kind.rawValue) \($0.path.joined(separator: " > ")): \($0.detail.text(l10n))"
    }
  }

  /// A form's question is not a dead end: it needs an answer, named by the slot the
  /// tracker shows, and is listed, not failed. "Goodbye." stays a dead end.
  @Test func aQuestionWithoutButtonsNeedsAnAnswer() async {
    let report = await Self.explore()
    let lines = Self.lines(report)
    #expect(
      lines.contains(
        "needs-answer Transfer: Needs an answer: amount (“How much money do you want to transfer?”). Explore has none to type here; give one with --answers (slot: amount)."
      ), "\(lines)")
    #expect(lines.contains { $0.hasPrefix("dead-end Bye:") }, "\(lines)")
    #expect(!lines.contains { $0.hasPrefix("dead-end Transfer") }, "\(lines)")
    #expect(!report.failed)
    // Without the API, the question mark says it is a question; the slot is unknown.
    let untracked = Self.lines(await Self.explore(tracked: false))
    #expect(
      untracked.contains {
        $0.hasPrefix("needs-answer Transfer: Needs an answer: “How much money")
      }, "\(untracked)")
  }

  /// With `--answers`, each answer is typed as a path of its own and judged like a
  /// click: the number goes on to the form's end, the word gets the fallback.
  @Test func answersAreTypedAndJudged() async {
    let answers = ExploreAnswers(entries: [
      .init(slot: "amount", prompt: nil, any: ["50", "lots"])
    ])
    let report = await Self.explore(answers: answers)
    let lines = Self.lines(report)
    #expect(!lines.contains { $0.hasPrefix("needs-answer") }, "\(lines)")
    #expect(
      lines.contains(
        "fallback Transfer > “lots”: The answer “lots”, typed at the question, got the bot's fallback answer: “Sorry, I did not get that.”."
      ), "\(lines)")
    #expect(report.failed)
    let walk = report.walks[0]
    let sent = walk.nodes.flatMap(\.messages).compactMap(\.text)
    #expect(sent.contains("Sent 50 CZK."), "\(sent)")
    // The typed click is marked as typed, with what was sent. The form asks again after
    // "lots" (the same question), so both answers are typed there too.
    let typed = walk.edges.map(\.click).filter(\.typed)
    #expect(Set(typed.map(\.payload)) == ["50", "lots"] && typed.count == 4)
    // After the amount, the menu comes back: the loop is found through the typed answer.
    #expect(lines.contains { $0.hasPrefix("loop Transfer > “50” > Menu") }, "\(lines)")
  }

  /// Without the tracker, a pattern of the question finds the answers, in any case.
  @Test func aPromptPatternFindsTheAnswersWithoutTheTracker() async {
    let answers = ExploreAnswers(entries: [
      .init(slot: "name", prompt: nil, any: ["Alice"]),
      .init(slot: nil, prompt: "HOW MUCH", any: ["70"]),
    ])
    let report = await Self.explore(answers: answers, tracked: false)
    let texts = report.walks[0].nodes.flatMap(\.messages).compactMap(\.text)
    #expect(texts.contains("Sent 70 CZK."), "\(texts)")
    #expect(!Self.lines(report).contains { $0.hasPrefix("needs-answer") })
  }

  /// Answers given for one language only: the other language's question still needs one.
  @Test func answersPerLanguage() async {
    let answers = ExploreAnswers(entries: [
      .init(slot: "amount", prompt: nil, answers: [.en: ["50"]])
    ])
    let report = await Self.explore(languages: [.en, .ru], answers: answers)
    let needs = report.findings.filter { $0.kind == .needsAnswer }
    #expect(needs.map(\.language) == [.ru], "\(needs)")
    #expect(needs.first?.path == ["Перевод"])
  }

  /// Several start messages: each is walked; paths name their start; a start that opens
  /// the form is a question too.
  @Test func severalStarts() async {
    let report = await Self.explore(starts: ["/start", "/transfer"])
    let lines = Self.lines(report)
    #expect(lines.contains { $0.hasPrefix("needs-answer /transfer: ") }, "\(lines)")
    #expect(lines.contains { $0.hasPrefix("dead-end /start > Bye:") }, "\(lines)")
    // The same question reached from /start is the same node: said once.
    #expect(lines.filter { $0.hasPrefix("needs-answer") }.count == 1, "\(lines)")
    let answered = await Self.explore(
      starts: ["/transfer"],
      answers: ExploreAnswers(entries: [.init(slot: "amount", prompt: nil, any: ["9"])]))
    let edges = answered.walks[0].edges
    #expect(edges.first?.answers.first?.first?.text == FormBot.question[.en])
    #expect(edges.first?.click.payload == "9")
  }

  /// The slot requested at the end of the tracker's events; none once the form ended.
  @Test func theRequestedSlot() {
    func slot(_ value: String) -> JSONValue {
      .object([
        "event": .string("slot"), "name": .string("requested_slot"), "value": .string(value),
      ])
    }
    let ended: JSONValue = .object(["event": .string("active_loop"), "name": .null])
    #expect(BotExplorer.requestedSlot([slot("amount")]) == "amount")
    #expect(BotExplorer.requestedSlot([slot("amount"), slot("name")]) == "name")
    #expect(BotExplorer.requestedSlot([slot("amount"), ended]) == nil)
    #expect(BotExplorer.requestedSlot([]) == nil)
  }

  @Test func anAnswerFitsItsSlotAndPrompt() {
    let both = ExploreAnswers.Entry(slot: "amount", prompt: "transfer", any: ["1"])
    #expect(both.fits(slot: "amount", text: "How much to TRANSFER?"))
    #expect(!both.fits(slot: "amount", text: "How much?"))
    #expect(!both.fits(slot: nil, text: "How much to transfer?"))
    let answers = ExploreAnswers(entries: [
      .init(slot: "amount", prompt: nil, answers: [.uk: ["2"]]), both,
    ])
    // The first entry that fits with answers in the language gives them.
    #expect(answers.answers(slot: "amount", text: "transfer?", language: .uk) == ["2"])
    #expect(answers.answers(slot: "amount", text: "transfer?", language: .en) == ["1"])
    #expect(answers.answers(slot: "amount", text: "How much?", language: .en) == [])
  }
}
