import Foundation

/// A pass mark for `evaluate`, as `load` and `robustness` take them: `f1>=0.9`,
/// `accuracy>=95%`, `intent:residence:recall>=0.95`, `entity:city:f1>=0.8`,
/// `lang:uk:f1>=0.85`.
///
/// Without a scope, `f1`, `precision` and `recall` are the weighted averages over
/// the intents (Rasa's headline figures), `macro-f1` the plain mean, `accuracy`
/// the share of examples right. `intent:NAME:` takes that intent's row;
/// `lang:CODE:` the examples in that language. `entity:NAME:` takes that entity's
/// row as `rasa test nlu` counts it (by token; with several extractors, the one
/// that finds it best), `entities:` the weighted average (Rasa's `f1_score`);
/// `entity-span:`/`entities-span:` and `entity-value:`/`entities-value:` the
/// matches by exact span and by value.
public struct EvaluationGate: Sendable, Hashable, CustomStringConvertible {
  public enum Scope: Sendable, Hashable {
    case all
    case intent(String)
    case entity(String, EntityWay)
    case entities(EntityWay)
    case language(Language)
  }

  /// How entities are judged: Rasa's token labels, the exact span, or the value.
  public enum EntityWay: String, Sendable, Hashable {
    case token = ""
    case span = "-span"
    case value = "-value"
  }

  public enum Metric: String, Sendable, Hashable, CaseIterable {
    case accuracy, precision, recall, f1
    case macroF1 = "macro-f1"
  }

  public var scope: Scope
  public var metric: Metric
  public var comparison: ThresholdComparison
  /// A share, 0 to 1.
  public var value: Double
  public var description: String

  /// Reads one `--threshold`; nil when it is not one.
  public init?(_ text: String) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard trimmed.count <= 500,
      let comparison = ThresholdComparison.allCases.first(where: { trimmed.contains($0.rawValue) }),
      let operatorRange = trimmed.range(of: comparison.rawValue)
    else { return nil }
    let name = trimmed[..<operatorRange.lowerBound].trimmingCharacters(in: .whitespaces)
    var amount = trimmed[operatorRange.upperBound...].trimmingCharacters(in: .whitespaces)
    let parts = name.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard let metricName = parts.last,
      let metric = Metric(
        rawValue: metricName.lowercased().replacingOccurrences(of: "_", with: "-"))
    else { return nil }
    let kind = parts[0].lowercased()
    func way(after prefix: String) -> EntityWay? {
      kind.hasPrefix(prefix) ? EntityWay(rawValue: String(kind.dropFirst(prefix.count))) : nil
    }
    switch parts.count {
    case 1: scope = .all
    case 2:
      guard let way = way(after: "entities") else { return nil }
      scope = .entities(way)
    case 3 where !parts[1].isEmpty:
      switch kind {
      case "intent": scope = .intent(parts[1])
      case _ where way(after: "entity") != nil:
        scope = .entity(parts[1], way(after: "entity") ?? .token)
      case "lang", "language":
        guard let language = Language(rawValue: parts[1].lowercased()) else { return nil }
        scope = .language(language)
      default: return nil
      }
    default: return nil
    }
    let percent = amount.hasSuffix("%")
    if percent { amount.removeLast() }
    guard let number = Double(amount.trimmingCharacters(in: .whitespaces)), number.isFinite,
      number >= 0, percent ? number <= 100 : number <= 1
    else { return nil }
    self.metric = metric
    self.comparison = comparison
    value = percent ? number / 100 : number
    description = trimmed
  }

  /// The figure it judges, nil when the run has none (an intent not in the test set).
  public func measured(in evaluation: NLUEvaluation) -> Double? {
    func pick(_ report: ClassificationReport?, row: ClassificationReport.Row?) -> Double? {
      guard let report else { return nil }
      switch metric {
      case .accuracy: return report.accuracy
      case .macroF1: return report.macro.f1
      case .precision: return (row ?? report.weighted).precision
      case .recall: return (row ?? report.weighted).recall
      case .f1: return (row ?? report.weighted).f1
      }
    }
    func pick(_ counts: EntityMatchReport.Counts?) -> Double? {
      guard let counts else { return nil }
      switch metric {
      case .precision: return counts.precision
      case .recall: return counts.recall
      case .f1, .macroF1, .accuracy: return counts.f1
      }
    }
    let entities = evaluation.entities
    func matches(_ way: EntityWay) -> EntityMatchReport? {
      way == .span ? entities?.bySpan : entities?.byValue
    }
    switch scope {
    case .all: return pick(evaluation.intents, row: nil)
    case .intent(let name):
      guard let row = evaluation.intents.rows[name] else { return nil }
      return metric == .accuracy ? row.recall : pick(evaluation.intents, row: row)
    case .language(let language): return pick(evaluation.byLanguage[language], row: nil)
    case .entities(.token):
      // With several extractors, the one whose figures are best.
      let best = entities?.byToken.values.max { $0.weighted.f1 < $1.weighted.f1 }
      return pick(best, row: nil)
    case .entity(let name, .token):
      let best = entities?.byToken.values.filter { $0.rows[name] != nil }
        .max { ($0.rows[name]?.f1 ?? 0) < ($1.rows[name]?.f1 ?? 0) }
      guard let best, let row = best.rows[name] else { return nil }
      return metric == .accuracy ? row.recall : pick(best, row: row)
    case .entities(let way): return pick(matches(way)?.total)
    case .entity(let name, let way): return pick(matches(way)?.byLabel[name])
    }
  }

  /// What it names that the examples do not have (an intent, an entity or a
  /// language none of them is in), said before anything is asked; nil when it
  /// names nothing or what it names is there.
  public func unknownName(in examples: [NLUTestExample]) -> String? {
    switch scope {
    case .all, .entities: return nil
    case .intent(let name):
      return examples.contains { $0.intent == name } ? nil : name
    case .entity(let name, _):
      return examples.contains { $0.entities.contains { $0.label == name } } ? nil : name
    case .language(let language):
      return examples.contains { $0.language == language } ? nil : language.rawValue
    }
  }

  /// Whether the run passes it; a figure it does not have fails.
  public func passes(_ evaluation: NLUEvaluation) -> Bool {
    guard let figure = measured(in: evaluation) else { return false }
    // Compared to 4 decimals, as the figures are shown.
    let shown = (figure * 10_000).rounded() / 10_000
    return comparison.holds(shown, value)
  }
}
