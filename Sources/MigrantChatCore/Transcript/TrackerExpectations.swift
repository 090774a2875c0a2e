import Foundation

/// What the tracker must show after a step, beyond `utter` and `slot_was_set`:
/// the checks of Rasa's end-to-end tests, made over HTTP through `--enable-api`.
public struct TrackerExpectations: Sendable, Hashable {
  /// `intent: NAME`, with `confidence: {min: 0.8}` when given.
  public var intent: IntentCheck?
  /// `entities`: each must be among the turn's entities (with its value, when given).
  public var entities: [EntityCheck] = []
  /// `slot_was_not_set`: no slot event for it in the turn (with that value, when given).
  public var slotsNotSet: [SlotCheck] = []
  /// `action` / `action_executed`: each ran in the turn, in any order.
  public var actions: [String] = []
  /// `not: {action: ...}`: none of these ran.
  public var notActions: [String] = []
  /// `bot_did_not_utter` / `not: {utter: ...}`: none of these responses was uttered.
  public var notUtters: [String] = []

  public init() {}

  public var count: Int {
    (intent == nil ? 0 : 1) + entities.count + slotsNotSet.count + actions.count
      + notActions.count + notUtters.count
  }

  public var isEmpty: Bool { count == 0 }
}

public struct IntentCheck: Sendable, Hashable {
  public var name: String
  public var minConfidence: Double?

  public init(name: String, minConfidence: Double? = nil) {
    self.name = name
    self.minConfidence = minConfidence
  }
}

public struct EntityCheck: Sendable, Hashable {
  public var entity: String
  public var value: JSONValue?

  public init(entity: String, value: JSONValue? = nil) {
    self.entity = entity
    self.value = value
  }
}

extension TrackerExpectations {
  /// Why the turn's tracker does not show what is expected; empty when it does.
  public func mismatches(_ events: [JSONValue], l10n: Localizer) -> [String] {
    let insight = TurnInsight(events: events)
    let lastUser = events.lastIndex { $0["event"]?.stringValue == "user" } ?? -1
    let turn = events.suffix(from: lastUser + 1)
    var reasons: [String] = []
    if let intent {
      let got = insight.intent
      if got?.name != intent.name {
        reasons.append(
          l10n(.replayIntentMismatch, ["expected": intent.name, "got": got?.name ?? "-"]))
      } else if let min = intent.minConfidence, let confidence = got?.confidence, confidence < min {
        reasons.append(
          l10n(
            .replayIntentConfidence,
            [
              "intent": intent.name, "got": TrackerLine.score(confidence),
              "min": TrackerLine.score(min),
            ]))
      }
    }
    for check in entities {
      let found = insight.entities.filter { $0.entity == check.entity }
      let matches = found.contains { entity in
        guard let value = check.value else { return true }
        return entity.value == value
          || entity.value.stringValue == value.stringValue
            && value.stringValue != nil
      }
      if !matches {
        let got = insight.entities.map {
          $0.entity + "=" + ($0.value.stringValue ?? $0.value.compactText)
        }
        reasons.append(
          l10n(
            .replayEntityMissing,
            [
              "entity": check.entity
                + (check.value.map { "=" + ($0.stringValue ?? $0.compactText) } ?? ""),
              "got": got.isEmpty ? "-" : got.joined(separator: ", "),
            ]))
      }
    }
    let slotEvents = turn.filter { $0["event"]?.stringValue == "slot" }
    for check in slotsNotSet {
      let set = slotEvents.filter { $0["name"]?.stringValue == check.name }
      let offending = set.filter { check.value == nil || $0["value"] == check.value }
      if let first = offending.first {
        reasons.append(
          l10n(
            .replaySlotSetUnexpectedly,
            ["slot": check.name, "value": (first["value"] ?? .null).compactText]))
      }
    }
    let ran = turn.compactMap { event -> String? in
      event["event"]?.stringValue == "action" ? event["name"]?.stringValue : nil
    }
    let uttered = turn.compactMap { event -> String? in
      guard event["event"]?.stringValue == "bot" else { return nil }
      return event["metadata"]?["utter_action"]?.stringValue
    }
    let ranText = ran.filter { $0 != "action_listen" }.joined(separator: ", ")
    for action in actions where !ran.contains(action) {
      reasons.append(
        l10n(.replayActionMissing, ["action": action, "actions": ranText.isEmpty ? "-" : ranText]))
    }
    for action in notActions where ran.contains(action) {
      reasons.append(l10n(.replayActionUnexpected, ["action": action]))
    }
    for utter in notUtters where uttered.contains(utter) || ran.contains(utter) {
      reasons.append(l10n(.replayUtterUnexpected, ["utter": utter]))
    }
    return reasons
  }
}
