import Foundation
import Histogram
import MigrantChatCore
import Synchronization

/// Latencies in microseconds, 3 significant digits, up to an hour.
public typealias LatencyHistogram = Histogram<UInt64>

extension Histogram where Count == UInt64 {
  /// An empty latency histogram (microseconds, up to an hour, 3 significant digits).
  public static func latency() -> Histogram<UInt64> {
    Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
  }

  /// Records `seconds` as microseconds, clamped to what the histogram holds.
  mutating func record(seconds: Double) {
    let micros = UInt64(Swift.max(0, Swift.min(seconds * 1_000_000, Double(highestTrackableValue))))
    _ = record(micros)
  }
}

/// What a load run has seen so far, from every conversation task at once.
///
/// Every turn goes into the whole run's histogram, its step's, and the
/// current interval's (for `--hlog` and the live line); `takeInterval` hands
/// the interval over and starts the next.
public final class LoadRecorder: Sendable {
  public struct Totals: Sendable {
    public var started = 0
    public var finished = 0
    public var failed = 0
    /// Conversations cancelled by a second Ctrl-C: neither passed nor failed.
    public var cancelled = 0
    public var turns = 0
    /// Conversations that met a network or server error, by `ChatError.code`.
    public var errors: [String: Int] = [:]
    /// Arrivals that never started (see `LoadCounts.dropped`).
    public var dropped = 0
    public var inFlight: Int { started - finished }
  }

  public struct Interval: Sendable {
    public var overall: LatencyHistogram
    public var steps: [String: LatencyHistogram]
  }

  private struct State {
    var totals = Totals()
    var overall = LatencyHistogram.latency()
    var steps: [String: LatencyHistogram] = [:]
    var interval = Interval(overall: .latency(), steps: [:])
    /// A few failures in full, for the user to read; the rest are counted.
    var failures: [TranscriptResult] = []
    /// One run per transcript (its first failure, else its first pass), for `--junit`.
    var representatives: [String: TranscriptResult] = [:]
    var order: [String] = []
  }

  private let state = Mutex(State())
  public static let failuresKept = 3

  public init() {}

  func started() { state.withLock { $0.totals.started += 1 } }

  func dropped(_ count: Int) { state.withLock { $0.totals.dropped += count } }

  func turn(step: String, seconds: Double) {
    state.withLock { state in
      state.totals.turns += 1
      state.overall.record(seconds: seconds)
      state.steps[step, default: .latency()].record(seconds: seconds)
      state.interval.overall.record(seconds: seconds)
      state.interval.steps[step, default: .latency()].record(seconds: seconds)
    }
  }

  func finished(_ result: TranscriptResult) {
    state.withLock { state in
      state.totals.finished += 1
      if result.errorCode == "cancelled" {
        // Ctrl-C twice: stopped by the user, not failed by the bot.
        state.totals.cancelled += 1
      } else if result.isFailure {
        state.totals.failed += 1
        if state.failures.count < Self.failuresKept { state.failures.append(result) }
      }
      if let code = result.errorCode { state.totals.errors[code, default: 0] += 1 }
      let key = result.transcript.location.description + " " + result.transcript.name
      if let kept = state.representatives[key] {
        if kept.passed && !result.passed { state.representatives[key] = result }
      } else {
        state.representatives[key] = result
        state.order.append(key)
      }
    }
  }

  public var totals: Totals { state.withLock { $0.totals } }
  public var overall: LatencyHistogram { state.withLock { $0.overall } }
  public var steps: [String: LatencyHistogram] { state.withLock { $0.steps } }
  public var failures: [TranscriptResult] { state.withLock { $0.failures } }
  public var representatives: [TranscriptResult] {
    state.withLock { state in state.order.compactMap { state.representatives[$0] } }
  }

  /// The latencies since the last call, and a fresh interval.
  public func takeInterval() -> Interval {
    state.withLock { state in
      defer { state.interval = Interval(overall: .latency(), steps: [:]) }
      return state.interval
    }
  }
}
