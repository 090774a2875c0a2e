import Foundation

/// A bot team's minimum-functionality test, as CheckList (Ribeiro et al., ACL 2020)
/// writes them: a sentence with slots (`{need} a flat in {city}`) filled from
/// lexicons, the intent every filling must get, and the slots whose words must come
/// back as entities.
public struct CheckListTemplate: Sendable, Hashable {
  public var text: String
  public var intent: String
  /// Slot name → the entity its words must be found as.
  public var entities: [String: String]

  public init(text: String, intent: String, entities: [String: String] = [:]) {
    self.text = text
    self.intent = intent
    self.entities = entities
  }

  /// One sentence made from the template, and the entities it must get.
  public struct Filled: Sendable, Hashable {
    public var template: CheckListTemplate
    public var text: String
    /// Entity name → the words put in its slot.
    public var entities: [String: String]

    /// As Rasa's training data writes it: each entity's words marked (`[Brno](city)`).
    public var annotated: String {
      var annotated = text
      for (entity, words) in entities.sorted(by: { $0.key < $1.key }) {
        if let range = annotated.range(of: words) {
          annotated.replaceSubrange(range, with: "[\(words)](\(entity))")
        }
      }
      return annotated
    }
  }

  /// The slots the text names, in order, each once.
  public var slots: [String] {
    var slots: [String] = []
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{"),
      let close = rest[open...].firstIndex(of: "}")
    {
      let name = String(rest[rest.index(after: open)..<close])
      if !name.isEmpty, !slots.contains(name) { slots.append(name) }
      rest = rest[rest.index(after: close)...]
    }
    return slots
  }

  /// Every filling (each slot from its lexicon), at most `limit`, drawn with `seed`
  /// when there are more; nil names a slot no lexicon has.
  public func filled(
    lexicons: [String: [String]], limit: Int = 20, seed: UInt64 = 1
  ) -> Result<[Filled], MissingLexicon> {
    let slots = self.slots
    if let missing = slots.first(where: { (lexicons[$0] ?? []).isEmpty }) {
      return .failure(MissingLexicon(slot: missing))
    }
    var combinations: [[String: String]] = [[:]]
    for slot in slots {
      combinations = combinations.flatMap { partial in
        (lexicons[slot] ?? []).map { word in partial.merging([slot: word]) { $1 } }
      }
      // Capped as it grows: a template of many slots never makes millions.
      if combinations.count > 10_000 { combinations = Array(combinations.prefix(10_000)) }
    }
    if combinations.count > limit {
      var generator = SeededGenerator(seed: seed ^ UtteranceVariants.stableHash(text))
      combinations = Array(combinations.shuffled(using: &generator).prefix(limit))
    }
    return .success(
      combinations.map { values in
        var sentence = text
        for (slot, word) in values {
          sentence = sentence.replacingOccurrences(of: "{\(slot)}", with: word)
        }
        var wanted: [String: String] = [:]
        for (slot, entity) in entities { wanted[entity] = values[slot] }
        return Filled(template: self, text: sentence, entities: wanted)
      })
  }

  public struct MissingLexicon: Error, Sendable, Hashable {
    public var slot: String
  }
}

/// What the bot made of one filled template.
public struct TemplateOutcome: Sendable, Hashable {
  public var filled: CheckListTemplate.Filled
  public var understood: String?
  public var confidence: Double?
  /// `label=value` as the bot found them.
  public var foundEntities: [String]

  public init(filled: CheckListTemplate.Filled, insight: TurnInsight) {
    self.filled = filled
    understood = insight.intent?.name
    confidence = insight.intent?.confidence
    foundEntities = insight.foundEntities
  }

  /// The template's intent at `minConfidence` or more, and each slot's entity found
  /// (its value the slot's words, or what the bot's synonyms make of them).
  public func passes(minConfidence: Double) -> Bool {
    understood == filled.template.intent && (confidence ?? 0) >= minConfidence
      && missingEntities.isEmpty
  }

  /// The entities the slots put in that the bot did not find.
  public var missingEntities: [String] {
    filled.entities.keys.sorted().filter { entity in
      !foundEntities.contains { $0.hasPrefix(entity + "=") }
    }
  }
}
