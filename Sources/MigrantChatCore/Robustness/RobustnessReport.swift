import Foundation

/// One training example of a bot: the intent it should be understood as.
public struct RobustnessExample: Sendable, Hashable {
  public var intent: String
  public var text: String

  public init(intent: String, text: String) {
    self.intent = intent
    self.text = text
  }

  /// An example as Rasa's NLU training data writes it, entities marked
  /// (`[Brno](city)`, `[Brno](city:Brno)`, `[Brno]{"entity": "city"}`): the
  /// text a person would type, the marks taken out.
  public static func plainText(_ annotated: String) -> String {
    var output = ""
    var rest = Substring(annotated)
    while let open = rest.firstIndex(of: "[") {
      output += rest[..<open]
      let afterOpen = rest.index(after: open)
      guard let close = rest[afterOpen...].firstIndex(of: "]") else {
        output += rest[open...]
        return output
      }
      let inner = rest[afterOpen..<close]
      let next = rest.index(after: close)
      let pairs: [Character: Character] = ["(": ")", "{": "}"]
      if next < rest.endIndex, let ending = pairs[rest[next]],
        let end = rest[next...].firstIndex(of: ending)
      {
        output += inner
        rest = rest[rest.index(after: end)...]
      } else {
        output += rest[open..<next]
        rest = rest[next...]
      }
    }
    return output + rest
  }
}

/// What the bot understood of one variant, and whether that keeps the example's intent.
public struct RobustnessOutcome: Sendable, Hashable {
  public var example: RobustnessExample
  public var variant: UtteranceVariant
  /// The intent the bot found, nil when it could not be asked.
  public var understood: String?
  public var confidence: Double?

  public init(
    example: RobustnessExample, variant: UtteranceVariant, understood: String?,
    confidence: Double?
  ) {
    self.example = example
    self.variant = variant
    self.understood = understood
    self.confidence = confidence
  }

  /// Kept when the bot finds the example's intent at `minConfidence` or more.
  public func isKept(minConfidence: Double) -> Bool {
    understood == example.intent && (confidence ?? 0) >= minConfidence
  }
}

/// Variants and kept variants by class and by intent, and the failures, as the
/// command prints them and `--report` writes them.
public struct RobustnessReport: Sendable {
  public struct Count: Sendable, Hashable {
    public var variants = 0
    public var kept = 0

    public var share: Double { variants == 0 ? 1 : Double(kept) / Double(variants) }
  }

  public var outcomes: [RobustnessOutcome]
  public var minConfidence: Double

  public init(outcomes: [RobustnessOutcome], minConfidence: Double) {
    self.outcomes = outcomes
    self.minConfidence = minConfidence
  }

  /// Counts per class, in `VariantClass` order.
  public var classes: [(VariantClass, Count)] {
    VariantClass.allCases.compactMap { variantClass in
      let ofClass = outcomes.filter { $0.variant.variantClass == variantClass }
      guard !ofClass.isEmpty else { return nil }
      return (variantClass, count(ofClass))
    }
  }

  /// Counts per intent and class, intents by name.
  public var intents: [(String, [(VariantClass, Count)])] {
    Dictionary(grouping: outcomes, by: \.example.intent).sorted { $0.key < $1.key }.map {
      intent, outcomes in
      let byClass = VariantClass.allCases.compactMap { variantClass -> (VariantClass, Count)? in
        let ofClass = outcomes.filter { $0.variant.variantClass == variantClass }
        return ofClass.isEmpty ? nil : (variantClass, count(ofClass))
      }
      return (intent, byClass)
    }
  }

  public var failures: [RobustnessOutcome] {
    outcomes.filter { !$0.isKept(minConfidence: minConfidence) }
  }

  /// The share of all variants kept.
  public var kept: Double { count(outcomes).share }

  private func count(_ outcomes: [RobustnessOutcome]) -> Count {
    Count(
      variants: outcomes.count, kept: outcomes.count { $0.isKept(minConfidence: minConfidence) })
  }

  /// `--report`: `classes: {NAME: {variants, kept}}`, `intents`, `failures`.
  public var json: JSONValue {
    func counts(_ list: [(VariantClass, Count)]) -> JSONValue {
      .object(
        Dictionary(
          uniqueKeysWithValues: list.map {
            (
              $0.0.rawValue,
              .object([
                "variants": .number(Double($0.1.variants)), "kept": .number(Double($0.1.kept)),
              ])
            )
          }))
    }
    return .object([
      "min_confidence": .number(minConfidence),
      "variants": .number(Double(outcomes.count)),
      "kept": .number(Double(outcomes.count - failures.count)),
      "classes": counts(classes),
      "intents": .object(Dictionary(uniqueKeysWithValues: intents.map { ($0.0, counts($0.1)) })),
      "failures": .array(
        failures.map { outcome in
          .object([
            "intent": .string(outcome.example.intent), "example": .string(outcome.example.text),
            "class": .string(outcome.variant.variantClass.rawValue),
            "scheme": .string(outcome.variant.scheme), "variant": .string(outcome.variant.text),
            "understood": outcome.understood.map(JSONValue.string) ?? .null,
            "confidence": outcome.confidence.map(JSONValue.number) ?? .null,
          ])
        }),
    ])
  }

  /// The failing variants as Rasa NLU training data under their example's intent,
  /// to review and add (`--write-nlu`).
  public var nluYAML: String {
    var text = "version: \"3.1\"\nnlu:\n"
    for (intent, outcomes) in Dictionary(grouping: failures, by: \.example.intent).sorted(by: {
      $0.key < $1.key
    }) {
      text += "- intent: \(Self.yamlScalar(intent))\n  examples: |\n"
      var seen = Set<String>()
      for outcome in outcomes where seen.insert(outcome.variant.text).inserted {
        let line = outcome.variant.text.replacingOccurrences(of: "\n", with: " ")
        text += "    - \(line)\n"
      }
    }
    return text
  }

  /// A YAML plain scalar when the name is one, else double-quoted.
  static func yamlScalar(_ name: String) -> String {
    let plain =
      !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || "_-./".contains($0) }
    return plain ? name : JSONValue.string(name).compactText
  }
}
