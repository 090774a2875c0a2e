import Foundation

extension NLUEvaluation {
  /// `--html`: one self-contained page (no script, nothing from the network) with
  /// the intent table, the confusion matrix as a heat map, the confidence
  /// histogram and the threshold curve, drawn in SVG.
  public func html(_ l10n: Localizer, server: String, gates: [EvaluationGate] = []) -> String {
    // HTML text as the JUnit report writes XML: the five entities, no control
    // characters; a line of its own for each name (no newline from the server).
    func escape(_ text: String) -> String {
      JUnitReport.escape(TerminalSanitizer.clean(text, keepNewlines: false))
    }
    func figure(_ value: Double) -> String { l10n.number(value, fractionDigits: 3) }
    func svgNumber(_ value: Double) -> String { String(format: "%.1f", value) }
    let headline = self.headline(l10n, server: server)
    var page = """
      <!DOCTYPE html>
      <html lang="\(l10n.language.rawValue)"><head><meta charset="utf-8">
      <title>migrant-chat evaluate</title>
      <style>
      body{font-family:sans-serif;margin:2em;max-width:70em}
      table{border-collapse:collapse;margin:1em 0}
      td,th{padding:.2em .6em;text-align:right;border-bottom:1px solid #ddd}
      td:first-child,th:first-child{text-align:left}
      svg text{font-family:sans-serif;font-size:11px}
      </style></head><body>
      <h1>migrant-chat evaluate</h1>
      <p>\(escape(headline))</p>

      """
    if !isComplete { page += "<p><strong>\(escape(l10n(.evaluatePartialNote)))</strong></p>\n" }
    // A table of rows, the first column a name.
    func table(_ headings: [String], _ rows: [[String]]) -> String {
      var html = "<table><tr>" + headings.map { "<th>\(escape($0))</th>" }.joined() + "</tr>\n"
      for row in rows { html += "<tr>" + row.map { "<td>\(escape($0))</td>" }.joined() + "</tr>\n" }
      return html + "</table>\n"
    }
    if !gates.isEmpty {
      page += "<h2>\(escape(l10n(.evaluateThresholdsHeading)))</h2>\n"
      page += table(
        ["--threshold", "", ""],
        gates.map { gate in
          [
            gate.description,
            gate.measured(in: self).map { l10n.number($0, fractionDigits: 4) } ?? "–",
            l10n(gate.passes(self) ? .evaluateMet : .evaluateNotMet),
          ]
        })
    }
    // The intent table.
    page += "<h2>\(escape(l10n(.evaluateIntent)))</h2>\n<table><tr>"
    for heading in [
      l10n(.evaluateIntent), l10n(.evaluatePrecision), l10n(.evaluateRecall), l10n(.evaluateF1),
      l10n(.evaluateSupport),
    ] {
      page += "<th>\(escape(heading))</th>"
    }
    page += "</tr>\n"
    let averages: [(String, ClassificationReport.Row)] = [
      (l10n(.evaluateMicroAverage), intents.micro), (l10n(.evaluateMacroAverage), intents.macro),
      (l10n(.evaluateWeightedAverage), intents.weighted),
    ]
    let rows = intents.labels.compactMap { label in intents.rows[label].map { (label, $0) } }
    for (name, row) in rows + averages {
      page +=
        "<tr><td>\(escape(name))</td><td>\(figure(row.precision))</td><td>\(figure(row.recall))</td>"
        + "<td>\(figure(row.f1))</td><td>\(row.support)</td></tr>\n"
    }
    page += "</table>\n"
    if byLanguage.count > 1 {
      page += "<h2>\(escape(l10n(.evaluateByLanguage)))</h2>\n"
      page += table(
        ["", l10n(.evaluateSupport), l10n(.evaluateRightLegend), l10n(.evaluateF1)],
        byLanguage.sorted { $0.key.rawValue < $1.key.rawValue }.map { language, report in
          [
            language.rawValue, String(report.macro.support),
            l10n.number(report.accuracy * 100, fractionDigits: 1) + "%", figure(report.weighted.f1),
          ]
        })
    }
    if let entities {
      for (extractor, report) in entities.byToken.sorted(by: { $0.key < $1.key }) {
        page += "<h2>\(escape(l10n(.evaluateEntitiesByToken, ["extractor": extractor])))</h2>\n"
        page += table(
          [
            l10n(.evaluateEntity), l10n(.evaluatePrecision), l10n(.evaluateRecall),
            l10n(.evaluateF1), l10n(.evaluateSupport),
          ],
          report.labels.compactMap { label in
            report.rows[label].map {
              [label, figure($0.precision), figure($0.recall), figure($0.f1), String($0.support)]
            }
          })
      }
      page += "<h2>\(escape(l10n(.evaluateEntitiesByMatch)))</h2>\n"
      let labels = Set(entities.bySpan.byLabel.keys).union(entities.byValue.byLabel.keys).sorted()
      func triple(_ counts: EntityMatchReport.Counts?) -> String {
        let counts = counts ?? EntityMatchReport.Counts()
        return [counts.precision, counts.recall, counts.f1].map(figure).joined(separator: " / ")
      }
      page += table(
        [
          l10n(.evaluateEntity), l10n(.evaluateBySpan), l10n(.evaluateByValue),
          l10n(.evaluateMarked),
        ],
        labels.map { label in
          [
            label, triple(entities.bySpan.byLabel[label]), triple(entities.byValue.byLabel[label]),
            String(entities.bySpan.byLabel[label]?.marked ?? 0),
          ]
        })
    }
    let wrong = judged.filter { !$0.isRight }.sorted { $0.confidence > $1.confidence }
    if !wrong.isEmpty {
      page += "<h2>\(escape(l10n(.evaluateExamplesWrong)))</h2>\n"
      page += table(
        [
          l10n(.evaluateExample), l10n(.evaluateMeant), l10n(.evaluateFound),
          l10n(.evaluateConfidenceColumn),
        ],
        wrong.map { item in
          [
            item.example.text, item.example.intent,
            item.predicted + (item.answered.isFallback ? " (\(RobustnessRun.fallbackIntent))" : ""),
            l10n.number(item.confidence, fractionDigits: 3),
          ]
        })
    }
    // The confusion matrix: rows what was meant, columns what the bot found, shaded by
    // the share of the row.
    let labels = Set(judged.map(\.example.intent)).union(judged.map(\.predicted)).sorted()
    var cells: [String: [String: Int]] = [:]
    for item in judged { cells[item.example.intent, default: [:]][item.predicted, default: 0] += 1 }
    let cell = 28.0
    let margin = 8.0 * Double(min(30, labels.map(\.count).max() ?? 4)) + 10
    let side = margin + cell * Double(labels.count) + 10
    page += "<h2>\(escape(l10n(.evaluateConfusionMatrix)))</h2>\n"
    page +=
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(svgNumber(side))\" height=\"\(svgNumber(side))\" role=\"img\" aria-label=\"\(escape(l10n(.evaluateConfusionMatrix)))\">\n"
    for (index, label) in labels.enumerated() {
      let shown = escape(String((label.isEmpty ? "∅" : label).prefix(30)))
      let position = margin + cell * (Double(index) + 0.5)
      page +=
        "<text x=\"\(svgNumber(margin - 4))\" y=\"\(svgNumber(position + 4))\" text-anchor=\"end\">\(shown)</text>\n"
      page +=
        "<text transform=\"translate(\(svgNumber(position + 4)),\(svgNumber(margin - 4))) rotate(-60)\">\(shown)</text>\n"
    }
    for (row, intent) in labels.enumerated() {
      let total = max(1, cells[intent]?.values.reduce(0, +) ?? 0)
      for (column, predicted) in labels.enumerated() {
        let count = cells[intent]?[predicted] ?? 0
        let share = Double(count) / Double(total)
        let hue = row == column ? "30,110,200" : "200,50,40"
        let x = margin + cell * Double(column)
        let y = margin + cell * Double(row)
        page +=
          "<rect x=\"\(svgNumber(x))\" y=\"\(svgNumber(y))\" width=\"\(svgNumber(cell))\" height=\"\(svgNumber(cell))\" "
          + "fill=\"rgba(\(hue),\(String(format: "%.3f", count == 0 ? 0.03 : 0.15 + 0.85 * share)))\" stroke=\"#fff\"><title>\(escape(intent)) → \(escape(predicted)): \(count)</title></rect>\n"
        if count > 0 {
          page +=
            "<text x=\"\(svgNumber(x + cell / 2))\" y=\"\(svgNumber(y + cell / 2 + 4))\" text-anchor=\"middle\">\(count)</text>\n"
        }
      }
    }
    page += "</svg>\n"
    // The threshold curve: right, wrong and fallback counts at each threshold.
    let width = 600.0
    let height = 260.0
    let left = 40.0
    let top = 10.0
    let plotWidth = width - left - 10
    let plotHeight = height - top - 30
    let most = Double(max(1, judged.count))
    func x(_ threshold: Double) -> Double { left + threshold * plotWidth }
    func y(_ count: Int) -> Double { top + plotHeight * (1 - Double(count) / most) }
    page += "<h2>\(escape(l10n(.evaluateThresholdCurve)))</h2>\n"
    page +=
      "<p>\(escape(l10n(.evaluateSweep, ["cost": l10n.number(wrongCost, fractionDigits: 2)])))</p>\n"
    page +=
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(svgNumber(width))\" height=\"\(svgNumber(height))\" role=\"img\" aria-label=\"\(escape(l10n(.evaluateThresholdCurve)))\">\n"
    page +=
      "<line x1=\"\(left)\" y1=\"\(svgNumber(top + plotHeight))\" x2=\"\(svgNumber(left + plotWidth))\" y2=\"\(svgNumber(top + plotHeight))\" stroke=\"#888\"/>\n"
    page +=
      "<line x1=\"\(left)\" y1=\"\(top)\" x2=\"\(left)\" y2=\"\(svgNumber(top + plotHeight))\" stroke=\"#888\"/>\n"
    for tick in stride(from: 0.0, through: 1.0, by: 0.1) {
      page +=
        "<text x=\"\(svgNumber(x(tick)))\" y=\"\(svgNumber(top + plotHeight + 15))\" text-anchor=\"middle\">\(l10n.number(tick, fractionDigits: 1))</text>\n"
    }
    for tick in [0, judged.count / 2, judged.count] {
      page +=
        "<text x=\"\(svgNumber(left - 4))\" y=\"\(svgNumber(y(tick) + 4))\" text-anchor=\"end\">\(tick)</text>\n"
    }
    let series: [(MessageKey, String, (ThresholdPoint) -> Int)] = [
      (.evaluateRightLegend, "#1e6ec8", \.right), (.evaluateWrongLegend, "#c83228", \.wrong),
      (.evaluateFallbackLegend, "#888888", \.fallback),
    ]
    for (index, (key, colour, value)) in series.enumerated() {
      let points = sweep.map { "\(svgNumber(x($0.threshold))),\(svgNumber(y(value($0))))" }
      page +=
        "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>\n"
      page +=
        "<text x=\"\(svgNumber(left + plotWidth - 150))\" y=\"\(svgNumber(top + 14 + 14 * Double(index)))\" fill=\"\(colour)\">\(escape(l10n(key)))</text>\n"
    }
    var marks: [(Double, String)] = [(bestThreshold.threshold, l10n(.evaluateBestLegend))]
    if let botThreshold { marks.append((botThreshold, l10n(.evaluateBotLegend))) }
    for (threshold, name) in marks {
      page +=
        "<line x1=\"\(svgNumber(x(threshold)))\" y1=\"\(top)\" x2=\"\(svgNumber(x(threshold)))\" y2=\"\(svgNumber(top + plotHeight))\" stroke=\"#333\" stroke-dasharray=\"4 3\"/>\n"
      page +=
        "<text x=\"\(svgNumber(x(threshold) + 3))\" y=\"\(svgNumber(top + plotHeight - 4))\">\(escape(name)) \(l10n.number(threshold, fractionDigits: 2))</text>\n"
    }
    page += "</svg>\n"
    // The confidence histogram, as a table a screen reader reads too.
    page += "<h2>\(escape(l10n(.evaluateConfidence)))</h2>\n<table>"
    page +=
      "<tr><th></th><th>\(escape(l10n(.evaluateRightLegend)))</th><th>\(escape(l10n(.evaluateWrongLegend)))</th></tr>\n"
    for bin in (0..<10).reversed() {
      page +=
        "<tr><td>\(l10n.number(Double(bin) / 10, fractionDigits: 1))–\(l10n.number(Double(bin + 1) / 10, fractionDigits: 1))</td>"
        + "<td>\(rightHistogram[bin])</td><td>\(wrongHistogram[bin])</td></tr>\n"
    }
    page += "</table>\n</body></html>\n"
    return page
  }
}
