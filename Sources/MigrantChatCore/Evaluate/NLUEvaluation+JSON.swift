import Foundation

extension NLUEvaluation {
  /// `--report`: Rasa's reports as `rasa test nlu` writes them (`intent_report.json`,
  /// one per entity extractor), the span and value matches, the confidence figures,
  /// and every example's prediction.
  public func json(server: String, gates: [EvaluationGate] = []) -> JSONValue {
    func number(_ value: Double?) -> JSONValue { value.map(JSONValue.number) ?? .null }
    func counts(_ report: EntityMatchReport) -> JSONValue {
      var members: [String: JSONValue] = [:]
      for (label, counts) in report.byLabel.merging(
        ["(all)": report.total], uniquingKeysWith: { a, _ in a })
      {
        members[label] = .object([
          "precision": .number(counts.precision), "recall": .number(counts.recall),
          "f1-score": .number(counts.f1), "matched": .number(Double(counts.matched)),
          "found": .number(Double(counts.found)), "marked": .number(Double(counts.marked)),
        ])
      }
      return .object(members)
    }
    func point(_ point: ThresholdPoint) -> JSONValue {
      .object([
        "threshold": .number(point.threshold), "right": .number(Double(point.right)),
        "wrong": .number(Double(point.wrong)), "fallback": .number(Double(point.fallback)),
      ])
    }
    func entity(_ entity: NLUPrediction.Entity) -> JSONValue {
      var members: [String: JSONValue] = [
        "entity": .string(entity.entity), "value": .string(entity.value),
        "start": .number(Double(entity.start)), "end": .number(Double(entity.end)),
      ]
      if let role = entity.role { members["role"] = .string(role) }
      if let group = entity.group { members["group"] = .string(group) }
      if let extractor = entity.extractor { members["extractor"] = .string(extractor) }
      return .object(members)
    }
    var members: [String: JSONValue] = [
      "server": .string(server),
      "examples": .number(Double(judged.count)),
      "planned": .number(Double(planned)),
      "complete": .bool(isComplete),
      "threshold_checks": .array(
        gates.map { gate in
          .object([
            "threshold": .string(gate.description),
            "measured": number(gate.measured(in: self)), "met": .bool(gate.passes(self)),
          ])
        }),
      "intent_evaluation": .object([
        "report": intents.json, "accuracy": .number(intents.accuracy),
        "f1_score": .number(intents.weighted.f1), "precision": .number(intents.weighted.precision),
      ]),
      "by_language": .object(
        Dictionary(uniqueKeysWithValues: byLanguage.map { ($0.key.rawValue, $0.value.json) })),
      "confusions": .array(
        confusions.map { confusion in
          .object([
            "intent": .string(confusion.intent), "predicted": .string(confusion.predicted),
            "count": .number(Double(confusion.examples.count)),
            "examples": .array(confusion.examples.map { .string($0.example.text) }),
          ])
        }),
      "confidence_histogram": .object([
        "bins": .array((0...10).map { .number(Double($0) / 10) }),
        "right": .array(rightHistogram.map { .number(Double($0)) }),
        "wrong": .array(wrongHistogram.map { .number(Double($0)) }),
      ]),
      "thresholds": .array(sweep.map(point)),
      "objective": .string("right - \(JSONValue.format(wrongCost)) * wrong"),
      "best_threshold": point(bestThreshold),
      "bot_threshold": number(botThreshold),
      "as_deployed": point(asDeployed),
      "predictions": .array(
        judged.map { item in
          .object([
            "text": .string(item.example.text), "intent": .string(item.example.intent),
            "predicted": .string(item.predicted), "confidence": .number(item.confidence),
            "answered": .string(item.answered.intent?.name ?? ""),
            "language": .string(item.example.language.rawValue),
            "file": item.example.file.map(JSONValue.string) ?? .null,
            "entities": .array(item.example.entities.map(entity)),
            "found": .array(item.answered.entities.map(entity)),
          ])
        }),
    ]
    if let entities {
      members["entity_evaluation"] = .object(
        entities.byToken.mapValues { report in
          .object([
            "report": report.json, "accuracy": .number(report.accuracy),
            "f1_score": .number(report.weighted.f1),
            "precision": .number(report.weighted.precision),
          ])
        })
      members["entities_by_span"] = counts(entities.bySpan)
      members["entities_by_value"] = counts(entities.byValue)
    }
    return .object(members)
  }
}
