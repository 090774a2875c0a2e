import Foundation

/// Entities judged three ways: by token, as `rasa test nlu` does (each token
/// labelled with the entity that covers most of it, per extractor, `no_entity`
/// left out of the averages); by exact span (type, start and end as marked); and
/// by value (the value the mark states, or for a mark without one, the bot's
/// value for the marked words: its synonyms applied).
public struct EntityEvaluation: Sendable, Hashable {
  /// Per extractor, Rasa's token report (`RegexEntityExtractor_report.json`).
  public var byToken: [String: ClassificationReport]
  public var bySpan: EntityMatchReport
  public var byValue: EntityMatchReport

  /// Rasa's label for a token that is no entity.
  public static let noEntity = "no_entity"

  /// The examples' marked entities against what the bot found. Nil when no
  /// example marks an entity (Rasa then judges none).
  public init?(_ pairs: [(example: NLUTestExample, prediction: NLUPrediction)]) {
    guard pairs.contains(where: { !$0.example.entities.isEmpty }) else { return nil }
    let found = pairs.map { pair in
      pair.prediction.entities.filter {
        !NLUPrediction.pretrainedExtractors.contains($0.extractor ?? "")
      }
    }
    let extractors = Set(found.joined().map { $0.extractor ?? "" }).sorted()
    var targets: [String] = []
    var predictions: [String: [String]] = [:]
    for (index, pair) in pairs.enumerated() {
      for token in pair.prediction.tokens {
        targets.append(Self.label(of: token, among: pair.example.entities))
        for extractor in extractors {
          let mine = found[index].filter { ($0.extractor ?? "") == extractor }
          predictions[extractor, default: []].append(Self.label(of: token, among: mine))
        }
      }
    }
    var byToken: [String: ClassificationReport] = [:]
    if !Set(targets).subtracting([Self.noEntity]).isEmpty {
      for extractor in extractors {
        byToken[extractor] = ClassificationReport(
          targets: targets, predictions: predictions[extractor] ?? [], excluding: Self.noEntity)
      }
    }
    self.byToken = byToken
    let marked = pairs.map(\.example.entities)
    bySpan = EntityMatchReport(targets: marked, found: found) { target, candidate in
      candidate.start == target.start && candidate.end == target.end
    }
    byValue = EntityMatchReport(targets: marked, found: found) { target, candidate in
      func folded(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces).lowercased()
      }
      if folded(candidate.value) == folded(target.value) { return true }
      // A mark without a value takes the bot's for the same words: its synonyms.
      return !target.valueStated && candidate.start == target.start
        && candidate.end == target.end
    }
  }

  /// Rasa's label for a token: the type, group and role of the entity that shares
  /// most characters with it (the first such), or `no_entity`.
  static func label(of token: Range<Int>, among entities: [NLUPrediction.Entity]) -> String {
    var best: NLUPrediction.Entity?
    var most = 0
    for entity in entities {
      let shared = max(0, min(token.upperBound, entity.end) - max(token.lowerBound, entity.start))
      if shared > most {
        most = shared
        best = entity
      }
    }
    guard let best, !best.label.isEmpty else { return noEntity }
    return best.label
  }
}

/// Entities matched one for one in each example (of the same label, by a rule:
/// the same span, or the same value): per entity label, how many of those found
/// were marked, and of those marked, found; and each one missed or found wrongly.
public struct EntityMatchReport: Sendable, Hashable {
  public struct Counts: Sendable, Hashable {
    public var matched = 0
    public var found = 0
    public var marked = 0

    public var precision: Double { found == 0 ? 0 : Double(matched) / Double(found) }
    public var recall: Double { marked == 0 ? 0 : Double(matched) / Double(marked) }
    public var f1: Double {
      precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
    }
  }

  /// In one example: the marks no entity found matched, and the entities found that
  /// matched no mark.
  public struct Mismatch: Sendable, Hashable {
    public var example: Int
    public var missed: [NLUPrediction.Entity]
    public var extra: [NLUPrediction.Entity]
  }

  /// By entity label (`city`, `city.to`).
  public var byLabel: [String: Counts]
  public var total: Counts
  public var mismatches: [Mismatch]

  init(
    targets: [[NLUPrediction.Entity]], found: [[NLUPrediction.Entity]],
    matches: (NLUPrediction.Entity, NLUPrediction.Entity) -> Bool
  ) {
    var byLabel: [String: Counts] = [:]
    var mismatches: [Mismatch] = []
    for (index, (marked, predicted)) in zip(targets, found).enumerated() {
      // Two extractors finding the same entity count once.
      var unique: [NLUPrediction.Entity] = []
      for entity in predicted
      where !unique.contains(where: {
        $0.label == entity.label && $0.start == entity.start && $0.end == entity.end
          && $0.value == entity.value
      }) {
        unique.append(entity)
      }
      var used = [Bool](repeating: false, count: unique.count)
      var missed: [NLUPrediction.Entity] = []
      for entity in marked {
        byLabel[entity.label, default: Counts()].marked += 1
        if let match = unique.indices.first(where: {
          !used[$0] && unique[$0].label == entity.label && matches(entity, unique[$0])
        }) {
          used[match] = true
          byLabel[entity.label, default: Counts()].matched += 1
        } else {
          missed.append(entity)
        }
      }
      for entity in unique { byLabel[entity.label, default: Counts()].found += 1 }
      let extra = unique.indices.filter { !used[$0] }.map { unique[$0] }
      if !missed.isEmpty || !extra.isEmpty {
        mismatches.append(Mismatch(example: index, missed: missed, extra: extra))
      }
    }
    self.byLabel = byLabel
    self.mismatches = mismatches
    total = byLabel.values.reduce(into: Counts()) { sum, counts in
      sum.matched += counts.matched
      sum.found += counts.found
      sum.marked += counts.marked
    }
  }
}
