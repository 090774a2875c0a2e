import Foundation
import MigrantChatCore
import Yams

/// The tracker checks of a step: our format's keys and Rasa's test-case assertions.
extension TranscriptParser.Reader {
  typealias Problem = TranscriptParser.Problem

  /// Our format's step keys: `intent`, `entities`, `slot_was_set`, `slot_was_not_set`,
  /// `action`, `utter`, `not: {action: ..., utter: ...}`.
  func trackerChecks(_ fields: [String: Node], into step: inout Transcript.Step) throws(Problem) {
    if let intent = fields["intent"] { step.tracker.intent = try intentCheck(intent) }
    if let entities = fields["entities"] { step.tracker.entities = try entityChecks(entities) }
    if let slots = fields["slot_was_set"] {
      step.slots += try slotChecks(slots, key: "slot_was_set")
    }
    if let slots = fields["slot_was_not_set"] {
      step.tracker.slotsNotSet += try slotChecks(slots, key: "slot_was_not_set")
    }
    if let action = fields["action"] { step.tracker.actions += try names(action, key: "action") }
    if let utter = fields["utter"] { step.utters += try names(utter, key: "utter") }
    if let negated = fields["not"] {
      for node in negated.sequence.map(Array.init) ?? [negated] {
        let entries = try entries(
          node, allowed: ["action", "utter"], what: "a mapping", key: "not")
        if let action = entries["action"] {
          step.tracker.notActions += try names(action, key: "action")
        }
        if let utter = entries["utter"] { step.tracker.notUtters += try names(utter, key: "utter") }
      }
    }
  }

  /// Rasa's `assertions`: `action_executed`, `slot_was_set`, `slot_was_not_set`,
  /// `bot_uttered` (`utter_name`, `buttons`, `text_matches`), `bot_did_not_utter`.
  func assertions(_ node: Node, into step: inout Transcript.Step) throws(Problem) {
    guard let list = node.sequence else {
      throw problem(node, .expected(what: "a list", key: "assertions"))
    }
    let allowed = [
      "action_executed", "slot_was_set", "slot_was_not_set", "bot_uttered", "bot_did_not_utter",
    ]
    for item in list {
      for (name, value) in try entries(
        item, allowed: allowed, what: "an assertion", key: "assertions")
      {
        switch name {
        case "action_executed": step.tracker.actions += try names(value, key: name)
        case "slot_was_set": step.slots += try slotChecks(value, key: name)
        case "slot_was_not_set": step.tracker.slotsNotSet += try slotChecks(value, key: name)
        case "bot_did_not_utter":
          let fields = try entries(
            value, allowed: ["utter_name", "buttons", "text_matches"], what: "a mapping", key: name)
          if let utter = fields["utter_name"] {
            step.tracker.notUtters.append(try text(utter, key: "utter_name"))
          }
        default:
          try botUttered(value, into: &step)
        }
      }
    }
  }

  /// `bot_uttered`: the response by name through the tracker; its text and buttons
  /// among the turn's messages, as Rasa checks them.
  private func botUttered(_ node: Node, into step: inout Transcript.Step) throws(Problem) {
    let fields = try entries(
      node, allowed: ["utter_name", "buttons", "text_matches"], what: "a mapping",
      key: "bot_uttered")
    if let utter = fields["utter_name"] { step.utters.append(try text(utter, key: "utter_name")) }
    guard fields["buttons"] != nil || fields["text_matches"] != nil else { return }
    var expectation = MessageExpectation(location: location(node))
    if let pattern = fields["text_matches"] {
      let regex = try text(pattern, key: "text_matches")
      guard (try? NSRegularExpression(pattern: regex)) != nil else {
        throw problem(pattern, .badRegex(pattern: regex))
      }
      expectation.text = .regex(regex, ignoreCase: false)
    }
    if let buttons = fields["buttons"] {
      guard let list = buttons.sequence else {
        throw problem(buttons, .expected(what: "a list", key: "buttons"))
      }
      let titles = try each(Array(list)) { button throws(Problem) -> String in
        if button.scalar != nil { return try text(button, key: "buttons") }
        let entry = try entries(
          button, allowed: ["title", "payload"], what: "a button", key: "buttons")
        guard let title = entry["title"] else { throw problem(button, .missing(key: "title")) }
        return try text(title, key: "title")
      }
      expectation.buttons = .exact(titles)
    }
    if step.bot == nil { step.bot = [] }
    step.bot?.append(expectation)
    step.inOrderAmongOthers = true
    step.allowExtra = true
  }

  private func intentCheck(_ node: Node) throws(Problem) -> IntentCheck {
    if node.scalar != nil { return IntentCheck(name: try text(node, key: "intent")) }
    let fields = try entries(
      node, allowed: ["name", "confidence"], what: "a mapping", key: "intent")
    guard let name = fields["name"] else { throw problem(node, .missing(key: "name")) }
    var check = IntentCheck(name: try text(name, key: "name"))
    if let confidence = fields["confidence"] {
      let bounds = try entries(confidence, allowed: ["min"], what: "a mapping", key: "confidence")
      guard let min = bounds["min"], let value = min.float, (0...1).contains(value) else {
        throw problem(confidence, .expected(what: "a number from 0 to 1", key: "min"))
      }
      check.minConfidence = value
    }
    return check
  }

  /// `[city]`, `[{city: Brno}]`, `[{entity: city, value: Brno}]` or `{city: Brno}`.
  private func entityChecks(_ node: Node) throws(Problem) -> [EntityCheck] {
    if let mapping = node.mapping {
      return mapping.map { EntityCheck(entity: $0.key.string ?? "", value: Self.json($0.value)) }
    }
    guard let list = node.sequence else {
      throw problem(node, .expected(what: "a list", key: "entities"))
    }
    var checks: [EntityCheck] = []
    for item in list {
      if let name = item.scalar?.string {
        checks.append(EntityCheck(entity: name))
      } else if let mapping = item.mapping, mapping["entity"] != nil {
        let fields = try entries(
          item, allowed: ["entity", "value"], what: "a mapping", key: "entities")
        checks.append(
          EntityCheck(
            entity: try text(fields["entity"] ?? item, key: "entity"),
            value: fields["value"].map(Self.json)))
      } else if let mapping = item.mapping {
        checks += mapping.map {
          EntityCheck(entity: $0.key.string ?? "", value: Self.json($0.value))
        }
      } else {
        throw problem(item, .expected(what: "an entity", key: "entities"))
      }
    }
    return checks
  }

  /// `[topic]`, `[{topic: insurance}]` (Rasa's older files) or `[{name: topic, value: …}]`
  /// (Rasa Pro's assertions).
  func slotChecks(_ node: Node, key: String) throws(Problem) -> [SlotCheck] {
    guard let list = node.sequence else { throw problem(node, .expected(what: "a list", key: key)) }
    var checks: [SlotCheck] = []
    for slot in list {
      if let name = slot.scalar?.string {
        checks.append(SlotCheck(name: name, value: nil))
      } else if let mapping = slot.mapping, mapping["name"] != nil {
        let fields = try entries(slot, allowed: ["name", "value"], what: "a mapping", key: key)
        checks.append(
          SlotCheck(
            name: try text(fields["name"] ?? slot, key: "name"),
            value: fields["value"].map(Self.json)))
      } else if let mapping = slot.mapping {
        checks += mapping.map { SlotCheck(name: $0.key.string ?? "", value: Self.json($0.value)) }
      } else {
        throw problem(slot, .expected(what: "a slot", key: key))
      }
    }
    return checks
  }

  /// One name or a list of names.
  private func names(_ node: Node, key: String) throws(Problem) -> [String] {
    if node.sequence != nil { return try list(node, key: key) }
    return [try text(node, key: key)]
  }
}
