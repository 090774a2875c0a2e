import Foundation
import MigrantChatCore

/// The summary of a load run or of merged logs: text for people, JSON for `--report`.
public struct LoadSummary: Sendable {
  public var counts: LoadCounts
  public var seconds: Double
  public var overall: LatencyHistogram
  public var steps: [String: LatencyHistogram]

  public init(
    counts: LoadCounts, seconds: Double, overall: LatencyHistogram,
    steps: [String: LatencyHistogram]
  ) {
    self.counts = counts
    self.seconds = seconds
    self.overall = overall
    self.steps = steps
  }

  /// The percentiles reported, by name.
  static let percentiles: [(name: String, value: Double)] = [
    ("p50", 50), ("p90", 90), ("p99", 99), ("p99.9", 99.9),
  ]

  public var turnsPerSecond: Double { seconds > 0 ? Double(counts.turns) / seconds : 0 }
  public var turnsPerCPUSecond: Double {
    counts.cpuSeconds > 0 ? Double(counts.turns) / counts.cpuSeconds : 0
  }

  /// At most this many steps are listed in the text; the report has them all.
  static let stepsShown = 20

  public func text(_ l10n: Localizer) -> String {
    func ms(_ micros: UInt64) -> String {
      LoadConsole.milliseconds(Double(micros) / 1_000_000, l10n)
    }
    var lines = [
      l10n(
        .loadSummary,
        [
          "conversations": l10n.plural(.loadConversations, count: counts.conversations),
          "seconds": l10n(.unitSeconds, ["value": l10n.number(seconds, fractionDigits: 1)]),
          "passed": l10n.plural(.replayPassed, count: counts.conversations - counts.failed),
          "failed": l10n.plural(.replayFailed, count: counts.failed),
          "turns": l10n.plural(.replayTurns, count: counts.turns),
          "rate": l10n.number(turnsPerSecond, fractionDigits: 1),
        ])
    ]
    if overall.totalCount > 0 {
      var values = Self.percentiles.map { ($0.name, ms(overall.valueAtPercentile($0.value))) }
      values.append((l10n(.loadMax), ms(overall.max)))
      lines.append(
        l10n(.loadLatency, ["values": values.map { "\($0) \($1)" }.joined(separator: ", ")]))
      let sorted = steps.sorted(by: { $0.key < $1.key })
      for (step, histogram) in sorted.prefix(Self.stepsShown) {
        lines.append(
          "  "
            + l10n(
              .loadStepLatency,
              [
                "step": TerminalSanitizer.clean(step),
                "turns": l10n.plural(.replayTurns, count: Int(clamping: histogram.totalCount)),
                "p50": ms(histogram.valueAtPercentile(50)),
                "p99": ms(histogram.valueAtPercentile(99)), "max": ms(histogram.max),
              ]))
      }
    }
    if steps.count > Self.stepsShown, overall.totalCount > 0 {
      lines.append("  " + l10n.plural(.loadMoreSteps, count: steps.count - Self.stepsShown))
    }
    let errors = counts.errors.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
    lines.append(
      errors.isEmpty
        ? l10n(.loadNoErrors)
        : l10n(
          .loadErrors,
          [
            // Error names can come from a file (`replay merge`): cleaned like any outside text.
            "list": errors.map {
              "\(TerminalSanitizer.clean($0.key, keepNewlines: false)) \(l10n.number(Double($0.value)))"
            }.joined(
              separator: ", ")
          ]
        ))
    if counts.dropped > 0 {
      lines.append(l10n.plural(.loadDropped, count: counts.dropped))
    }
    lines.append(
      l10n(
        .loadClient,
        [
          "cpu": l10n(.unitSeconds, ["value": l10n.number(counts.cpuSeconds, fractionDigits: 2)]),
          "per_cpu": l10n.number(turnsPerCPUSecond, fractionDigits: 0),
          // Megabytes as people count them (10^6 bytes): the unit says "MB".
          "rss": l10n.number(Double(counts.peakRSSBytes) / 1_000_000, fractionDigits: 1),
        ]))
    return lines.joined(separator: "\n") + "\n"
  }

  public var json: JSONValue {
    func latency(_ histogram: LatencyHistogram) -> JSONValue {
      var fields: [String: JSONValue] = ["turns": .number(Double(histogram.totalCount))]
      for (name, value) in Self.percentiles {
        fields[name] = .number(Double(histogram.valueAtPercentile(value)) / 1000)
      }
      fields["max"] = .number(Double(histogram.max) / 1000)
      return .object(fields)
    }
    return .object([
      "conversations": .number(Double(counts.conversations)),
      "passed": .number(Double(counts.conversations - counts.failed)),
      "failed": .number(Double(counts.failed)), "turns": .number(Double(counts.turns)),
      "seconds": .number(seconds), "turns_per_second": .number(turnsPerSecond),
      "latency_ms": latency(overall),
      "steps": .object(steps.mapValues(latency)),
      "errors": .object(counts.errors.mapValues { .number(Double($0)) }),
      "dropped": .number(Double(counts.dropped)),
      "client": .object([
        "cpu_seconds": .number(counts.cpuSeconds),
        "turns_per_cpu_second": .number(turnsPerCPUSecond),
        "peak_rss_bytes": .number(Double(counts.peakRSSBytes)),
      ]),
    ]).sanitized
  }
}
