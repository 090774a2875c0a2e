import Foundation
import Synchronization
import Testing

@testable import MigrantChatCore

/// A bot in memory: answers from a script and records what it was sent.
final class FakeTransport: ChatTransport {
  let sent = Mutex<[ChatRequest]>([])
  let answer: @Sendable (ChatRequest) async throws(ChatError) -> BotReply

  init(answer: @escaping @Sendable (ChatRequest) async throws(ChatError) -> BotReply) {
    self.answer = answer
  }

  func send(_ request: ChatRequest) async throws(ChatError) -> BotReply {
    sent.withLock { $0.append(request) }
    return try await answer(request)
  }

  var messages: [String] { sent.withLock { $0.map(\.message) } }
}

final class RecordingStore: SessionStore {
  let senders = Mutex<[String]>([])
  let languages = Mutex<[Language]>([])
  let failing: Bool
  init(failing: Bool = false) { self.failing = failing }
  struct Broken: Error {}
  func rememberSender(_ id: String) throws {
    if failing { throw Broken() }
    senders.withLock { $0.append(id) }
  }
  func rememberLanguage(_ language: Language) throws {
    if failing { throw Broken() }
    languages.withLock { $0.append(language) }
  }
  let places = Mutex<[HomePlace?]>([])
  func rememberPlace(_ place: HomePlace?) throws {
    if failing { throw Broken() }
    places.withLock { $0.append(place) }
  }
}

@Suite struct ChatSessionTests {
  static let menu = BotReply(messages: [
    BotMessage(text: "Hello"),
    BotMessage(
      text: "Pick",
      buttons: [
        Button(title: "Health", payload: "/health"), Button(title: "Work", payload: "/work"),
      ]),
  ])

  func makeSession(
    store: any SessionStore = TransientSessionStore(), startMessage: String = "/start",
    answer: @escaping @Sendable (ChatRequest) async throws(ChatError) -> BotReply = { _ in menu }
  ) -> (ChatSession, FakeTransport) {
    let transport = FakeTransport(answer: answer)
    let session = ChatSession(
      transport: transport, store: store, language: .en, senderID: "s1", startMessage: startMessage)
    return (session, transport)
  }

  /// What `/save` and `--record` write replays as it went, a line taken literally: a
  /// button read from the other keyboard layout is written as its title; a line only
  /// asked about ("Did you mean …?") sent nothing and is no step.
  @Test func theRecordingWritesWhatTheChatDid() async {
    let (session, _) = makeSession()
    _ = await session.start()
    #expect(await session.handle("Healt").contains(where: \.isQuestion))
    _ = await session.handle("Цщкл")
    _ = await session.handle("hello")
    #expect(await session.log.map(\.line) == ["Work", "hello"])
  }

  /// One answer of several messages: `[1] Yes [2] No`, then a card's `[3] Pick B`, then
  /// `[4] Call`; every number on the screen can be typed, and titles still work.
  static let severalMessages = BotReply(messages: [
    BotMessage(
      text: "Sure?",
      buttons: [Button(title: "Yes", payload: "/yes"), Button(title: "No", payload: "/no")]),
    BotMessage(
      text: "Offices",
      elements: [CardElement(title: "B", buttons: [Button(title: "Pick B", payload: "/b")])]
    ),
    BotMessage(
      buttons: [
        Button(title: "Map", url: "https://map.example"), Button(title: "Call", payload: "/call"),
      ]),
  ])

  /// "Did you mean …?": nothing is sent; the same line again is sent as it is.
  @Test func aNearMissIsAskedOnceThenSent() async {
    let (session, transport) = makeSession()
    _ = await session.start()
    #expect(
      await session.handle("Helth") == [.notice(.didYouMean(title: "Health", number: 1))])
    #expect(transport.messages == ["/start"])
    _ = await session.handle("Helth")
    #expect(transport.messages == ["/start", "Helth"])
    _ = await session.handle("Wark")
    _ = await session.handle("2")
    #expect(transport.messages == ["/start", "Helth", "/work"])
  }

  /// A title typed with the other keyboard layout on is chosen, with a line saying
  /// how it was read (#34); the payload goes, not the typed text.
  @Test func aTitleTypedInTheOtherLayoutIsChosenSayingSo() async throws {
    let (session, transport) = makeSession()
    _ = await session.start()
    let events = await session.handle("Руфдер")
    #expect(events.first == .notice(.readAs(typed: "Руфдер", text: "Health")))
    #expect(transport.messages == ["/start", "/health"])
    let shown = Renderer(width: 80, color: false, language: .uk)
      .render(try #require(events.first)).stdout
    #expect(
      shown.contains("«Руфдер» прочитано як «Health» (набрано в іншій розкладці клавіатури)."))
  }

  @Test func buttonsAreNumberedAcrossTheMessagesOfOneAnswer() async {
    let (session, transport) = makeSession { _ in Self.severalMessages }
    _ = await session.start()
    for typed in ["2", "3", "4", "pick b", "1"] { _ = await session.handle(typed) }
    #expect(transport.messages == ["/start", "/no", "/b", "/call", "/b", "/yes"])
    #expect(
      await session.handle("5")
        == [.inputError(.noSuchChoice(number: 5, count: 4))])
    let rendered = Renderer(width: 80, color: false, language: .en)
      .render(.reply(Self.severalMessages)).stdout
    for label in ["[1] Yes", "[2] No", "[3] Pick B", "[4] Call"] {
      #expect(rendered.contains(label), "\(rendered)")
    }
    let json = JSONLinesRenderer(language: .en).render(.reply(Self.severalMessages))
    #expect(json.contains(#""number":3"#) && json.contains(#""number":4"#), "\(json)")
  }

  @Test func startSendsTheStartMessageWithSenderAndLanguage() async {
    let (session, transport) = makeSession()
    let events = await session.start()
    #expect(events == [.reply(Self.menu)])
    #expect(
      transport.sent.withLock { $0 } == [
        ChatRequest(sender: "s1", message: "/start", language: .en)
      ])
  }

  @Test func emptyStartMessageSendsNothing() async {
    let (session, transport) = makeSession(startMessage: "")
    #expect(await session.start() == [])
    #expect(transport.messages.isEmpty)
  }

  @Test func numberSendsThePayloadOfTheLatestButtons() async {
    let (session, transport) = makeSession()
    _ = await session.start()
    _ = await session.handle("2")
    #expect(transport.messages == ["/start", "/work"])
  }

  /// A form's question has no buttons: a number typed at it is the answer (an amount),
  /// not a button of the menu before it (#46: "50" was refused, "1" sent "/health").
  @Test func aNumberAtAQuestionWithoutButtonsIsSentAsText() async {
    let question = BotReply(messages: [BotMessage(text: "How much money do you want to send?")])
    let replies: [BotReply] = [
      Self.menu, question, question,
      BotReply(messages: [BotMessage(buttons: [Button(title: "Only", payload: "/only")])]),
    ]
    let counter = Mutex(0)
    let (session, transport) = makeSession { _ in
      counter.withLock { count in
        defer { count += 1 }
        return replies[min(count, replies.count - 1)]
      }
    }
    _ = await session.start()
    _ = await session.handle("1")  // the menu's first button: "/health" → a question
    #expect(await session.handle("50") != [.inputError(.noSuchChoice(number: 50, count: 2))])
    _ = await session.handle("1")  // the question had no buttons: "1" is the answer
    _ = await session.handle("1")  // the latest answer's only button
    #expect(transport.messages == ["/start", "/health", "50", "1", "/only"])
    #expect(await session.unusableLines == 0)
  }

  /// No answer at all (an empty reply) is not a latest answer: the buttons shown stay.
  @Test func anEmptyReplyLeavesTheButtonsShown() async {
    let counter = Mutex(0)
    let (session, transport) = makeSession { _ in
      counter.withLock { count in
        defer { count += 1 }
        return count == 1 ? BotReply(messages: []) : Self.menu
      }
    }
    _ = await session.start()
    #expect(await session.handle("hello") == [.noAnswer])
    _ = await session.handle("2")
    #expect(transport.messages == ["/start", "hello", "/work"])
  }

  @Test func numberOutOfRangeSendsNothingAndCountsAsUnusable() async {
    let (session, transport) = makeSession()
    _ = await session.start()
    let events = await session.handle("7")
    #expect(events == [.inputError(.noSuchChoice(number: 7, count: 2))])
    #expect(transport.messages == ["/start"])
    #expect(await session.unusableLines == 1)
    #expect(await session.failedTurns == 0)
  }

  @Test func emptyReplyIsNoAnswerNotAFailure() async {
    let (session, _) = makeSession { _ in BotReply(messages: []) }
    #expect(await session.handle("hello") == [.noAnswer])
    #expect(await session.failedTurns == 0)
  }

  @Test func transportErrorsAreEventsAndTheSessionGoesOn() async {
    let failing = Mutex(true)
    let (session, transport) = makeSession { _ throws(ChatError) in
      if failing.withLock({ $0 }) { throw .connectionRefused(server: "http://x") }
      return Self.menu
    }
    #expect(await session.handle("hi") == [.failure(.connectionRefused(server: "http://x"))])
    failing.withLock { $0 = false }
    #expect(await session.handle("hi again") == [.reply(Self.menu)])
    #expect(transport.messages == ["hi", "hi again"])
    #expect(await session.failedTurns == 1)
  }

  /// A missing libcurl is said in the user's language with what to do, and counts
  /// as an unreachable server, so a terminal chat offers the offline assistant.
  @Test func aMissingLibcurlSaysWhatToInstallInEachLanguage() {
    let error = ChatError.libcurlMissing(
      server: "http://bot", detail: "libcurl.so.4: cannot open shared object file")
    #expect(error.code == "libcurl_missing")
    #expect(ChatEvent.failure(error).isUnreachable)
    for (language, words) in [
      (Language.en, "could not be loaded"), (.ru, "не удалось загрузить"),
      (.uk, "не вдалося завантажити"),
    ] {
      let text = error.message(Localizer(language))
      #expect(text.contains(words), "\(text)")
      #expect(text.contains("libcurl.so.4: cannot open shared object file"))
      #expect(text.contains("apt install --reinstall libcurl4") && text.contains("--offline"))
      #expect(text.contains("http://bot"))
      // Before the offer of the offline assistant, the advice to use it is not said twice.
      let reason = error.reasonBeforeOffer(Localizer(language))
      #expect(reason.contains("libcurl4") && !reason.contains("--offline"))
    }
    // The data API may be up: the sync says libcurl, not "offline", and does not retry.
    let sync = DataAPIError.unreachable(
      server: "http://data", reason: .libcurlMissing(detail: "file too short"))
    #expect(sync.message(Localizer(.ru)).contains("не удалось загрузить libcurl"))
    #expect(!sync.message(Localizer(.en)).contains("offline"))
    #expect(!sync.isTransient)
  }

  @Test func cancellationKeepsTheConversation() async {
    let (session, transport) = makeSession { request throws(ChatError) in
      if request.message == "slow" { throw .cancelled }
      return Self.menu
    }
    _ = await session.start()
    #expect(await session.handle("slow") == [.failure(.cancelled)])
    #expect(await session.failedTurns == 0)
    _ = await session.handle("1")
    #expect(transport.messages == ["/start", "slow", "/health"])
  }

  @Test func restartSendsRestartThenTheStartMessage() async {
    let (session, transport) = makeSession { request in
      request.message == "/restart" ? BotReply(messages: []) : Self.menu
    }
    let events = await session.handle("/restart")
    #expect(transport.messages == ["/restart", "/start"])
    #expect(events == [.reply(Self.menu)])
  }

  @Test func newConversationChangesAndRemembersTheSender() async {
    let store = RecordingStore()
    let (session, transport) = makeSession(store: store)
    let events = await session.handle("/new")
    let newID = await session.senderID
    #expect(newID != "s1" && newID.count == 32)
    #expect(store.senders.withLock { $0 } == [newID])
    #expect(events.first == .notice(.newConversation))
    #expect(transport.sent.withLock { $0.last?.sender } == newID)
  }

  @Test func languageSwitchIsLiveAndRemembered() async {
    let store = RecordingStore()
    let (session, transport) = makeSession(store: store)
    #expect(await session.handle("/lang") == [.notice(.currentLanguage(.en))])
    #expect(await session.handle("/lang uk") == [.languageChanged(.uk)])
    _ = await session.handle("привіт")
    #expect(transport.sent.withLock { $0.last?.language } == .uk)
    #expect(store.languages.withLock { $0 } == [.uk])
    #expect(await session.handle("/lang xx") == [.inputError(.unknownLanguage("xx"))])
    #expect(await session.language == .uk)
  }

  @Test func aStoreThatCannotSaveIsReportedAndTheChatGoesOn() async {
    let (session, _) = makeSession(store: RecordingStore(failing: true))
    let events = await session.handle("/lang ru")
    #expect(events.first == .languageChanged(.ru))
    #expect(events.count == 2)
    #expect(await session.language == .ru)
  }

  @Test func quitEndsTheChat() async {
    let (session, transport) = makeSession()
    #expect(await session.handle("/quit") == [.quit])
    #expect(transport.messages.isEmpty)
  }

  @Test func doubleSlashSendsTheSlashText() async {
    let (session, transport) = makeSession()
    _ = await session.handle("//help")
    #expect(transport.messages == ["/help"])
  }

  @Test func requestBodyFollowsTheContract() throws {
    let body = ChatRequest(sender: "abc", message: "/health", language: .uk).jsonBody
    let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    #expect(object["sender"] as? String == "abc")
    #expect(object["message"] as? String == "/health")
    #expect(object["language"] as? String == "uk")
    #expect((object["metadata"] as? [String: Any])?["language"] as? String == "uk")
  }

  @Test func senderIDsAreRandom128BitHex() {
    let ids = (0..<100).map { _ in SenderID.random() }
    #expect(Set(ids).count == 100)
    #expect(ids.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
  }
}
