import Foundation
import MigrantChatCore

/// A pass mark for a load run, as k6 users write them: `p99<300ms`, `pass>=99%`,
/// `errors<1%`, `dropped==0`; `STEP:p99<300ms` for one step (`Greeting#2:p95<1s`).
///
/// Metrics: the latency percentiles `p50`, `p90`, `p95`, `p99`, `p99.9` and `max`
/// (in ms, or with `ms`/`s`), of every turn or of one step; `pass` and `failed`, the
/// share of conversations that passed or failed; `errors`, the share that ended on a
/// transport error; `dropped`, arrivals that never started (a count, or with `%` a
/// share of all arrivals). Operators: `<`, `<=`, `>`, `>=`, `==`.
public struct LoadThreshold: Sendable, Hashable, CustomStringConvertible {
  public enum Metric: Sendable, Hashable {
    case percentile(Double)
    case max
    case pass
    case failed
    case errors
    case dropped
  }

  public typealias Comparison = ThresholdComparison

  public var step: String?
  public var metric: Metric
  public var comparison: Comparison
  /// Milliseconds for latencies, percent for shares, a count for `dropped` without `%`.
  public var value: Double
  public var percent: Bool
  /// As typed, for the summary.
  public var description: String

  /// Reads one `--threshold`; nil when it is not one.
  public init?(_ text: String) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard trimmed.count <= 500,
      let comparison = Comparison.allCases.first(where: { trimmed.contains($0.rawValue) }),
      let operatorRange = trimmed.range(of: comparison.rawValue)
    else { return nil }
    var name = String(trimmed[..<operatorRange.lowerBound]).trimmingCharacters(in: .whitespaces)
    var amount = String(trimmed[operatorRange.upperBound...]).trimmingCharacters(in: .whitespaces)
    if let colon = name.lastIndex(of: ":") {
      step = String(name[..<colon])
      name = String(name[name.index(after: colon)...])
      guard step?.isEmpty == false else { return nil }
    }
    switch name.lowercased() {
    case "max": metric = .max
    case "pass", "passed": metric = .pass
    case "fail", "failed": metric = .failed
    case "errors", "error": metric = .errors
    case "dropped": metric = .dropped
    case let percentile where percentile.hasPrefix("p"):
      guard let number = Double(percentile.dropFirst()), number > 0, number <= 100 else {
        return nil
      }
      metric = .percentile(number)
    default: return nil
    }
    percent = amount.hasSuffix("%")
    var scale = 1.0
    if percent {
      amount.removeLast()
    } else if amount.hasSuffix("ms") {
      amount.removeLast(2)
    } else if amount.hasSuffix("s") {
      amount.removeLast()
      scale = 1000
    }
    guard let number = Double(amount.trimmingCharacters(in: .whitespaces)), number.isFinite,
      number >= 0
    else { return nil }
    value = number * scale
    self.comparison = comparison
    description = trimmed
    switch metric {
    case .pass, .failed, .errors: guard percent, value <= 100 else { return nil }
    case .percentile, .max: guard !percent else { return nil }
    case .dropped: guard !percent || value <= 100 else { return nil }
    }
    // A step has latencies only.
    if step != nil {
      switch metric {
      case .percentile, .max: break
      default: return nil
      }
    }
  }

  /// What the run measured for this threshold; nil when its step never ran.
  public func measured(_ summary: LoadSummary) -> Double? {
    let counts = summary.counts
    let conversations = Double(max(counts.conversations, 1))
    switch metric {
    case .percentile(let percentile):
      guard let histogram = histogram(summary), histogram.totalCount > 0 else { return nil }
      return Double(histogram.valueAtPercentile(percentile)) / 1000
    case .max:
      guard let histogram = histogram(summary), histogram.totalCount > 0 else { return nil }
      return Double(histogram.max) / 1000
    case .pass: return Double(counts.conversations - counts.failed) / conversations * 100
    case .failed: return Double(counts.failed) / conversations * 100
    case .errors: return Double(counts.errors.values.reduce(0, +)) / conversations * 100
    case .dropped:
      let all = Double(max(counts.conversations + counts.dropped, 1))
      return percent ? Double(counts.dropped) / all * 100 : Double(counts.dropped)
    }
  }

  private func histogram(_ summary: LoadSummary) -> LatencyHistogram? {
    guard let step else { return summary.overall }
    return summary.steps[step]
  }

  /// Whether `measured` keeps the threshold; a step that never ran breaks it.
  public func holds(_ measured: Double?) -> Bool {
    guard let measured else { return false }
    return comparison.holds(measured, value)
  }

  /// The measured value as the threshold is written: `12.3 ms`, `98.5%`, `3`.
  public func format(_ measured: Double, _ l10n: Localizer) -> String {
    switch metric {
    case .percentile, .max:
      l10n(.unitMilliseconds, ["value": l10n.number(measured, fractionDigits: 1)])
    case .pass, .failed, .errors: l10n.number(measured, fractionDigits: 1) + "%"
    case .dropped: percent ? l10n.number(measured, fractionDigits: 1) + "%" : l10n.number(measured)
    }
  }
}
