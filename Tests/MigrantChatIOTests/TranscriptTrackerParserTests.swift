import Foundation
import MigrantChatCore
import MigrantChatIO
import Testing

/// The tracker checks of #18 in our format and in Rasa's test cases.
@Suite struct TranscriptTrackerParserTests {
  func parse(_ text: String) throws -> [Transcript] {
    try TranscriptParser.parse(text, file: "x.yaml")
  }

  @Test func ourFormatsTrackerKeys() throws {
    let step = try #require(
      try parse(
        """
        name: t
        steps:
          - user: I need a flat in Brno
            intent: {name: housing, confidence: {min: 0.8}}
            entities: [city, {entity: city, value: Brno}, {district: Centre}]
            slot_was_set: [topic, {city: Brno}]
            slot_was_not_set: [{name: mood, value: sad}, name]
            action: [action_housing, action_listen]
            utter: utter_housing
            not: [{action: action_fallback}, {utter: utter_goodbye}]
        """
      ).first?.steps.first)
    #expect(step.tracker.intent == IntentCheck(name: "housing", minConfidence: 0.8))
    #expect(
      step.tracker.entities == [
        EntityCheck(entity: "city"), EntityCheck(entity: "city", value: .string("Brno")),
        EntityCheck(entity: "district", value: .string("Centre")),
      ])
    #expect(step.slots.map(\.name) == ["topic", "city"])
    #expect(
      step.tracker.slotsNotSet == [
        SlotCheck(name: "mood", value: .string("sad")), SlotCheck(name: "name", value: nil),
      ])
    #expect(step.tracker.actions == ["action_housing", "action_listen"])
    #expect(step.utters == ["utter_housing"])
    #expect(step.tracker.notActions == ["action_fallback"])
    #expect(step.tracker.notUtters == ["utter_goodbye"])
    #expect(step.trackerCheckCount == 13)
  }

  @Test func rasaProAssertions() throws {
    let transcript = try #require(
      try parse(
        """
        test_cases:
          - test_case: flat
            steps:
              - user: I need a flat in Brno
                assertions:
                  - action_executed: action_housing
                  - slot_was_set:
                      - name: city
                        value: Brno
                  - slot_was_not_set:
                      - name: topic
                  - bot_uttered:
                      utter_name: utter_housing
                      text_matches: "lease$"
                      buttons:
                        - title: Back
                          payload: /back
                  - bot_did_not_utter:
                      utter_name: utter_goodbye
              - user: bye
              - slot_was_not_set: [city]
        """
      ).first)
    let step = transcript.steps[0]
    #expect(step.tracker.actions == ["action_housing"])
    #expect(step.slots == [SlotCheck(name: "city", value: .string("Brno"))])
    #expect(step.tracker.slotsNotSet == [SlotCheck(name: "topic", value: nil)])
    #expect(step.utters == ["utter_housing"])
    #expect(step.tracker.notUtters == ["utter_goodbye"])
    #expect(step.bot?.first?.text == .regex("lease$", ignoreCase: false))
    #expect(step.bot?.first?.buttons == .exact(["Back"]))
    #expect(step.inOrderAmongOthers)
    // Rasa's meaning: the text goes to the bot as written, never read as a button.
    #expect(step.verbatim && !step.clicked)
    #expect(transcript.steps[1].tracker.slotsNotSet == [SlotCheck(name: "city", value: nil)])
  }

  @Test(arguments: [
    ("intent: {name: x, confidence: {min: 2}}", "min"),
    ("intent: {confidence: {min: 0.5}}", "name"),
    ("not: {action: a, intent: b}", "intent"),
    ("entities: 3", "entities"),
    ("slot_was_not_set: topic", "slot_was_not_set"),
  ])
  func badTrackerKeysAreErrorsWithTheirLine(_ key: String, _ named: String) {
    do {
      _ = try TranscriptParser.parse("name: t\nsteps:\n  - user: hi\n    \(key)\n", file: "x.yaml")
      Issue.record("accepted \(key)")
    } catch {
      #expect(error.message(Localizer(.en)).contains(named), "\(error.message(Localizer(.en)))")
      #expect(error.line >= 3)
    }
  }

  @Test func unknownRasaAssertionsAreNamed() {
    do {
      _ = try TranscriptParser.parse(
        """
        test_cases:
          - test_case: x
            steps:
              - user: hi
                assertions:
                  - flow_started: greet
        """, file: "x.yaml")
      Issue.record("accepted flow_started")
    } catch {
      #expect(error.message(Localizer(.en)).contains("flow_started"))
    }
  }

  /// Rasa Pro's fixtures and metadata are read, not skipped (#46): a test case's
  /// fixtures become slot events in order, its metadata goes with every message, a
  /// step's own metadata over it; a name the file does not define is an error.
  @Test func rasaFixturesAndMetadataAreRead() throws {
    let cases = try parse(
      """
      fixtures:
        - premium:
            - membership_type: premium
            - logged_in: true
        - broke:
            - balance: 0
      metadata:
        - user_info:
            language: uk
            device: phone
        - urgent:
            device: laptop
            priority: high
      test_cases:
        - test_case: premium booking
          fixtures: [premium, broke]
          metadata: user_info
          steps:
            - user: "Hi!"
            - utter: utter_greet
            - user: "Book it"
              metadata: urgent
        - test_case: plain
          steps:
            - user: hello
      """)
    #expect(cases.count == 2)
    let premium = cases[0]
    #expect(premium.fixtures.map(\.name) == ["premium", "broke"])
    #expect(
      premium.fixtures.flatMap(\.events) == [
        slot("membership_type", .string("premium")), slot("logged_in", .bool(true)),
        slot("balance", .number(0)),
      ])
    #expect(premium.language == .uk)
    #expect(premium.steps[0].metadata == ["language": .string("uk"), "device": .string("phone")])
    #expect(
      premium.steps[1].metadata == [
        "language": .string("uk"), "device": .string("laptop"), "priority": .string("high"),
      ])
    #expect(cases[1].fixtures.isEmpty && cases[1].steps[0].metadata.isEmpty)
  }

  func slot(_ name: String, _ value: JSONValue) -> JSONValue {
    .object(["event": .string("slot"), "name": .string(name), "value": value])
  }

  @Test(arguments: [
    ("fixtures: [missing]", "fixtures 'missing' is not defined in this file (defined: premium)"),
    ("metadata: nope", "metadata 'nope' is not defined in this file (defined: -)"),
  ])
  func anUndefinedNameIsAnError(line: String, message: String) {
    do throws(TranscriptParser.Problem) {
      _ = try TranscriptParser.parse(
        """
        fixtures:
          - premium:
              - tier: gold
        test_cases:
          - test_case: x
            \(line)
            steps:
              - user: hi
        """, file: "x.yaml")
      Issue.record("accepted \(line)")
    } catch {
      #expect(error.message(Localizer(.en)).hasSuffix(message), "\(error.message(Localizer(.en)))")
      #expect(error.line == 6)
    }
  }

  /// A stub does nothing against a deployed bot: an error that names the actions and
  /// why, never a silent pass; metadata on a bot step is refused as well.
  @Test func stubsAndMetadataOnABotStepAreRefused() {
    let stubs = """
      stub_custom_actions:
        check_balance:
          events: []
        transfer_money:
          events: []
      test_cases:
        - test_case: x
          steps:
            - user: hi
      """
    let botStepMetadata = """
      metadata:
        - m: {device: phone}
      test_cases:
        - test_case: x
          steps:
            - user: hi
            - utter: utter_greet
              metadata: m
      """
    for (text, expected) in [
      (stubs, "stub_custom_actions (check_balance, transfer_money): a deployed bot runs its own"),
      (botStepMetadata, "on a user step"),
    ] {
      do throws(TranscriptParser.Problem) {
        _ = try TranscriptParser.parse(text, file: "x.yaml")
        Issue.record("accepted: \(text)")
      } catch {
        #expect(
          error.message(Localizer(.en)).contains(expected), "\(error.message(Localizer(.en)))")
      }
    }
  }
}
