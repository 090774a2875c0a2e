import Foundation
import Synchronization
import Testing

@testable import MigrantChatCore

/// A model that predicts by rules over the events so far, and records what it was asked.
final class RuleModel: StoryModel, Sendable {
  let asked = Mutex<[[JSONValue]]>([])
  let domainJSON: JSONValue
  let rule: @Sendable ([JSONValue]) -> String

  init(domain: JSONValue = .object([:]), rule: @escaping @Sendable ([JSONValue]) -> String) {
    self.domainJSON = domain
    self.rule = rule
  }

  func domain() async -> Result<JSONValue, StoryModelFailure> { .success(domainJSON) }

  func predict(_ events: [JSONValue]) async -> Result<StoryPrediction, StoryModelFailure> {
    asked.withLock { $0.append(events) }
    return .success(StoryPrediction(action: rule(events), policy: "RulePolicy", confidence: 1))
  }

  func parse(_ text: String) async -> Result<JSONValue, StoryModelFailure> {
    .success(.object(["intent": .object(["name": .string(text == "hi" ? "greet" : "other")])]))
  }

  /// The last event's kind and name: "user:greet", "action:utter_greet" (a rejection
  /// stands for the turn it rejected in).
  static func last(_ events: [JSONValue]) -> String {
    guard
      let event = events.last(where: { $0["event"]?.stringValue != "action_execution_rejected" })
    else { return "" }
    let kind = event["event"]?.stringValue ?? ""
    if kind == "user" {
      return "user:" + (event["parse_data"]?["intent"]?["name"]?.stringValue ?? "")
    }
    return kind + ":" + (event["name"]?.stringValue ?? "")
  }
}

@Suite struct StoryJudgeTests {
  static let at = SourceLocation(file: "s.yml", line: 1)

  /// greet → utter_greet, then listen; a form runs while its loop is active.
  static func moodModel() -> RuleModel {
    RuleModel(domain: .object(["forms": .object(["transfer_form": .object([:])])])) { events in
      switch RuleModel.last(events) {
      case "user:greet": "utter_greet"
      case "user:transfer": "transfer_form"
      case "user:bot_challenge":
        // The form keeps running unless it was rejected.
        TrackerEvents.activeLoop(events) == "transfer_form"
          && !events.contains { $0["event"]?.stringValue == "action_execution_rejected" }
          ? "transfer_form" : "utter_iamabot"
      case "action:utter_iamabot":
        TrackerEvents.activeLoop(events) == nil ? "action_listen" : "transfer_form"
      default: "action_listen"
      }
    }
  }

  @Test func aStoryThatHoldsPasses() async throws {
    let model = Self.moodModel()
    let judge = StoryJudge(model: model, domain: StoryDomain(json: try await model.domain().get()))
    let verdict = await judge.judge(
      TestStory(
        name: "greet",
        steps: [
          .user(text: "hello", intent: "greet", entities: [], location: Self.at),
          .action("utter_greet", location: Self.at),
        ], location: Self.at))
    #expect(verdict.passed)
    // Rasa's implicit listens: one after the greeting is predicted; the first is given.
    #expect(verdict.checks.map(\.expected) == ["utter_greet", "action_listen"])
    let first = model.asked.withLock { $0.first ?? [] }
    #expect(first.map { RuleModel.last([$0]) } == ["action:action_listen", "user:greet"])
  }

  /// The first wrong prediction fails the story; the story's own action is followed after
  /// it, so later checks still mean something, and the annotated story marks it as Rasa does.
  @Test func aWrongActionIsMarkedAndTheStoryGoesOn() async throws {
    let model = Self.moodModel()
    let judge = StoryJudge(model: model, domain: StoryDomain(json: .object([:])))
    let verdict = await judge.judge(
      TestStory(
        name: "wrong",
        steps: [
          .user(text: nil, intent: "greet", entities: [], location: Self.at),
          .action("utter_happy", location: SourceLocation(file: "s.yml", line: 7)),
        ], location: Self.at))
    #expect(!verdict.passed)
    #expect(verdict.firstWrong?.prediction.action == "utter_greet")
    #expect(verdict.firstWrong?.location?.line == 7)
    #expect(
      verdict.annotated == [
        "- intent: greet", "- action: utter_happy  # predicted: utter_greet",
      ], "\(verdict.annotated)")
    // After the wrong one the story's action stands in the events asked about.
    let last = model.asked.withLock { $0.last ?? [] }
    #expect(RuleModel.last(last) == "action:utter_happy")
  }

  /// A form the model keeps running where the story leaves it is rejected and asked again,
  /// as `rasa test core` emulates it.
  @Test func aFormLeftIsRejectedOnce() async throws {
    let model = Self.moodModel()
    let judge = StoryJudge(model: model, domain: StoryDomain(json: try await model.domain().get()))
    let verdict = await judge.judge(
      TestStory(
        name: "interrupted",
        steps: [
          .user(text: nil, intent: "transfer", entities: [], location: Self.at),
          .action("transfer_form", location: Self.at), .activeLoop("transfer_form"),
          .user(text: nil, intent: "bot_challenge", entities: [], location: Self.at),
          .action("utter_iamabot", location: Self.at), .action("transfer_form", location: Self.at),
          .activeLoop(nil),
        ], location: Self.at))
    #expect(
      verdict.passed,
      "\(model.asked.withLock { $0.map { $0.map { RuleModel.last([$0]) }.joined(separator: ",") } })"
    )
    let rejected = model.asked.withLock { asked in
      asked.contains { $0.contains { $0["event"]?.stringValue == "action_execution_rejected" } }
    }
    #expect(rejected)
  }

  /// Entities fill the slots the domain maps them to (not a form's own mappings); a slot
  /// named bare gets the default for its type; text without an intent is parsed.
  @Test func entitiesSlotsAndParsedText() async throws {
    let domain: JSONValue = .object([
      "slots": .object([
        "city": .object([
          "type": .string("text"),
          "mappings": .array([.object(["type": .string("from_entity"), "entity": .string("city")])]
          ),
        ]),
        "amount": .object([
          "type": .string("text"),
          "mappings": .array([
            .object([
              "type": .string("from_entity"), "entity": .string("city"),
              "conditions": .array([.object(["active_loop": .string("f")])]),
            ])
          ]),
        ]),
        "places": .object(["type": .string("list"), "mappings": .array([])]),
      ])
    ])
    let model = RuleModel(domain: domain) { _ in "action_listen" }
    let judge = StoryJudge(model: model, domain: StoryDomain(json: domain))
    _ = await judge.judge(
      TestStory(
        name: "slots",
        steps: [
          .user(
            text: "a flat in Brno", intent: "housing",
            entities: [
              TestStory.Entity(entity: "city", value: .string("Brno"), start: 10, end: 14)
            ],
            location: Self.at),
          .slot("places", nil), .user(text: "hi", intent: nil, entities: [], location: Self.at),
        ], location: Self.at))
    let events = model.asked.withLock { $0.last ?? [] }
    let slots = events.filter { $0["event"]?.stringValue == "slot" }
    #expect(
      slots == [
        .object(["event": .string("slot"), "name": .string("city"), "value": .string("Brno")]),
        .object([
          "event": .string("slot"), "name": .string("places"), "value": .array([.string("filled")]),
        ]),
      ], "\(slots)")
    let users = events.filter { $0["event"]?.stringValue == "user" }
    #expect(users.last?["parse_data"]?["intent"]?["name"] == .string("greet"))
    guard case .array(let marked)? = users.first?["parse_data"]?["entities"] else {
      Issue.record("no entities: \(users)")
      return
    }
    #expect(marked.first?["start"] == .number(10), "the mark's place is kept")
  }

  /// A predicted name with a newline stays on its line in the failed stories' YAML.
  @Test func aPredictedNameCannotAddLines() async {
    let model = RuleModel { _ in "utter_x\n- action: injected" }
    let judge = StoryJudge(model: model, domain: StoryDomain(json: .object([:])))
    let verdict = await judge.judge(
      TestStory(
        name: "s", steps: [.user(text: nil, intent: "greet", entities: [], location: Self.at)],
        location: Self.at))
    #expect(!verdict.passed)
    #expect(verdict.annotated.allSatisfy { !$0.contains("\n") }, "\(verdict.annotated)")
  }

  @Test func theModelsScoresChooseTheFirstHighest() {
    let json: JSONValue = .object([
      "scores": .array([
        .object(["action": .string("a"), "score": .number(0.2)]),
        .object(["action": .string("b"), "score": .number(0.4)]),
        .object(["action": .string("c"), "score": .number(0.4)]),
      ]), "policy": .string("TEDPolicy"),
    ])
    #expect(
      StoryPrediction(json: json)
        == StoryPrediction(action: "b", policy: "TEDPolicy", confidence: 0.4))
    #expect(StoryPrediction(json: .object([:])) == nil)
  }
}
