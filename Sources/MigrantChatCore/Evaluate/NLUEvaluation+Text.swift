import Foundation

extension NLUEvaluation {
  /// The terminal report: the headline, the intent table, the languages, the most
  /// frequent confusions, the entity tables and misses, the confidence histogram
  /// and the thresholds. `accessible`: words where the report would draw (bars,
  /// arrows), for a screen reader.
  public func text(
    _ l10n: Localizer, server: String, accessible: Bool = false, shown: Int = 8
  ) -> String {
    func figure(_ value: Double) -> String { l10n.number(value, fractionDigits: 3) }
    func clean(_ text: String) -> String { TerminalSanitizer.clean(text, keepNewlines: false) }
    var lines = [headline(l10n, server: clean(server)), ""]
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
                "accuracy": Self.percent(report.accuracy, l10n), "f1": figure(report.weighted.f1),
              ]))
      }
    }
    lines.append("")
    if confusions.isEmpty {
      lines.append(l10n(.evaluateNoConfusions))
    } else {
      lines.append(l10n(.evaluateConfusions))
      for confusion in confusions.prefix(shown) {
        let examples = confusion.examples.prefix(3).map { item in
          let said = Self.quoted(clean(item.example.text), accessible: accessible)
          let sure = l10n.number(item.confidence, fractionDigits: 3)
          // The bot sent it to its fallback: judged as Rasa does, but never answered so.
          return said + " " + sure
            + (item.answered.isFallback ? " (\(RobustnessRun.fallbackIntent))" : "")
        }
        let more = confusion.examples.count > 3 ? ", …" : ""
        let found = clean(confusion.predicted.isEmpty ? "∅" : confusion.predicted)
        let pair =
          accessible
          ? l10n(.evaluateTakenFor, ["intent": clean(confusion.intent), "found": found])
          : "\(clean(confusion.intent)) → \(found)"
        lines.append(
          "  \(pair) (\(confusion.examples.count)): " + examples.joined(separator: ", ") + more)
      }
      if confusions.count > shown {
        lines.append(
          "  " + l10n(.evaluateMoreConfusions, ["count": String(confusions.count - shown)]))
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
      let mismatches = entities.byValue.mismatches
      if !mismatches.isEmpty {
        lines += ["", l10n(.evaluateEntityMisses)]
        func describe(_ entity: NLUPrediction.Entity) -> String {
          clean(entity.label) + "=" + Self.quoted(clean(entity.value), accessible: accessible)
        }
        for mismatch in mismatches.prefix(shown) {
          let text = Self.quoted(
            clean(judged[mismatch.example].example.text), accessible: accessible)
          var parts: [String] = []
          if !mismatch.missed.isEmpty {
            parts.append(
              l10n(
                .evaluateEntityMissed,
                ["entities": mismatch.missed.map(describe).joined(separator: ", ")]))
          }
          if !mismatch.extra.isEmpty {
            parts.append(
              l10n(
                .evaluateEntityFound,
                ["entities": mismatch.extra.map(describe).joined(separator: ", ")]))
          }
          lines.append("  \(text): " + parts.joined(separator: "; "))
        }
        if mismatches.count > shown {
          lines.append(
            "  " + l10n(.evaluateMoreConfusions, ["count": String(mismatches.count - shown)]))
        }
      }
    } else {
      lines.append(l10n(.evaluateNoEntities))
    }
    lines += ["", l10n(accessible ? .evaluateConfidenceWords : .evaluateConfidence)]
    let widest = max(1, (rightHistogram + wrongHistogram).max() ?? 1)
    for bin in (0..<10).reversed() {
      let range =
        l10n.number(Double(bin) / 10, fractionDigits: 1) + "–"
        + l10n.number(Double(bin + 1) / 10, fractionDigits: 1)
      if accessible {
        lines.append(
          "  "
            + l10n(
              .evaluateHistogramLine,
              [
                "from": l10n.number(Double(bin) / 10, fractionDigits: 1),
                "to": l10n.number(Double(bin + 1) / 10, fractionDigits: 1),
                "right": String(rightHistogram[bin]), "wrong": String(wrongHistogram[bin]),
              ]))
        continue
      }
      let right = String(repeating: "█", count: (rightHistogram[bin] * 30 + widest - 1) / widest)
      let wrong = String(repeating: "░", count: (wrongHistogram[bin] * 30 + widest - 1) / widest)
      let bars =
        "\(String(rightHistogram[bin]).leftPadded(to: 5)) "
        + right.padding(toLength: 30, withPad: " ", startingAt: 0)
        + "  \(String(wrongHistogram[bin]).leftPadded(to: 4)) \(wrong)"
      let line = "  \(range)  " + bars
      lines.append(String(line.reversed().drop { $0 == " " }.reversed()))
    }
    let cost = l10n.number(wrongCost, fractionDigits: wrongCost == wrongCost.rounded() ? 0 : 2)
    lines += ["", l10n(.evaluateSweep, ["cost": cost])]
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
    var listed = [bestThreshold.threshold]
    if let botThreshold {
      lines.append(point(Self.point(judged, threshold: botThreshold), .evaluateAtBotThreshold))
      lines.append(point(asDeployed, .evaluateAsDeployed))
      listed.append(botThreshold)
    } else {
      lines.append("  " + l10n(.evaluateNoBotThreshold))
    }
    for threshold in [0.3, 0.5, 0.7, 0.9]
    where !listed.contains(where: { abs($0 - threshold) < 0.001 }) {
      lines.append(point(Self.point(judged, threshold: threshold), .evaluateAtThreshold))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The first line: how many were asked, and the headline figures.
  public func headline(_ l10n: Localizer, server: String) -> String {
    let figures: [String: String] = [
      "server": server, "planned": String(planned),
      "accuracy": Self.percent(intents.accuracy, l10n),
      "f1": l10n.number(intents.weighted.f1, fractionDigits: 3),
      "macro": l10n.number(intents.macro.f1, fractionDigits: 3),
    ]
    return isComplete
      ? l10n.plural(.evaluateHeadline, count: judged.count, figures)
      : l10n.plural(.evaluateHeadlinePartial, count: judged.count, figures)
  }

  static func percent(_ share: Double, _ l10n: Localizer) -> String {
    l10n.number(share * 100, fractionDigits: 1) + "%"
  }

  /// A text in quotes; plain ones for a screen reader, which reads curly ones aloud.
  static func quoted(_ text: String, accessible: Bool) -> String {
    accessible ? "\"\(text)\"" : "“\(text)”"
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
