import Foundation

/// Precision, recall and F1 per label, with their averages, as scikit-learn's
/// `classification_report` computes them and `rasa test nlu` writes them
/// (`intent_report.json`): the labels are the targets' (less `excluded`); a
/// prediction of another label is a miss for its target, never a row of its own;
/// a share with nothing to divide by is 0.
public struct ClassificationReport: Sendable, Hashable {
  public struct Row: Sendable, Hashable {
    public var precision: Double
    public var recall: Double
    public var f1: Double
    public var support: Int
  }

  /// Each label's row, by label.
  public var rows: [String: Row]
  /// The labels, in the order reports list them (by name).
  public var labels: [String]
  /// Of every target, the share predicted right (`no_entity` tokens among them).
  public var accuracy: Double
  public var micro: Row
  public var macro: Row
  public var weighted: Row
  /// Per label, what it was most often taken for (at most three, most first).
  public var confusedWith: [String: [(label: String, count: Int)]]

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.rows == rhs.rows && lhs.labels == rhs.labels && lhs.accuracy == rhs.accuracy
      && lhs.micro == rhs.micro && lhs.macro == rhs.macro && lhs.weighted == rhs.weighted
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(rows)
    hasher.combine(accuracy)
  }

  public init(targets: [String], predictions: [String], excluding excluded: String? = nil) {
    precondition(targets.count == predictions.count)
    labels = Set(targets).subtracting([excluded].compactMap { $0 }).sorted()
    var truePositives: [String: Int] = [:]
    var predicted: [String: Int] = [:]
    var actual: [String: Int] = [:]
    var pairs: [String: [String: Int]] = [:]
    var right = 0
    for (target, prediction) in zip(targets, predictions) {
      actual[target, default: 0] += 1
      predicted[prediction, default: 0] += 1
      if target == prediction {
        truePositives[target, default: 0] += 1
        right += 1
      } else {
        pairs[target, default: [:]][prediction, default: 0] += 1
      }
    }
    accuracy = targets.isEmpty ? 0 : Double(right) / Double(targets.count)
    var rows: [String: Row] = [:]
    for label in labels {
      rows[label] = Self.row(
        truePositives: truePositives[label] ?? 0, predicted: predicted[label] ?? 0,
        actual: actual[label] ?? 0)
    }
    self.rows = rows
    let all = labels.compactMap { rows[$0] }
    let support = all.reduce(0) { $0 + $1.support }
    func mean(_ value: (Row) -> Double, weighted: Bool) -> Double {
      guard !all.isEmpty else { return 0 }
      if weighted {
        return support == 0
          ? 0 : all.reduce(0) { $0 + value($1) * Double($1.support) } / Double(support)
      }
      return all.reduce(0) { $0 + value($1) } / Double(all.count)
    }
    macro = Row(
      precision: mean(\.precision, weighted: false), recall: mean(\.recall, weighted: false),
      f1: mean(\.f1, weighted: false), support: support)
    weighted = Row(
      precision: mean(\.precision, weighted: true), recall: mean(\.recall, weighted: true),
      f1: mean(\.f1, weighted: true), support: support)
    // scikit-learn gives the accuracy when the labels are every label seen, else a
    // micro average over them; Rasa fills in the other (the accuracy as micro average).
    let seen = Set(targets).union(predictions)
    if Set(labels) == seen {
      micro = Row(precision: accuracy, recall: accuracy, f1: accuracy, support: support)
    } else {
      micro = Self.row(
        truePositives: labels.reduce(0) { $0 + (truePositives[$1] ?? 0) },
        predicted: labels.reduce(0) { $0 + (predicted[$1] ?? 0) }, actual: support)
    }
    var confusedWith: [String: [(label: String, count: Int)]] = [:]
    for label in labels {
      confusedWith[label] = (pairs[label] ?? [:])
        .filter { $0.key != excluded }
        .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        .prefix(3).map { (label: $0.key, count: $0.value) }
    }
    self.confusedWith = confusedWith
  }

  static func row(truePositives: Int, predicted: Int, actual: Int) -> Row {
    let precision = predicted == 0 ? 0 : Double(truePositives) / Double(predicted)
    let recall = actual == 0 ? 0 : Double(truePositives) / Double(actual)
    let f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
    return Row(precision: precision, recall: recall, f1: f1, support: actual)
  }

  /// As Rasa writes it (`intent_report.json`): a row per label, `accuracy`, and
  /// `micro avg`, `macro avg` and `weighted avg`.
  public var json: JSONValue {
    func object(_ row: Row) -> JSONValue {
      .object([
        "precision": .number(row.precision), "recall": .number(row.recall),
        "f1-score": .number(row.f1), "support": .number(Double(row.support)),
      ])
    }
    var members: [String: JSONValue] = [:]
    for label in labels {
      guard let row = rows[label], case .object(var fields) = object(row) else { continue }
      fields["confused_with"] = .object(
        Dictionary(
          (confusedWith[label] ?? []).map { ($0.label, JSONValue.number(Double($0.count))) },
          uniquingKeysWith: { first, _ in first }))
      members[label] = .object(fields)
    }
    members["accuracy"] = .number(accuracy)
    members["micro avg"] = object(micro)
    members["macro avg"] = object(macro)
    members["weighted avg"] = object(weighted)
    return .object(members)
  }
}
