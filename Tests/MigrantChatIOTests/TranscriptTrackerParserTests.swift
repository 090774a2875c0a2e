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
}
