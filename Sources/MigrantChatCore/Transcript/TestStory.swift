import Foundation

/// A Rasa test story (`stories:` or `rules:` in a test file), judged as `rasa test core`
/// judges it: the story's events are given to the deployed bot's model one by one, and
/// before each action the story names, the model's next-action prediction must be it.
public struct TestStory: Sendable, Hashable {
  public var name: String
  public var steps: [Step]
  public var location: SourceLocation
  /// A rule with `wait_for_user_input: false` ends without the bot listening.
  public var endsListening = true

  public init(name: String, steps: [Step], location: SourceLocation) {
    self.name = name
    self.steps = steps
    self.location = location
  }

  /// A `user:` line and its entities as the story wrote them, marks put back (where an
  /// entity's place is known), for `failed_test_stories.yml`: a story written back must
  /// be judged as the one read.
  public static func yaml(text: String?, intent: String, entities: [Entity]) -> [String] {
    guard let text else {
      return ["- intent: " + intent] + (entities.isEmpty ? [] : ["  entities:"])
        + entities.flatMap(\.listed)
    }
    var scalars = Array(text.unicodeScalars)
    let placed = entities.filter { entity in
      guard let start = entity.start, let end = entity.end else { return false }
      return 0 <= start && start < end && end <= scalars.count
    }
    // From the last mark back, so the earlier places stay where they were.
    for entity in placed.sorted(by: { ($0.start ?? 0) > ($1.start ?? 0) }) {
      guard let start = entity.start, let end = entity.end else { continue }
      var shown = String.UnicodeScalarView()
      shown.append(contentsOf: scalars[start..<end])
      scalars.replaceSubrange(start..<end, with: entity.mark(String(shown)).unicodeScalars)
    }
    var marked = String.UnicodeScalarView()
    marked.append(contentsOf: scalars)
    return [
      "- user: "
        + JSONValue.string(String(marked).trimmingCharacters(in: .whitespacesAndNewlines))
        .compactText,
      "  intent: " + intent,
    ]
  }

  public enum Step: Sendable, Hashable {
    /// A user turn: its text with the entity marks taken out (nil with only an intent),
    /// its intent (nil: the bot's NLU reads the text), its entities.
    case user(text: String?, intent: String?, entities: [Entity], location: SourceLocation)
    case action(String, location: SourceLocation)
    /// `active_loop: NAME`, or `active_loop: null` (the form ended or was left).
    case activeLoop(String?)
    /// `slot_was_set`: a value, or nil for a bare name (the domain's default for its type).
    case slot(String, JSONValue?)

    /// The step as a story writes it (an action's line, a slot, a loop; a user turn is
    /// written with its entities by `TestStory.yaml`).
    var yaml: [String] {
      switch self {
      case .user: []
      case .action(let name, _): ["- action: " + name]
      case .activeLoop(let name): ["- active_loop: " + (name ?? "null")]
      case .slot(let name, let value):
        ["- slot_was_set:", "  - " + name + (value.map { ": " + $0.compactText } ?? "")]
      }
    }
  }

  public struct Entity: Sendable, Hashable {
    public var entity: String
    public var value: JSONValue
    public var role: String?
    public var group: String?
    /// Where the mark stood in the text, when it was marked in a `user:` line.
    public var start: Int?
    public var end: Int?

    public init(
      entity: String, value: JSONValue, role: String? = nil, group: String? = nil,
      start: Int? = nil, end: Int? = nil
    ) {
      self.entity = entity
      self.value = value
      self.role = role
      self.group = group
      self.start = start
      self.end = end
    }

    /// The entity as a story marks it in a `user:` line: `[Brno](city)`, or with JSON
    /// when it has a value other than its text, a role or a group.
    func mark(_ shown: String) -> String {
      if value == .string(shown) && role == nil && group == nil {
        return "[\(shown)](\(entity))"
      }
      var fields: [String: JSONValue] = ["entity": .string(entity), "value": value]
      if let role { fields["role"] = .string(role) }
      if let group { fields["group"] = .string(group) }
      return "[\(shown)]" + JSONValue.object(fields).compactText
    }

    /// The entity as an `intent:` step lists it under `entities:`.
    var listed: [String] {
      if case .string(let text) = value, role == nil, group == nil,
        !text.contains(where: { ":#\"'\n".contains($0) })
      {
        return ["  - " + entity + ": " + text]
      }
      var lines = ["  - entity: " + entity, "    value: " + value.compactText]
      if let role { lines.append("    role: " + JSONValue.string(role).compactText) }
      if let group { lines.append("    group: " + JSONValue.string(group).compactText) }
      return lines
    }

    var json: JSONValue {
      var fields: [String: JSONValue] = ["entity": .string(entity), "value": value]
      if let role { fields["role"] = .string(role) }
      if let group { fields["group"] = .string(group) }
      if let start, let end {
        fields["start"] = .number(Double(start))
        fields["end"] = .number(Double(end))
      }
      return .object(fields)
    }
  }
}

/// What a story judge needs of the bot: its domain and its model's predictions
/// (Rasa's HTTP API: `GET /domain`, `POST /model/predict`, `POST /model/parse`).
public protocol StoryModel: Sendable {
  /// The bot's domain as Rasa's API gives it (JSON), or why not, in a few words.
  func domain() async -> Result<JSONValue, StoryModelFailure>
  /// The next action after `events` (a tracker's events, oldest first).
  func predict(_ events: [JSONValue]) async -> Result<StoryPrediction, StoryModelFailure>
  /// What the bot's NLU reads in `text` (`parse_data`).
  func parse(_ text: String) async -> Result<JSONValue, StoryModelFailure>
}

public struct StoryModelFailure: Error, Sendable, Hashable {
  /// What was asked, and what went wrong when it is no transport error.
  public var detail: String
  /// The transport's error (connection refused, a timeout), said in the user's language.
  public var error: ChatError?

  public init(_ detail: String, error: ChatError? = nil) {
    self.detail = detail
    self.error = error
  }

  public func message(_ l10n: Localizer) -> String {
    error.map { detail + ": " + $0.message(l10n) } ?? detail
  }
}

public struct StoryPrediction: Sendable, Hashable {
  public var action: String
  public var policy: String?
  public var confidence: Double

  public init(action: String, policy: String?, confidence: Double) {
    self.action = action
    self.policy = policy
    self.confidence = confidence
  }

  /// Rasa's `/model/predict` answer: scores in the domain's order, the highest wins
  /// (the first of equal ones, as numpy's argmax).
  public init?(json: JSONValue) {
    guard case .array(let scores)? = json["scores"] else { return nil }
    var best: (action: String, score: Double)?
    for score in scores {
      guard let action = score["action"]?.stringValue, let value = score["score"]?.numberValue
      else { continue }
      if value > best?.score ?? -.infinity { best = (action, value) }
    }
    guard let best else { return nil }
    self.init(action: best.0, policy: json["policy"]?.stringValue, confidence: best.1)
  }
}

/// The domain facts a story's events depend on: which slots an entity fills, what a
/// slot named bare is set to, which loops are forms.
struct StoryDomain: Sendable {
  struct EntityMapping: Sendable {
    var slot: String
    var entity: String
    var role: String?
    var group: String?
    /// A list slot takes every value; another slot the last.
    var isList: Bool
  }
  var entityMappings: [EntityMapping] = []
  var defaults: [String: JSONValue] = [:]
  var forms: Set<String> = []
  var storeEntitiesAsSlots = true

  /// From `GET /domain` (JSON): slots with their mappings and types, forms, config.
  init(json: JSONValue) {
    if case .object(let slots)? = json["slots"] {
      for (name, slot) in slots.sorted(by: { $0.key < $1.key }) {
        switch slot["type"]?.stringValue {
        // Rasa's defaults for a slot named without a value (DEFAULT_VALUE_TEXT_SLOTS).
        case "text": defaults[name] = .string("filled")
        case "list": defaults[name] = .array([.string("filled")])
        default: defaults[name] = .null
        }
        guard case .array(let mappings)? = slot["mappings"] else { continue }
        for mapping in mappings where mapping["type"]?.stringValue == "from_entity" {
          // A mapping for a form's turns only is the form's to fill, not the story's.
          if case .array(let conditions)? = mapping["conditions"], let first = conditions.first,
            first["active_loop"]?.stringValue != nil
          {
            continue
          }
          guard let entity = mapping["entity"]?.stringValue else { continue }
          entityMappings.append(
            EntityMapping(
              slot: name, entity: entity, role: mapping["role"]?.stringValue,
              group: mapping["group"]?.stringValue, isList: slot["type"]?.stringValue == "list"))
        }
      }
    }
    switch json["forms"] {
    case .object(let forms)?: self.forms = Set(forms.keys)
    case .array(let forms)?: self.forms = Set(forms.compactMap(\.stringValue))
    default: break
    }
    if case .bool(let store)? = json["config"]?["store_entities_as_slots"] {
      storeEntitiesAsSlots = store
    }
  }

  /// The slot events Rasa adds after a user turn with these entities.
  func slots(for entities: [TestStory.Entity]) -> [JSONValue] {
    guard storeEntitiesAsSlots else { return [] }
    var events: [JSONValue] = []
    for mapping in entityMappings {
      let values = entities.filter {
        $0.entity == mapping.entity && $0.role == mapping.role && $0.group == mapping.group
      }.map(\.value)
      guard let last = values.last else { continue }
      events.append(
        .object([
          "event": .string("slot"), "name": .string(mapping.slot),
          "value": mapping.isList ? .array(values) : last,
        ]))
    }
    return events
  }
}
