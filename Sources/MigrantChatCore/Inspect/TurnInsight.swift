import Foundation

/// What the bot understood in one turn, read from Rasa's tracker events.
///
/// The turn is everything after the last `user` event: that event's
/// `parse_data` gives the intent, the runner-up intents and the entities; the
/// `slot` events after it the slots that changed (the value before is the
/// slot's last value before the turn); the `action` events the actions and
/// the policies that chose them.
public struct TurnInsight: Sendable, Hashable {
  public var text: String?
  public var intent: Ranked?
  /// The runner-up intents, best first, at most `runnersUp`.
  public var ranking: [Ranked]
  public var entities: [Entity]
  public var slots: [SlotChange]
  public var actions: [ActionRun]

  public static let runnersUp = 3

  public struct Ranked: Sendable, Hashable {
    public var name: String
    public var confidence: Double?

    public init(name: String, confidence: Double?) {
      self.name = name
      self.confidence = confidence
    }
  }

  public struct Entity: Sendable, Hashable {
    public var entity: String
    public var value: JSONValue
    /// The extractor that found it (`RegexEntityExtractor`, `DIETClassifier`).
    public var extractor: String?

    public init(entity: String, value: JSONValue, extractor: String? = nil) {
      self.entity = entity
      self.value = value
      self.extractor = extractor
    }
  }

  public struct SlotChange: Sendable, Hashable {
    public var name: String
    /// Nil: the slot had no value (or was never set) before this turn.
    public var old: JSONValue?
    public var new: JSONValue
  }

  public struct ActionRun: Sendable, Hashable {
    public var name: String
    public var policy: String?
    public var confidence: Double?
  }

  public init(
    text: String? = nil, intent: Ranked? = nil, ranking: [Ranked] = [], entities: [Entity] = [],
    slots: [SlotChange] = [], actions: [ActionRun] = []
  ) {
    self.text = text
    self.intent = intent
    self.ranking = ranking
    self.entities = entities
    self.slots = slots
    self.actions = actions
  }

  /// The latest turn of `events` (a tracker's `events` array).
  public init(events: [JSONValue]) {
    let lastUser = events.lastIndex { $0["event"]?.stringValue == "user" }
    let start = (lastUser ?? -1) + 1
    var insight = TurnInsight()
    if let lastUser {
      let user = events[lastUser]
      insight = TurnInsight(parse: user["parse_data"] ?? .null, text: user["text"]?.stringValue)
    }
    var before: [String: JSONValue] = [:]
    for event in events[..<start] where event["event"]?.stringValue == "slot" {
      if let name = event["name"]?.stringValue { before[name] = event["value"] ?? .null }
    }
    var changes: [SlotChange] = []
    for event in events[start...] {
      switch event["event"]?.stringValue {
      case "slot":
        guard let name = event["name"]?.stringValue else { continue }
        let value = event["value"] ?? .null
        if let index = changes.firstIndex(where: { $0.name == name }) {
          changes[index].new = value
        } else {
          let old = before[name].flatMap { $0 == .null ? nil : $0 }
          changes.append(SlotChange(name: name, old: old, new: value))
        }
      case "action":
        guard let name = event["name"]?.stringValue, name != "action_listen" else { continue }
        insight.actions.append(
          ActionRun(
            name: name, policy: event["policy"]?.stringValue,
            confidence: event["confidence"]?.numberValue))
      default:
        continue
      }
    }
    // A slot set to the value it had is no change.
    insight.slots = changes.filter { $0.old != $0.new && !($0.old == nil && $0.new == .null) }
    self = insight
  }

  /// What NLU made of a text: `parse_data` of a user event, or `/model/parse`'s answer.
  public init(parse: JSONValue, text: String? = nil) {
    self.init(text: text ?? parse["text"]?.stringValue)
    if let name = parse["intent"]?["name"]?.stringValue {
      intent = Ranked(name: name, confidence: parse["intent"]?["confidence"]?.numberValue)
    }
    if case .array(let ranked)? = parse["intent_ranking"] {
      ranking = ranked.compactMap { entry -> Ranked? in
        guard let name = entry["name"]?.stringValue, name != intent?.name else { return nil }
        return Ranked(name: name, confidence: entry["confidence"]?.numberValue)
      }.prefix(Self.runnersUp).map { $0 }
    }
    if case .array(let found)? = parse["entities"] {
      entities = found.compactMap { entry in
        guard let name = entry["entity"]?.stringValue else { return nil }
        return Entity(
          entity: name, value: entry["value"] ?? .null,
          extractor: entry["extractor"]?.stringValue)
      }
    }
  }

  public var isEmpty: Bool {
    intent == nil && entities.isEmpty && slots.isEmpty && actions.isEmpty
  }
}
