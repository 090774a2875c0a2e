import Foundation
import MigrantChatCore
import Testing

@testable import MigrantChatIO

/// Rasa's test stories, read as `rasa test core --stories` reads them.
@Suite struct TestStoryParserTests {
  static func stories(_ yaml: String) throws(TranscriptParser.Problem) -> [Transcript] {
    try TranscriptParser.parse(yaml, file: "t.yml")
  }

  @Test func storiesAndRulesWithEveryStep() throws {
    let read = try Self.stories(
      """
      version: "3.1"
      stories:
      - story: housing
        steps:
        - user: |
            a flat in [Brno](city) for [two]{"entity": "count", "value": 2, "role": "adults"}
          intent: housing
        - slot_was_set:
          - city: Brno
          - asked
        - action: action_housing
        - active_loop: housing_form
        - active_loop: null
        - intent: inform
          entities:
          - city: Praha
          - entity: count
            value: 3
      rules:
      - rule: bye
        wait_for_user_input: false
        steps:
        - intent: goodbye
        - action: utter_goodbye
      """)
    #expect(read.map(\.name) == ["housing", "bye"])
    let story = try #require(read.first?.story)
    guard case .user(let text, let intent, let entities, _) = story.steps[0] else {
      Issue.record("\(story.steps)")
      return
    }
    #expect(text == "a flat in Brno for two" && intent == "housing")
    #expect(
      entities == [
        TestStory.Entity(entity: "city", value: .string("Brno"), start: 10, end: 14),
        TestStory.Entity(
          entity: "count", value: .number(2), role: "adults", start: 19, end: 22),
      ])
    #expect(
      story.steps[1] == .slot("city", .string("Brno")) && story.steps[2] == .slot("asked", nil))
    #expect(story.steps[4] == .activeLoop("housing_form") && story.steps[5] == .activeLoop(nil))
    guard case .user(nil, "inform", let given, _) = story.steps[6] else {
      Issue.record("\(story.steps[6])")
      return
    }
    #expect(given.map(\.entity) == ["city", "count"] && given[1].value == .number(3))
    #expect(read[1].story?.endsListening == false)
    #expect(read.allSatisfy { $0.steps.isEmpty })
  }

  /// Entities and intents as Rasa reads them: a bare name, a value with its role beside
  /// it; an intent trimmed and without its `/`; `yes` stays text; a user line's marks, not
  /// `entities:`, are its entities.
  @Test func entitiesIntentsAndValuesAsRasaReadsThem() throws {
    let read = try Self.stories(
      """
      stories:
      - story: a
        steps:
        - intent: " /inform "
          entities:
          - city
          - city: Berlin
            role: departure
        - slot_was_set:
          - agreed: yes
        - user: to [Brno](city)
          intent: inform
          entities:
          - city: Praha
      """)
    let steps = try #require(read.first?.story?.steps)
    #expect(
      steps[0]
        == .user(
          text: nil, intent: "inform",
          entities: [
            TestStory.Entity(entity: "city", value: .string("")),
            TestStory.Entity(entity: "city", value: .string("Berlin"), role: "departure"),
          ], location: SourceLocation(file: "t.yml", line: 4)))
    #expect(steps[1] == .slot("agreed", .string("yes")))
    guard case .user(_, _, let marked, _) = steps[2] else { return }
    #expect(marked.map(\.value) == [.string("Brno")])
  }

  /// `or:` makes one story per alternative.
  @Test func orMakesAStoryPerAlternative() throws {
    let read = try Self.stories(
      """
      stories:
      - story: yes or sure
        steps:
        - or:
          - intent: affirm
          - intent: thankyou
        - action: utter_ok
      """)
    #expect(read.map(\.name) == ["yes or sure (or 1)", "yes or sure (or 2)"])
    #expect(read.compactMap(\.story?.name) == ["yes or sure", "yes or sure"])
  }

  @Test(arguments: [
    ("stories:\n- story: a\n  steps:\n  - checkpoint: c1\n", "t.yml:4:5: ", "checkpoint"),
    (
      "rules:\n- rule: a\n  condition:\n  - active_loop: f\n  steps: []\n", "t.yml:4:3: ",
      "condition"
    ),
    ("stories:\n- story: a\n  steps:\n  - bot: Hello\n", "t.yml:4:5: ", "bot"),
    ("stories:\n- story: a\n  steps:\n  - acton: x\n", "t.yml:4:5: ", "acton"),
    ("stories:\n- story: a\n  stpes: []\n", "t.yml:3:3: ", "stpes"),
    ("stories:\n- steps: []\n", "t.yml:2:3: ", "story"),
    ("stories:\n- story: a\n  steps:\n  - user: hi\n    intnet: greet\n", "t.yml:5:5: ", "intnet"),
    ("stories:\n- story: a\n  steps:\n  - slot_was_set: x\n", "t.yml:4:19: ", "slot_was_set"),
    ("stories:\n- story: a\n  steps: []\n", "t.yml:3:10: ", "at least one step"),
    ("stories:\n- story: a\n  steps:\n  - or: []\n", "t.yml:4:9: ", "alternatives"),
    // A name left empty would be judged as "expected , the model predicted …".
    ("stories:\n- story: a\n  steps:\n  - intent:\n", "t.yml:4:", "intent"),
    // Rasa's other files left in tests/ are said as what they are; a typo of a Rasa key
    // is named, not `version`.
    (
      "version: \"3.1\"\nnlu:\n- intent: greet\n", "t.yml:2:1: ",
      "nlu: this is Rasa's training data"
    ),
    ("version: \"3.1\"\nstorys:\n- story: a\n", "t.yml:2:1: ", "unknown key 'storys'"),
    ("stories:\n- story: a\n  steps:\n  - intent: greet\n  - action: \"\"\n", "t.yml:5:", "action"),
    (
      "stories:\n- story: a\n  steps:\n  - slot_was_set:\n    - \" \"\n", "t.yml:5:", "slot_was_set"
    ),
  ])
  func whatCannotBeJudgedIsRefusedWithItsLine(yaml: String, place: String, names: String) {
    do {
      _ = try Self.stories(yaml)
      Issue.record("read: \(yaml)")
    } catch {
      let message = error.message(Localizer(.en))
      #expect(message.hasPrefix(place) && message.contains(names), "\(message)")
    }
  }
}
