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

extension RobustnessReport {
  /// What the command prints: the share kept, a table of classes, each intent's
  /// classes, and the first `failuresShown` failures (`example → variant: intent
  /// confidence`). Bot text is cleaned: intent names come from the server.
  public func text(_ l10n: Localizer, failuresShown: Int = 20) -> String {
    func percent(_ share: Double) -> String { l10n.number(share * 100, fractionDigits: 0) + "%" }
    func clean(_ text: String) -> String { TerminalSanitizer.clean(text, keepNewlines: false) }
    var lines: [String] = [
      l10n(
        .robustnessSummary,
        [
          "kept": String(outcomes.count - failures.count), "variants": String(outcomes.count),
          "share": percent(kept), "confidence": l10n.number(minConfidence, fractionDigits: 2),
        ]), "",
    ]
    let headers = [
      l10n(.robustnessClassHeader), l10n(.robustnessVariantsHeader), l10n(.robustnessKeptHeader),
    ]
    let rows = classes.map { [$0.0.rawValue, String($0.1.variants), percent($0.1.share)] }
    let widths = (0..<3).map { column in
      ([headers] + rows).map { $0[column].count }.max() ?? 0
    }
    for row in [headers] + rows {
      lines.append(
        "  " + row[0].padding(toLength: widths[0], withPad: " ", startingAt: 0) + "  "
          + String(repeating: " ", count: widths[1] - row[1].count) + row[1] + "  "
          + String(repeating: " ", count: widths[2] - row[2].count) + row[2])
    }
    lines += ["", l10n(.robustnessByIntent)]
    for (intent, counts) in intents {
      let total = counts.reduce(0) { $0 + $1.1.variants }
      lines.append(
        "  \(clean(intent)) (\(total)): "
          + counts.map { "\($0.0.rawValue) \(percent($0.1.share))" }.joined(separator: ", "))
    }
    let failing = failures
    if !failing.isEmpty {
      lines += ["", l10n(.robustnessFailures)]
      for outcome in failing.prefix(failuresShown) {
        let understood = outcome.understood.map(clean) ?? "—"
        let confidence = outcome.confidence.map { l10n.number($0, fractionDigits: 2) } ?? ""
        lines.append(
          "  \(clean(outcome.example.text)) → \(clean(outcome.variant.text)): "
            + "\(understood) \(confidence)".trimmingWhitespace())
      }
      if failing.count > failuresShown {
        lines.append(
          "  " + l10n(.robustnessMoreFailures, ["count": String(failing.count - failuresShown)]))
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
