import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct TrackerExpectationsTests {
  let l10n = Localizer(.en)

  @Test func whatTheTurnShowsPasses() {
    var expected = TrackerExpectations()
    expected.intent = IntentCheck(name: "housing", minConfidence: 0.9)
    expected.entities = [
      EntityCheck(entity: "city", value: .string("Brno")), EntityCheck(entity: "city"),
    ]
    expected.slotsNotSet = [
      SlotCheck(name: "topic", value: .string("insurance")), SlotCheck(name: "name", value: nil),
    ]
    expected.actions = ["action_housing"]
    expected.notActions = ["action_fallback"]
    expected.notUtters = ["utter_goodbye"]
    #expect(expected.mismatches(sampleTrackerEvents, l10n: l10n) == [])
    #expect(expected.count == 8)
  }

  @Test func eachWrongExpectationSaysWhat() {
    var expected = TrackerExpectations()
    expected.intent = IntentCheck(name: "insurance")
    expected.entities = [EntityCheck(entity: "city", value: .string("Praha"))]
    expected.slotsNotSet = [SlotCheck(name: "city", value: nil)]
    expected.actions = ["action_insurance"]
    expected.notActions = ["action_housing"]
    #expect(
      expected.mismatches(sampleTrackerEvents, l10n: l10n) == [
        "intent: expected insurance, got housing",
        "entity city=Praha not found; the turn's entities: city=Brno",
        "slot city was set (\"Brno\"), expected not to be",
        "action action_insurance did not run; ran: action_housing",
        "action action_housing ran, expected not to",
      ])
    var confident = TrackerExpectations()
    confident.intent = IntentCheck(name: "housing", minConfidence: 0.95)
    #expect(
      confident.mismatches(sampleTrackerEvents, l10n: l10n) == [
        "intent housing: confidence 0.91 is under 0.95"
      ])
  }
}
