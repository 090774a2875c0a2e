import Foundation
import Testing

@testable import MigrantChatCore

/// `/start` sent to a bot with no `start` intent is read by its NLU as another one
/// (`inform 1.00`) and opens whatever that leads to; where the tracker shows it, the
/// chat and `explore` say so once (#46).
@Suite struct StartIntentTests {
  static func user(_ text: String, intent: String, confidence: Double = 1) -> JSONValue {
    .object([
      "event": .string("user"), "text": .string(text),
      "parse_data": .object([
        "intent": .object(["name": .string(intent), "confidence": .number(confidence)])
      ]),
    ])
  }

  static let misread: [JSONValue] = [
    .object(["event": .string("action"), "name": .string("action_session_start")]),
    user("/start", intent: "inform"),
    .object(["event": .string("action"), "name": .string("transfer_form")]),
  ]

  @Test func thePayloadNamesItsIntent() {
    #expect(StartIntent.named(by: "/start") == "start")
    #expect(StartIntent.named(by: " /greet{\"name\":\"Ana\"}") == "greet")
    #expect(StartIntent.named(by: "/inform@0.9") == "inform")
    #expect(StartIntent.named(by: "hello") == nil)
    #expect(StartIntent.named(by: "//start") == nil)
    #expect(StartIntent.named(by: "/") == nil)
  }

  @Test func theTrackerSaysWhatTheStartWasReadAs() {
    #expect(
      StartIntent.misread("/start", events: Self.misread)
        == TurnInsight.Ranked(name: "inform", confidence: 1))
    #expect(StartIntent.misread("/start", events: [Self.user("/start", intent: "start")]) == nil)
    #expect(StartIntent.misread("hello", events: [Self.user("hello", intent: "greet")]) == nil)
    #expect(StartIntent.misread("/start", events: []) == nil)
    #expect(StartIntent.misread("/start", events: [Self.user("hi", intent: "greet")]) == nil)
  }

  func session(_ inspector: FakeInspector) -> (ChatSession, FakeTransport) {
    let transport = FakeTransport { _ in
      BotReply(messages: [BotMessage(text: "How much money do you want to transfer?")])
    }
    var tools = ChatTools(
      todos: nil, reports: ReportDesk(queue: nil, api: nil), guidance: { .empty })
    tools.inspector = inspector
    let session = ChatSession(
      transport: transport, store: TransientSessionStore(), language: .en, senderID: "s",
      startMessage: "/start", tools: tools)
    return (session, transport)
  }

  @Test func theChatSaysItOnceAfterTheAnswer() async {
    let inspector = FakeInspector(.success(Self.misread))
    let (chat, _) = session(inspector)
    #expect(await chat.startCheck().isEmpty, "nothing before the start was answered")
    let events = await chat.start()
    #expect(events.count == 1, "the greeting is not held back for the tracker")
    let said = ChatEvent.notice(
      .startReadAs(start: "/start", intent: TurnInsight.Ranked(name: "inform", confidence: 1)))
    #expect(await chat.startCheck() == [said])
    #expect(await chat.startCheck().isEmpty, "said once")
    _ = await chat.handle("/restart")
    #expect(await chat.startCheck().isEmpty, "not again after /restart")
    let english = Renderer(width: 200, color: false, language: .en).render(said)
    let text = english.stdout + english.stderr
    #expect(
      text.contains(
        "The bot read the start message “/start” as the intent “inform” (1.00), not “start”"),
      "\(text)")
    let rendered = Renderer(width: 200, color: false, language: .ru).render(said)
    let russian = rendered.stdout + rendered.stderr
    #expect(russian.contains("как интент «inform» (1,00), а не «start»"), "\(russian)")
  }

  @Test func nothingIsSaidWhenReadRightOrWithoutTheAPI() async {
    let right = session(FakeInspector(.success([Self.user("/start", intent: "start")]))).0
    _ = await right.start()
    #expect(await right.startCheck().isEmpty)
    let noAPI = session(FakeInspector(.failure(.notEnabled(server: "http://x")))).0
    _ = await noAPI.start()
    #expect(await noAPI.startCheck().isEmpty)
  }

  /// `explore`: the start was answered with a form's question (no fallback look), and
  /// only the tracker tells it was read as another intent.
  @Test func exploreFindsIt() async {
    struct Tracker: TrackerSource {
      func events(sender: String) async -> [JSONValue]? { StartIntentTests.misread }
    }
    struct FormBot: ChatTransport {
      func send(_ request: ChatRequest) async throws(ChatError) -> BotReply {
        request.message == "/start"
          ? BotReply(messages: [BotMessage(text: "How much money do you want to transfer?")])
          : BotReply(messages: [BotMessage(text: "Sorry, I did not get that.")])
      }
    }
    let explorer = BotExplorer(
      options: BotExplorer.Options(
        languages: [.en], start: "/start", depth: 3, maxTurns: 50, jobs: 1),
      makeTransport: { FormBot() }, tracker: Tracker(), missingContacts: { _ in [] })
    let findings = await explorer.run().walks[0].findings
    #expect(
      findings.contains {
        $0.kind == .startFallback
          && $0.detail
            == .startReadAs(
              start: "/start", intent: TurnInsight.Ranked(name: "inform", confidence: 1))
      }, "\(findings)")
  }

  /// A start that got no answer at all, read as another intent (a bot whose /start is
  /// `nlu_fallback` and whose fallback says nothing): the misreading is said beside it.
  @Test func exploreSaysItBesideAStartWithNoAnswer() async {
    struct Tracker: TrackerSource {
      func events(sender: String) async -> [JSONValue]? { StartIntentTests.misread }
    }
    struct SilentBot: ChatTransport {
      func send(_ request: ChatRequest) async throws(ChatError) -> BotReply {
        BotReply(messages: [])
      }
    }
    let explorer = BotExplorer(
      options: BotExplorer.Options(
        languages: [.en], start: "/start", depth: 3, maxTurns: 50, jobs: 1),
      makeTransport: { SilentBot() }, tracker: Tracker(), missingContacts: { _ in [] })
    let findings = await explorer.run().walks[0].findings
    #expect(findings.contains { $0.detail == .startNoAnswer }, "\(findings)")
    #expect(findings.contains { $0.kind == .startFallback }, "\(findings)")
  }
}
