import Foundation

extension NLUEvaluation {
  /// The terminal report: the headline, the intent table, the languages, the costliest
  /// confusions, the entity tables, the confidence histogram and the thresholds.
  public func text(_ l10n: Localizer, server: String, confusionsShown: Int = 8) -> String {
    func share(_ value: Double) -> String { l10n.number(value * 100, fractionDigits: 1) + "%" }
    func figure(_ value: Double) -> String { l10n.number(value, fractionDigits: 3) }
    func clean(_ text: String) -> String { TerminalSanitizer.clean(text, keepNewlines: false) }
    var lines = [
      l10n(
        .evaluateHeadline,
        [
          "count": String(judged.count), "server": clean(server),
          "accuracy": share(intents.accuracy), "f1": figure(intents.weighted.f1),
          "macro": figure(intents.macro.f1),
        ]), "",
    ]
    let columns = [
      l10n(.evaluatePrecision), l10n(.evaluateRecall), l10n(.evaluateF1), l10n(.evaluateSupport),
    ]
    func row(_ name: String, _ row: ClassificationReport.Row) -> [String] {
      [clean(name), figure(row.precision), figure(row.recall), figure(row.f1), String(row.support)]
    }
    func averages(_ report: ClassificationReport) -> [[String]] {
      [
        row(l10n(.evaluateMicroAverage), report.micro),
        row(l10n(.evaluateMacroAverage), report.macro),
        row(l10n(.evaluateWeightedAverage), report.weighted),
      ]
    }
    lines += Self.table(
      [[l10n(.evaluateIntent)] + columns]
        + intents.labels.compactMap { label in intents.rows[label].map { row(label, $0) } }
        + averages(intents))
    if byLanguage.count > 1 {
      lines += ["", l10n(.evaluateByLanguage)]
      for (language, report) in byLanguage.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
        lines.append(
          "  "
            + l10n(
              .evaluateLanguageLine,
              [
                "language": language.rawValue, "count": String(report.macro.support),
                "accuracy": share(report.accuracy), "f1": figure(report.weighted.f1),
              ]))
      }
    }
    lines.append("")
    if confusions.isEmpty {
      lines.append(l10n(.evaluateNoConfusions))
    } else {
      lines.append(l10n(.evaluateConfusions))
      for confusion in confusions.prefix(confusionsShown) {
        let shown = confusion.examples.prefix(3).map {
          "“\(clean($0.example.text))” \(l10n.number($0.confidence, fractionDigits: 2))"
        }
        let more = confusion.examples.count > 3 ? ", …" : ""
        lines.append(
          "  \(clean(confusion.intent)) → \(clean(confusion.predicted.isEmpty ? "∅" : confusion.predicted)) "
            + "(\(confusion.examples.count)): " + shown.joined(separator: ", ") + more)
      }
      if confusions.count > confusionsShown {
        lines.append(
          "  "
            + l10n(.evaluateMoreConfusions, ["count": String(confusions.count - confusionsShown)]))
      }
    }
    lines.append("")
    if let entities {
      for (extractor, report) in entities.byToken.sorted(by: { $0.key < $1.key }) {
        lines.append(l10n(.evaluateEntitiesByToken, ["extractor": clean(extractor)]))
        lines += Self.table(
          [[l10n(.evaluateEntity)] + columns]
            + report.labels.compactMap { label in report.rows[label].map { row(label, $0) } }
            + averages(report))
        lines.append("")
      }
      lines.append(l10n(.evaluateEntitiesByMatch))
      func triple(_ counts: EntityMatchReport.Counts) -> String {
        [counts.precision, counts.recall, counts.f1].map(figure).joined(separator: " / ")
      }
      let labels = Set(entities.bySpan.byLabel.keys).union(entities.byValue.byLabel.keys).sorted()
      lines += Self.table(
        [
          [
            l10n(.evaluateEntity), l10n(.evaluateBySpan), l10n(.evaluateByValue),
            l10n(.evaluateMarked),
          ]
        ]
          + labels.map { label in
            let span = entities.bySpan.byLabel[label] ?? EntityMatchReport.Counts()
            let value = entities.byValue.byLabel[label] ?? EntityMatchReport.Counts()
            return [clean(label), triple(span), triple(value), String(span.marked)]
          }
          + [
            [
              l10n(.evaluateAllEntities), triple(entities.bySpan.total),
              triple(entities.byValue.total), String(entities.bySpan.total.marked),
            ]
          ])
    } else {
      lines.append(l10n(.evaluateNoEntities))
    }
    lines += ["", l10n(.evaluateConfidence)]
    let widest = max(1, (rightHistogram + wrongHistogram).max() ?? 1)
    for bin in (0..<10).reversed() {
      let range =
        l10n.number(Double(bin) / 10, fractionDigits: 1) + "–"
        + l10n.number(Double(bin + 1) / 10, fractionDigits: 1)
      let right = String(repeating: "█", count: (rightHistogram[bin] * 30 + widest - 1) / widest)
      let wrong = String(repeating: "░", count: (wrongHistogram[bin] * 30 + widest - 1) / widest)
      lines.append(
        "  \(range)  \(String(rightHistogram[bin]).leftPadded(to: 5)) \(right.padding(toLength: 30, withPad: " ", startingAt: 0))"
          + "  \(String(wrongHistogram[bin]).leftPadded(to: 4)) \(wrong)")
    }
    lines += [
      "",
      l10n(
        .evaluateSweep,
        ["cost": l10n.number(wrongCost, fractionDigits: wrongCost == wrongCost.rounded() ? 0 : 2)]),
    ]
    func point(_ point: ThresholdPoint, _ key: MessageKey) -> String {
      "  "
        + l10n(
          key,
          [
            "threshold": l10n.number(point.threshold, fractionDigits: 2),
            "right": String(point.right), "wrong": String(point.wrong),
            "fallback": String(point.fallback),
          ])
    }
    lines.append(point(bestThreshold, .evaluateBestThreshold))
    if let botThreshold {
      lines.append(point(Self.point(judged, threshold: botThreshold), .evaluateAtBotThreshold))
      lines.append(point(asDeployed, .evaluateAsDeployed))
    } else {
      lines.append("  " + l10n(.evaluateNoBotThreshold))
    }
    for threshold in [0.3, 0.5, 0.7, 0.9] where abs(threshold - bestThreshold.threshold) > 0.001 {
      lines.append(point(Self.point(judged, threshold: threshold), .evaluateAtThreshold))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Rows under a header: the first column left, the others right-aligned.
  static func table(_ rows: [[String]]) -> [String] {
    guard let first = rows.first else { return [] }
    let widths = first.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
    return rows.map { row in
      var line = "  " + row[0].padding(toLength: widths[0], withPad: " ", startingAt: 0)
      for column in 1..<row.count { line += "  " + row[column].leftPadded(to: widths[column]) }
      return line
    }
  }
}
