import Foundation
import MigrantChatCore

/// The counts of a load run that a histogram does not hold; summed when logs merge.
public struct LoadCounts: Sendable, Equatable {
  public var conversations = 0
  public var failed = 0
  public var turns = 0
  public var errors: [String: Int] = [:]
  /// The client's own CPU time (user + system), in seconds.
  public var cpuSeconds = 0.0
  /// The client's peak resident memory, in bytes (the largest of merged runs).
  public var peakRSSBytes = 0
  /// Arrivals of the open model that never started: `--duration` ended while
  /// every job was busy (a bot that fell behind the rate).
  public var dropped = 0

  public init() {}

  public init(
    conversations: Int, failed: Int, turns: Int, errors: [String: Int], cpuSeconds: Double,
    peakRSSBytes: Int, dropped: Int = 0
  ) {
    self.conversations = conversations
    self.failed = failed
    self.turns = turns
    self.errors = errors
    self.cpuSeconds = cpuSeconds
    self.peakRSSBytes = peakRSSBytes
    self.dropped = dropped
  }

  public var json: JSONValue {
    .object([
      "conversations": .number(Double(conversations)), "failed": .number(Double(failed)),
      "turns": .number(Double(turns)),
      "errors": .object(errors.mapValues { .number(Double($0)) }),
      "cpu_seconds": .number(cpuSeconds), "peak_rss_bytes": .number(Double(peakRSSBytes)),
      "dropped": .number(Double(dropped)),
    ])
  }

  /// Reads `json`; nil when a field is missing or of the wrong type (`dropped`,
  /// which logs of earlier versions lack, counts as 0).
  public init?(_ json: JSONValue) {
    guard case .object(let fields) = json,
      case .number(let conversations)? = fields["conversations"],
      case .number(let failed)? = fields["failed"], case .number(let turns)? = fields["turns"],
      case .object(let errors)? = fields["errors"],
      case .number(let cpu)? = fields["cpu_seconds"],
      case .number(let rss)? = fields["peak_rss_bytes"]
    else { return nil }
    var counts: [String: Int] = [:]
    for (kind, value) in errors {
      guard case .number(let count) = value, let count = Self.count(count) else { return nil }
      counts[kind] = count
    }
    var dropped = 0
    if let value = fields["dropped"] {
      guard case .number(let count) = value, let count = Self.count(count) else { return nil }
      dropped = count
    }
    // A count from a file is a whole number in range, or the line is refused (`1e300`
    // trapped converting to Int).
    guard let conversations = Self.count(conversations), let failed = Self.count(failed),
      let turns = Self.count(turns), let rss = Self.count(rss), cpu.isFinite, cpu >= 0,
      // More failed conversations than conversations: a damaged or made-up line (it
      // printed "-8 passed").
      failed <= conversations
    else { return nil }
    self.init(
      conversations: conversations, failed: failed, turns: turns, errors: counts,
      cpuSeconds: cpu, peakRSSBytes: rss, dropped: dropped)
  }

  /// The largest count a file may give: sums of many logs stay far from Int.max.
  public static let maxCount = 1 << 50

  /// A whole, non-negative number within `maxCount`; nil otherwise.
  static func count(_ value: Double) -> Int? {
    guard value.isFinite, value >= 0, value <= Double(maxCount), value == value.rounded() else {
      return nil
    }
    return Int(value)
  }

  /// The two runs' counts together; sums saturate at `maxCount` rather than overflow.
  public func adding(_ other: LoadCounts) -> LoadCounts {
    func sum(_ a: Int, _ b: Int) -> Int {
      min(a.addingReportingOverflow(b).partialValue, Self.maxCount)
    }
    return LoadCounts(
      conversations: sum(conversations, other.conversations), failed: sum(failed, other.failed),
      turns: sum(turns, other.turns),
      errors: errors.merging(other.errors, uniquingKeysWith: sum),
      cpuSeconds: cpuSeconds + other.cpuSeconds,
      peakRSSBytes: max(peakRSSBytes, other.peakRSSBytes),
      dropped: sum(dropped, other.dropped))
  }

  /// This process's CPU time and peak RSS so far (getrusage).
  public static func processUsage() -> (cpuSeconds: Double, peakRSSBytes: Int) {
    var usage = rusage()
    guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return (0, 0) }
    let cpu =
      Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
      + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    return (cpu, usage.ru_maxrss * 1024)
  }
}
