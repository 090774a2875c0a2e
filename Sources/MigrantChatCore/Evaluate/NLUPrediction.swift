import Foundation

/// What a bot's `POST /model/parse` made of a text, as `rasa test nlu` reads it:
/// the intent and its ranking, the entities with where they are, and the tokens
/// the model split the text into (`text_tokens`, which Rasa 3 returns).
///
/// Offsets are Unicode scalars, as Python counts a string's characters.
public struct NLUPrediction: Sendable, Hashable {
  /// An intent and how sure the bot was of it, as the inspector shows them.
  public typealias Ranked = TurnInsight.Ranked

  /// An entity found, or marked in a test example.
  public struct Entity: Sendable, Hashable {
    public var entity: String
    /// The value after the bot's synonym mapping, as text (`Praha` for "Prague").
    public var value: String
    public var role: String?
    public var group: String?
    public var start: Int
    public var end: Int
    public var extractor: String?
    /// A test example's mark says the value (`(city:Praha)`, `"value": …`); without
    /// one, the bot's value for the marked words is taken (its synonyms applied).
    public var valueStated: Bool

    public init(
      entity: String, value: String, role: String? = nil, group: String? = nil, start: Int,
      end: Int, extractor: String? = nil, valueStated: Bool = true
    ) {
      self.entity = entity
      self.value = value
      self.role = role
      self.group = group
      self.start = start
      self.end = end
      self.extractor = extractor
      self.valueStated = valueStated
    }

    /// Rasa's label for it: the type, then its group and role when it has them
    /// (`city`, `city.from`).
    public var label: String {
      ([entity, group, role] as [String?]).compactMap { $0 }.filter { !$0.isEmpty }
        .joined(separator: ".")
    }
  }

  public var intent: Ranked?
  /// Every intent the bot ranked, best first (the intent itself among them).
  public var ranking: [Ranked]
  public var entities: [Entity]
  /// Each token's start and end.
  public var tokens: [Range<Int>]

  public init(
    intent: Ranked?, ranking: [Ranked] = [], entities: [Entity] = [], tokens: [Range<Int>] = []
  ) {
    self.intent = intent
    self.ranking = ranking
    self.entities = entities
    self.tokens = tokens
  }

  /// Rasa's answer to `/model/parse`; what it lacks is left empty.
  public init(parse: JSONValue) {
    intent = parse["intent"].flatMap(Self.ranked)
    ranking = parse["intent_ranking"]?.arrayValue?.compactMap(Self.ranked) ?? []
    entities =
      parse["entities"]?.arrayValue?.compactMap { entry -> Entity? in
        guard let name = entry["entity"]?.stringValue,
          let start = entry["start"]?.numberValue.flatMap(Self.offset),
          let end = entry["end"]?.numberValue.flatMap(Self.offset), start <= end
        else { return nil }
        return Entity(
          entity: name, value: Self.text(of: entry["value"] ?? .null),
          role: entry["role"]?.stringValue, group: entry["group"]?.stringValue, start: start,
          end: end, extractor: entry["extractor"]?.stringValue)
      } ?? []
    tokens =
      parse["text_tokens"]?.arrayValue?.compactMap { pair -> Range<Int>? in
        guard let bounds = pair.arrayValue, bounds.count == 2,
          let start = bounds[0].numberValue.flatMap(Self.offset),
          let end = bounds[1].numberValue.flatMap(Self.offset), start <= end
        else { return nil }
        return start..<end
      } ?? []
  }

  /// Rasa's fallback intent, which `rasa test nlu` undoes.
  public static let fallbackIntent = "nlu_fallback"

  /// Whether the bot answered with its fallback intent.
  public var isFallback: Bool { intent?.name == Self.fallbackIntent }

  /// The prediction as `rasa test nlu` judges it: an `nlu_fallback` undone, so the
  /// intent the classifier ranked first is judged (Rasa's `undo_fallback_prediction`).
  public var withoutFallback: NLUPrediction {
    guard isFallback, ranking.count >= 2 else { return self }
    var undone = self
    undone.intent = ranking[1]
    undone.ranking = Array(ranking.dropFirst())
    return undone
  }

  /// Extractors whose entities `rasa test nlu` leaves out (pretrained ones).
  public static let pretrainedExtractors: Set<String> = [
    "DucklingEntityExtractor", "SpacyEntityExtractor",
  ]

  /// An entity value as text: a string as it is, a number as JSON writes it.
  public static func text(of value: JSONValue) -> String {
    switch value {
    case .string(let text): text
    case .null: ""
    default: value.compactText
    }
  }

  private static func ranked(_ entry: JSONValue) -> Ranked? {
    guard let name = entry["name"]?.stringValue else { return nil }
    return Ranked(name: name, confidence: entry["confidence"]?.numberValue)
  }

  private static func offset(_ number: Double) -> Int? {
    guard number.isFinite, number >= 0, number < 1e9, number == number.rounded() else {
      return nil
    }
    return Int(number)
  }
}
