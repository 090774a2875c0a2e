import Foundation
import Synchronization
import Testing

@testable import MigrantChatCore

/// A tracker as Rasa 3.6 records one earlier turn and the latest one.
let sampleTrackerEvents: [JSONValue] = {
  let text = #"""
    [
      {"event":"action","name":"action_session_start"},
      {"event":"user","text":"hello","parse_data":{"intent":{"name":"greet","confidence":0.98}}},
      {"event":"action","name":"action_greet","policy":"RulePolicy","confidence":1.0},
      {"event":"slot","name":"topic","value":"insurance"},
      {"event":"action","name":"action_listen","policy":"RulePolicy","confidence":1.0},
      {"event":"user","text":"I need a flat in Brno","parse_data":{
        "intent":{"name":"housing","confidence":0.9123},
        "entities":[{"entity":"city","value":"Brno","extractor":"RegexEntityExtractor"}],
        "intent_ranking":[{"name":"housing","confidence":0.9123},{"name":"greet","confidence":0.05},
          {"name":"insurance","confidence":0.03},{"name":"goodbye","confidence":0.01},
          {"name":"debug","confidence":0.005}]}},
      {"event":"slot","name":"city","value":"Brno"},
      {"event":"action","name":"action_housing","policy":"RulePolicy","confidence":1.0},
      {"event":"bot","text":"Always sign a written lease.","metadata":{}},
      {"event":"slot","name":"topic","value":"housing"},
      {"event":"slot","name":"mood","value":null},
      {"event":"action","name":"action_listen","policy":"RulePolicy","confidence":1.0}
    ]
    """#
  return (try? BotReplyDecoder.parse(Data(text.utf8)))?.arrayValue ?? []
}()

/// An inspector whose answers the test sets.
final class FakeInspector: InspectorSource {
  let trackerAnswer: Mutex<Result<[JSONValue], InspectorUnavailable>>
  let calls = Mutex(0)

  init(_ answer: Result<[JSONValue], InspectorUnavailable>) { trackerAnswer = Mutex(answer) }

  func events(sender: String) async -> Result<[JSONValue], InspectorUnavailable> {
    calls.withLock { $0 += 1 }
    return trackerAnswer.withLock { $0 }
  }

  func slots(sender: String) async -> Result<[String: JSONValue], InspectorUnavailable> {
    trackerAnswer.withLock { $0 }.map { _ in ["city": .string("Brno"), "mood": .null] }
  }

  func parse(_ text: String) async -> Result<TurnInsight, InspectorUnavailable> {
    trackerAnswer.withLock { $0 }.map { events in
      var insight = TurnInsight(events: events)
      insight.text = text
      insight.slots = []
      insight.actions = []
      return insight
    }
  }
}

@Suite struct TurnInsightTests {
  @Test func theLatestTurnFromTheTracker() {
    let insight = TurnInsight(events: sampleTrackerEvents)
    #expect(insight.text == "I need a flat in Brno")
    #expect(insight.intent == TurnInsight.Ranked(name: "housing", confidence: 0.9123))
    #expect(insight.ranking.map(\.name) == ["greet", "insurance", "goodbye"])
    #expect(
      insight.entities == [
        TurnInsight.Entity(
          entity: "city", value: .string("Brno"), extractor: "RegexEntityExtractor")
      ])
    #expect(
      insight.slots == [
        TurnInsight.SlotChange(name: "city", old: nil, new: .string("Brno")),
        TurnInsight.SlotChange(name: "topic", old: .string("insurance"), new: .string("housing")),
      ])
    #expect(insight.actions.map(\.name) == ["action_housing"])
    #expect(insight.actions.first?.policy == "RulePolicy")
  }

  @Test func trackersWithoutAUserTurnOrWithOddShapes() {
    #expect(TurnInsight(events: []).isEmpty)
    let odd: [JSONValue] = [
      .string("not an event"), .object(["event": .string("user"), "parse_data": .string("x")]),
      .object(["event": .string("slot")]), .object(["event": .number(3)]),
    ]
    let insight = TurnInsight(events: odd)
    #expect(insight.intent == nil && insight.slots.isEmpty && insight.actions.isEmpty)
  }

  @Test(arguments: [Language.en, .ru, .uk], [40, 80])
  func inspectorGolden(language: Language, width: Int) {
    let renderer = Renderer(width: width, color: false, language: language)
    let insight = TurnInsight(events: sampleTrackerEvents)
    var text = renderer.render(.inspect(.turn(insight))).stderr
    text +=
      "---\n"
      + renderer.render(
        .inspect(
          .parse(
            TurnInsight(
              parse: .object([
                "intent": .object(["name": .string("insurance"), "confidence": .number(0.87)]),
                "entities": .array([
                  .object(["entity": .string("city"), "value": .string("Ostrava")])
                ]),
              ]), text: "health insurance in Ostrava")))
      ).stderr
    text +=
      "---\n"
      + renderer.render(
        .inspect(.slots(["city": .string("Brno"), "topic": .string("housing"), "mood": .null]))
      ).stderr
    text +=
      "---\n"
      + renderer.render(.inspect(.tracker(sampleTrackerEvents.suffix(4).map(TrackerLine.init))))
      .stderr
    for reason in [
      InspectorUnavailable.offline, .notEnabled(server: "http://localhost:5005"),
      .unauthorized(server: "http://localhost:5005", status: 401),
      .unreachable(server: "http://localhost:5005", reason: .connectionRefused),
    ] {
      text += "---\n" + renderer.render(.inspect(.unavailable(reason))).stderr
    }
    expectGolden(text, named: "inspect-\(language.rawValue)-\(width)")
  }

  @Test func serverTextIsSanitized() {
    let hostile = TurnInsight(
      intent: .init(name: "evil\u{1B}[2J", confidence: 1),
      entities: [
        .init(entity: "x\u{07}", value: .string("a\u{1B}]0;owned\u{07}b"))
      ])
    let text = Renderer(width: 80, color: false, language: .en).render(.inspect(.turn(hostile)))
      .stderr
    #expect(!text.contains("\u{1B}") && !text.contains("\u{07}"))
  }
}

@Suite struct ChatSessionInspectTests {
  func makeSession(_ inspector: FakeInspector, on: Bool) -> ChatSession {
    let transport = FakeTransport { _ in BotReply(messages: [BotMessage(text: "ok")]) }
    var tools = ChatTools(
      todos: nil, reports: ReportDesk(queue: nil, api: nil), guidance: { .empty })
    tools.inspector = inspector
    tools.inspectFromStart = on
    return ChatSession(
      transport: transport, store: TransientSessionStore(), language: .en, senderID: "s",
      startMessage: "", directory: nil, tools: tools)
  }

  @Test func afterEachAnswerWhatTheBotUnderstood() async {
    let inspector = FakeInspector(.success(sampleTrackerEvents))
    let session = makeSession(inspector, on: true)
    let events = await session.handle("I need a flat in Brno")
    #expect(events.last == .inspect(.turn(TurnInsight(events: sampleTrackerEvents))))
    #expect(
      await session.log.count == 1, "the turn is recorded; the inspector's block is not part of it")
    #expect(await session.handle("/inspect off") == [.inspect(.switched(on: false))])
    #expect(await session.handle("again").count == 1)
    #expect(inspector.calls.withLock { $0 } == 1)
  }

  @Test func withoutTheAPIOneLineThenItIsOff() async {
    let inspector = FakeInspector(.failure(.notEnabled(server: "http://x")))
    let session = makeSession(inspector, on: true)
    #expect(
      await session.handle("hi").last == .inspect(.unavailable(.notEnabled(server: "http://x"))))
    #expect(await session.handle("hi again").count == 1, "said once; the chat goes on")
    #expect(await session.inspecting == false)
    #expect(
      await session.handle("/slots") == [.inspect(.unavailable(.notEnabled(server: "http://x")))])
  }

  @Test func slotsTrackerParseAndBadInput() async {
    let session = makeSession(FakeInspector(.success(sampleTrackerEvents)), on: false)
    #expect(
      await session.handle("/slots") == [
        .inspect(.slots(["city": .string("Brno"), "mood": .null]))
      ])
    guard case .inspect(.tracker(let lines))? = await session.handle("/tracker 3").first else {
      Issue.record("no tracker")
      return
    }
    #expect(lines.map(\.kind) == ["bot", "slot", "slot", "action"].suffix(3).map { $0 })
    guard case .inspect(.parse(let parsed))? = await session.handle("/parse flat in Brno").first
    else {
      Issue.record("no parse")
      return
    }
    #expect(parsed.text == "flat in Brno" && parsed.intent?.name == "housing")
    #expect(await session.handle("/inspect maybe") == [.inputError(.badInspectSetting("maybe"))])
    #expect(await session.handle("/tracker lots") == [.inputError(.badEventCount("lots"))])
    #expect(await session.handle("/tracker 0") == [.inputError(.badEventCount("0"))])
    #expect(await session.handle("/parse") == [.inputError(.needsParseText)])
    #expect(await session.unusableLines == 4)
    #expect(await session.handle("/inspect") == [.inspect(.switched(on: false))])
  }

  @Test func theOfflineAssistantHasNothingToInspect() async {
    let transport = FakeTransport { _ in BotReply(messages: [BotMessage(text: "ok")]) }
    let session = ChatSession(
      transport: transport, store: TransientSessionStore(), language: .en, senderID: "s",
      startMessage: "", directory: nil)
    #expect(await session.handle("/inspect on") == [.inspect(.switched(on: true))])
    #expect(await session.handle("hello").last == .inspect(.unavailable(.offline)))
  }

  /// A server's long event names and texts cannot blow `/tracker` up: the kinds' column
  /// stays narrow and a screenful of text is the most shown per event.
  @Test func longEventNamesAndTextsStayBounded() {
    let long = String(repeating: "x", count: 100_000)
    let events: [JSONValue] = [
      .object(["event": .string(long), "name": .string(long)]),
      .object(["event": .string("action"), "name": .string("action_listen")]),
    ]
    let shown = Renderer(width: 80, color: false, language: .en)
      .render(.inspect(.tracker(events.map(TrackerLine.init)))).stderr
    #expect(shown.count < 10_000, "\(shown.count) characters")
    #expect(shown.contains("action_listen"))
  }
}
