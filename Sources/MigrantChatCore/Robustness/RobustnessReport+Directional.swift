import Foundation

extension RobustnessOutcome {
  /// A negated example the bot still takes for the example's intent as surely as the
  /// example (its confidence down by less than `negationMargin`, and at the
  /// threshold or more): the negation did not move it.
  public func isUnmovedByNegation(minConfidence: Double) -> Bool {
    guard variant.variantClass == .negation, understood == example.intent,
      let confidence
    else { return false }
    let before = example.confidence ?? 1
    return confidence >= minConfidence && confidence > before - RobustnessReport.negationMargin
  }
}

extension RobustnessReport {
  /// How much a negation must lower the bot's confidence in the example's intent.
  public static let negationMargin = 0.1

  /// The negated examples the bot was not moved by.
  public var unmovedNegations: [RobustnessOutcome] {
    negations.filter { $0.isUnmovedByNegation(minConfidence: minConfidence) }
  }

  /// The examples whose marked entities the bot misses even as written.
  var missedAsWrittenJSON: JSONValue {
    var seen = Set<String>()
    return .array(
      judged.map(\.example).filter {
        !$0.entitiesMissedAsWritten.isEmpty && seen.insert($0.text).inserted
      }.map { example in
        .object([
          "example": .string(example.text),
          "missed": .array(example.entitiesMissedAsWritten.map(JSONValue.string)),
        ])
      })
  }

  /// `--report`'s `negation`: how many, how many unmoved, and each.
  var negationJSON: JSONValue {
    .object([
      "variants": .number(Double(negations.count)),
      "unmoved": .number(Double(unmovedNegations.count)),
      "margin": .number(Self.negationMargin),
      "outcomes": .array(
        negations.map { outcome in
          .object([
            "intent": outcome.example.intent.map(JSONValue.string) ?? .null,
            "example": .string(outcome.example.text),
            "example_confidence": outcome.example.confidence.map(JSONValue.number) ?? .null,
            "variant": .string(outcome.variant.text),
            "understood": outcome.understood.map(JSONValue.string) ?? .null,
            "confidence": outcome.confidence.map(JSONValue.number) ?? .null,
            "unmoved": .bool(outcome.isUnmovedByNegation(minConfidence: minConfidence)),
          ])
        }),
    ])
  }

  /// "lost city=brno", "found city=praha": what an entity failure changed.
  func entityChange(_ outcome: RobustnessOutcome, _ l10n: Localizer) -> String {
    func clean(_ text: String) -> String { TerminalSanitizer.clean(text, keepNewlines: false) }
    var parts: [String] = []
    if !outcome.lostEntities.isEmpty {
      parts.append(
        l10n(
          .robustnessLostEntities,
          ["entities": outcome.lostEntities.map(clean).joined(separator: ", ")]))
    }
    if !outcome.extraEntities.isEmpty {
      parts.append(
        l10n(
          .robustnessExtraEntities,
          ["entities": outcome.extraEntities.map(clean).joined(separator: ", ")]))
    }
    return parts.joined(separator: ", ")
  }

  /// After the failures: how many kept the intent but not the entities, and the
  /// negation test.
  func entityAndNegationLines(_ l10n: Localizer, shown: Int = 10) -> [String] {
    func clean(_ text: String) -> String { TerminalSanitizer.clean(text, keepNewlines: false) }
    var lines: [String] = []
    if !entityLosses.isEmpty {
      lines += ["", l10n.plural(.robustnessEntityLosses, count: entityLosses.count)]
      for outcome in entityLosses.prefix(5) {
        lines.append(
          "  \(clean(outcome.example.text)) → \(clean(outcome.variant.text)): "
            + entityChange(outcome, l10n))
      }
      if entityLosses.count > 5 {
        lines.append(
          "  " + l10n(.robustnessMoreFailures, ["count": String(entityLosses.count - 5)]))
      }
    }
    // The examples whose marks the bot misses even as written: the finding behind
    // every entity their variants lose.
    var seen = Set<String>()
    let missed = judged.map(\.example).filter { example in
      !example.entitiesMissedAsWritten.isEmpty && seen.insert(example.text).inserted
    }
    if !missed.isEmpty {
      let listed = missed.prefix(shown).map { example in
        "“\(clean(example.text))” (\(example.entitiesMissedAsWritten.map(clean).joined(separator: ", ")))"
      }
      lines += [
        "",
        l10n(
          .robustnessMissedAsWritten,
          [
            "count": String(missed.count),
            "examples": listed.joined(separator: ", ") + (missed.count > shown ? ", …" : ""),
          ]),
      ]
    }
    guard !negations.isEmpty else { return lines }
    lines += [
      "",
      l10n.plural(
        .robustnessNegationSummary, count: negations.count,
        [
          "unmoved": String(unmovedNegations.count),
          "margin": l10n.number(Self.negationMargin, fractionDigits: 1),
        ]),
    ]
    for outcome in unmovedNegations.sorted(by: { ($0.confidence ?? 0) > ($1.confidence ?? 0) })
      .prefix(shown)
    {
      let before = outcome.example.confidence.map { l10n.number($0, fractionDigits: 2) } ?? "?"
      let after = outcome.confidence.map { l10n.number($0, fractionDigits: 2) } ?? "?"
      lines.append(
        "  \(clean(outcome.example.text)) (\(before)) → \(clean(outcome.variant.text)): "
          + "\(clean(outcome.understood ?? "—")) \(after)")
    }
    if unmovedNegations.count > shown {
      lines.append(
        "  " + l10n(.robustnessMoreFailures, ["count": String(unmovedNegations.count - shown)]))
    }
    return lines
  }
}

extension RobustnessReport {
  /// The filled templates that did not get their intent and entities.
  public var templateFailures: [TemplateOutcome] {
    templates.filter { !$0.passes(minConfidence: minConfidence) }
  }

  /// `--report`'s `templates`: per template, how many passed, and each failure.
  var templatesJSON: JSONValue {
    let byTemplate = Dictionary(grouping: templates) { $0.filled.template }
    return .array(
      byTemplate.keys.sorted { $0.text < $1.text }.map { template in
        let outcomes = byTemplate[template] ?? []
        return .object([
          "template": .string(template.text), "intent": .string(template.intent),
          "sentences": .number(Double(outcomes.count)),
          "passed": .number(Double(outcomes.count { $0.passes(minConfidence: minConfidence) })),
          "failures": .array(
            outcomes.filter { !$0.passes(minConfidence: minConfidence) }.map { outcome in
              .object([
                "text": .string(outcome.filled.text),
                "understood": outcome.understood.map(JSONValue.string) ?? .null,
                "confidence": outcome.confidence.map(JSONValue.number) ?? .null,
                "missing_entities": .array(outcome.missingEntities.map(JSONValue.string)),
              ])
            }),
        ])
      })
  }

  /// The templates' lines: the total, each template's share, and its first failure.
  func templateLines(_ l10n: Localizer) -> [String] {
    guard !templates.isEmpty else { return [] }
    func clean(_ text: String) -> String { TerminalSanitizer.clean(text, keepNewlines: false) }
    var lines = [
      "",
      l10n(
        .robustnessTemplatesSummary,
        [
          "passed": String(templates.count - templateFailures.count),
          "count": String(templates.count),
        ]),
    ]
    let byTemplate = Dictionary(grouping: templates) { $0.filled.template }
    for template in byTemplate.keys.sorted(by: { $0.text < $1.text }) {
      let outcomes = byTemplate[template] ?? []
      let failing = outcomes.filter { !$0.passes(minConfidence: minConfidence) }
      var line =
        "  "
        + l10n(
          .robustnessTemplateLine,
          [
            "template": clean(template.text), "intent": clean(template.intent),
            "passed": String(outcomes.count - failing.count), "count": String(outcomes.count),
          ])
      if let first = failing.first {
        let confidence = first.confidence.map { " " + l10n.number($0, fractionDigits: 2) } ?? ""
        line += "; “\(clean(first.filled.text))”: \(clean(first.understood ?? "—"))\(confidence)"
        if !first.missingEntities.isEmpty {
          line +=
            ", "
            + l10n(
              .robustnessLostEntities,
              ["entities": first.missingEntities.map(clean).joined(separator: ", ")])
        }
      }
      lines.append(line)
    }
    return lines
  }
}
