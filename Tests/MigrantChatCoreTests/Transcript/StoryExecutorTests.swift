import Foundation
import Synchronization
import Testing

@testable import MigrantChatCore

/// A bot that answers each line with the actions its rule names, and keeps a tracker as
/// Rasa's: the session's start, then for each line its user event, those actions and a
/// listen.
final class ScriptedBot: Sendable {
  let sent = Mutex<[String]>([])
  let tracker = Mutex<[JSONValue]>([
    StoryJudge.action("action_session_start"), .object(["event": .string("session_started")]),
    StoryJudge.action("action_listen"),
  ])
  let rule: @Sendable (String) -> [String]
  let retrieval: String?
  /// What the NLU reads in a line (the line itself when not named).
  let reads: [String: String]

  init(
    retrieval: String? = nil, reads: [String: String] = [:],
    rule: @escaping @Sendable (String) -> [String]
  ) {
    self.rule = rule
    self.retrieval = retrieval
    self.reads = reads
  }

  func send(_ line: String) async -> String? {
    sent.withLock { $0.append(line) }
    var intent: [String: JSONValue] = [
      "name": .string(reads[line] ?? line), "confidence": .number(0.31),
    ]
    if let retrieval { intent["full_retrieval_intent_name"] = .string(retrieval) }
    let user: JSONValue = .object([
      "event": .string("user"), "text": .string(line),
      "parse_data": .object(["intent": .object(intent)]),
    ])
    let actions = rule(line).map { name -> JSONValue in
      .object([
        "event": .string("action"), "name": .string(name), "policy": .string("RulePolicy"),
        "confidence": .number(1),
      ])
    }
    tracker.withLock { $0 += [user] + actions + [StoryJudge.action("action_listen")] }
    return nil
  }

  func run(_ story: TestStory) async -> StoryJudge.Verdict {
    await StoryExecutor.run(
      story, send: { await self.send($0) }, events: { self.tracker.withLock { $0 } })
  }
}

@Suite struct StoryExecutorTests {
  static let at = SourceLocation(file: "s.yml", line: 1)

  static func user(_ text: String?, intent: String? = nil, _ entities: [TestStory.Entity] = [])
    -> TestStory.Step
  {
    .user(text: text, intent: intent, entities: entities, location: at)
  }

  static func action(_ name: String, line: Int = 1) -> TestStory.Step {
    .action(name, location: SourceLocation(file: "s.yml", line: line))
  }

  /// hello → utter_greet; great → utter_happy; sad → utter_cheer_up, utter_did_that_help.
  static func moodBot() -> ScriptedBot {
    ScriptedBot { line in
      switch line {
      case "hello", "/greet": ["utter_greet"]
      case "great", "/mood_great": ["utter_happy"]
      case "sad": ["utter_cheer_up", "utter_did_that_help"]
      default: []
      }
    }
  }

  @Test func aStoryTheBotFollowsPasses() async {
    let bot = Self.moodBot()
    let verdict = await bot.run(
      TestStory(
        name: "happy",
        steps: [
          Self.user("hello", intent: "greet"), Self.action("utter_greet"),
          Self.user(nil, intent: "mood_great"), Self.action("utter_happy"),
        ], location: Self.at))
    #expect(verdict.passed)
    // Each turn's actions, then the listen the story implies.
    #expect(
      verdict.checks.map(\.expected) == [
        "utter_greet", "action_listen", "utter_happy", "action_listen",
      ])
    // A user line as written; an intent as Rasa's payload.
    #expect(bot.sent.withLock { $0 } == ["hello", "/mood_great"])
    #expect(verdict.checks.first?.prediction.policy == "RulePolicy")
  }

  @Test func theFirstDifferenceFailsAndNothingMoreIsSent() async {
    let bot = Self.moodBot()
    let verdict = await bot.run(
      TestStory(
        name: "sad path",
        steps: [
          Self.user("sad"), Self.action("utter_cheer_up", line: 4),
          Self.action("utter_happy", line: 5), Self.user("great"), Self.action("utter_happy"),
        ], location: Self.at))
    #expect(!verdict.passed)
    #expect(verdict.firstWrong?.expected == "utter_happy")
    #expect(verdict.firstWrong?.prediction.action == "utter_did_that_help")
    #expect(verdict.firstWrong?.location?.line == 5)
    // The conversation left the story: its next line is not sent, nor judged.
    #expect(bot.sent.withLock { $0 } == ["sad"])
    #expect(verdict.checks.count == 2)
    #expect(
      verdict.annotated == [
        "- user: \"sad\"", "- action: utter_cheer_up",
        "- action: utter_happy  # executed: utter_did_that_help", "- user: \"great\"",
        "- action: utter_happy",
      ])
  }

  @Test func anActionTooManyOrTooFewIsADifferenceAtTheListen() async {
    let bot = Self.moodBot()
    // The bot also asks "did that help?", which the story does not expect.
    let extra = await bot.run(
      TestStory(
        name: "extra", steps: [Self.user("sad"), Self.action("utter_cheer_up")],
        location: Self.at))
    #expect(extra.firstWrong?.expected == "action_listen")
    #expect(extra.firstWrong?.prediction.action == "utter_did_that_help")
    #expect(extra.annotated.last == "- action: action_listen  # executed: utter_did_that_help")
    // The bot says nothing to "thanks", where the story expects an answer.
    let missing = await Self.moodBot().run(
      TestStory(
        name: "missing", steps: [Self.user("thanks"), Self.action("utter_welcome")],
        location: Self.at))
    #expect(missing.firstWrong?.expected == "utter_welcome")
    #expect(missing.firstWrong?.prediction.action == "action_listen")
  }

  @Test func entitiesGoInThePayloadAndSlotAndLoopLinesAreNotCompared() async {
    let bot = ScriptedBot { line in line.hasPrefix("/transfer") ? ["transfer_form"] : [] }
    let verdict = await bot.run(
      TestStory(
        name: "form",
        steps: [
          Self.user(
            nil, intent: "transfer", [TestStory.Entity(entity: "amount", value: .number(50))]),
          .slot("amount", .number(50)), Self.action("transfer_form"), .activeLoop("transfer_form"),
        ], location: Self.at))
    #expect(verdict.passed)
    #expect(bot.sent.withLock { $0 } == ["/transfer{\"amount\":50}"])
    #expect(
      verdict.annotated == [
        "- intent: transfer", "  entities:", "  - entity: amount", "    value: 50",
        "- slot_was_set:", "  - amount: 50", "- action: transfer_form",
        "- active_loop: transfer_form",
      ])
  }

  @Test func aRetrievalResponseRunsUnderItsBaseName() async {
    let bot = ScriptedBot(retrieval: "faq/ask_visa") { _ in ["utter_faq"] }
    let verdict = await bot.run(
      TestStory(
        name: "faq", steps: [Self.user("visa?"), Self.action("utter_faq/ask_visa")],
        location: Self.at))
    #expect(verdict.passed)
    let other = await ScriptedBot(retrieval: "faq/ask_work") { _ in ["utter_faq"] }.run(
      TestStory(
        name: "faq", steps: [Self.user("visa?"), Self.action("utter_faq/ask_visa")],
        location: Self.at))
    #expect(other.firstWrong?.prediction.action == "utter_faq/ask_work")
  }

  /// Where the bot parts from the story at a turn its NLU read otherwise, that reading
  /// is said and marked; a user line's entity marks are written back as they were.
  @Test func aMisreadTurnIsSaidAndMarksAreKept() async {
    let bot = ScriptedBot(reads: ["amazing in Brno": "greet"]) { line in
      line == "amazing in Brno" ? ["utter_greet"] : []
    }
    let verdict = await bot.run(
      TestStory(
        name: "misread",
        steps: [
          Self.user(
            "amazing in Brno", intent: "mood_great",
            [TestStory.Entity(entity: "city", value: .string("Brno"), start: 11, end: 15)]),
          Self.action("utter_happy"),
        ], location: Self.at))
    #expect(verdict.misread?.intent == "greet")
    #expect(verdict.misread?.expected == "mood_great")
    #expect(verdict.readings.count == 1)
    #expect(
      verdict.annotated == [
        "- user: \"amazing in [Brno](city)\"", "  intent: mood_great  # predicted: greet",
        "- action: utter_happy  # executed: utter_greet",
      ])
    // Read as the story says: no misread, though the story fails.
    let right = await ScriptedBot { _ in ["utter_greet"] }.run(
      TestStory(
        name: "r", steps: [Self.user("hi", intent: "hi"), Self.action("utter_happy")],
        location: Self.at))
    #expect(right.misread == nil && !right.passed)
  }

  @Test func storyLinesAreWrittenAsAStoryWritesThem() {
    #expect(
      TestStory.yaml(
        text: "two to Brno", intent: "book",
        entities: [
          TestStory.Entity(entity: "count", value: .number(2), start: 0, end: 3),
          TestStory.Entity(entity: "city", value: .string("Brno"), role: "to", start: 7, end: 11),
        ]) == [
          #"- user: "[two]{\"entity\":\"count\",\"value\":2} to [Brno]{\"entity\":\"city\",\"role\":\"to\",\"value\":\"Brno\"}""#,
          "  intent: book",
        ])
    #expect(
      TestStory.yaml(
        text: nil, intent: "inform",
        entities: [
          TestStory.Entity(entity: "city", value: .string("Brno")),
          TestStory.Entity(entity: "amount", value: .number(50)),
        ]) == [
          "- intent: inform", "  entities:", "  - city: Brno", "  - entity: amount",
          "    value: 50",
        ])
    // A mark past the text's end (never from the parser) is left out, not a crash.
    #expect(
      TestStory.yaml(
        text: "hi", intent: "greet",
        entities: [TestStory.Entity(entity: "x", value: .string("y"), start: 1, end: 9)])
        == ["- user: \"hi\"", "  intent: greet"])
  }

  @Test func aRuleThatDoesNotWaitEndsWithoutTheListen() async {
    var story = TestStory(
      name: "rule", steps: [Self.user("sad"), Self.action("utter_cheer_up")], location: Self.at)
    story.endsListening = false
    #expect(await Self.moodBot().run(story).passed)
  }

  @Test func aBotThatCannotBeReachedOrReadIsAnErrorNotAVerdict() async {
    let story = TestStory(
      name: "s", steps: [Self.user("hello"), Self.action("utter_greet")], location: Self.at)
    let unreachable = await StoryExecutor.run(
      story, send: { _ in "connection refused" }, events: { [] })
    #expect(unreachable.error?.detail == "connection refused")
    #expect(!unreachable.passed)
    let unread = await StoryExecutor.run(story, send: { _ in nil }, events: { nil })
    #expect(unread.error != nil)
    #expect(unread.checks.isEmpty)
  }

  @Test func aTurnHasEndedWhenTheBotListensAfterTheUser() {
    let user: JSONValue = .object(["event": .string("user")])
    let listen = StoryJudge.action("action_listen")
    #expect(StoryExecutor.turnEnded([listen, user, StoryJudge.action("utter_greet"), listen]))
    #expect(!StoryExecutor.turnEnded([listen, user, StoryJudge.action("utter_greet")]))
    #expect(!StoryExecutor.turnEnded([listen, user]))
    #expect(!StoryExecutor.turnEnded([]))
  }
}
