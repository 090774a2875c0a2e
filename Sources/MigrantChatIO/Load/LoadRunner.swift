import Foundation
import MigrantChatCore
import Synchronization

/// Runs transcripts as load, per a `LoadPlan`, recording every turn's latency.
///
/// In the open model (`--rate`) arrival *i* is due at a fixed time whatever
/// the answers, and conversations in flight grow as needed up to `maxInFlight`
/// (an arrival past it is dropped and counted); when one starts late (the
/// machine slow) the lateness counts in its first turn's latency, which is what
/// keeps the figures free of coordinated omission: a slow server cannot make the
/// client ask less and look fast. In the closed model each of `jobs` conversations starts the
/// next when it ends.
public struct LoadRunner: Sendable {
  public let runner: TranscriptRunner
  public let plan: LoadPlan
  public let recorder: LoadRecorder
  /// Set by `stopArrivals`: no new conversation starts; those in flight go on.
  private let stopped = SharedCounter(0)

  public init(runner: TranscriptRunner, plan: LoadPlan, recorder: LoadRecorder = LoadRecorder()) {
    self.runner = runner
    self.plan = plan
    self.recorder = recorder
  }

  /// No conversation starts from now on; those in flight finish (Ctrl-C once).
  /// Returns whether this call stopped them (false when they were already
  /// stopped: a second Ctrl-C, which cancels the conversations in flight).
  @discardableResult
  public func stopArrivals() -> Bool {
    stopped.value.add(1, ordering: .relaxed).oldValue == 0
  }

  /// Whether `stopArrivals` was called (Ctrl-C).
  public var wasStopped: Bool { stopped.value.load(ordering: .relaxed) > 0 }

  private var arrivalsEnded: Bool {
    Task.isCancelled || stopped.value.load(ordering: .relaxed) > 0
  }

  /// Runs until the plan's arrivals end (or `stopArrivals`), then lets the
  /// conversations in flight finish; cancelling the task cancels them too.
  public func run(_ transcripts: [Transcript]) async {
    guard !transcripts.isEmpty else { return }
    switch plan.arrivals {
    case .open(let rate): await runOpen(transcripts, rate: rate)
    case .closed: await runClosed(transcripts)
    }
  }

  private func runOpen(_ transcripts: [Transcript], rate: Double) async {
    let clock = ContinuousClock()
    let start = clock.now
    let total = plan.duration == nil ? plan.totalArrivals(transcripts: transcripts.count) : Int.max
    let inFlight = SharedCounter(0)
    await withDiscardingTaskGroup { group in
      var index = plan.shard.index - 1
      while index < total && !arrivalsEnded {
        let offset = plan.arrivalTime(index, rate: rate)
        if let duration = plan.duration, offset >= duration { break }
        let due = start + .microseconds(Int64(min(offset, 1e12) * 1_000_000))
        // Arrivals already due start together; sleeping for each would lag at high rates.
        // A long wait (a low rate) is cut in tenths of a second, so a stop is seen.
        while due > clock.now && !arrivalsEnded {
          let wake = min(due, clock.now + .milliseconds(100))
          try? await clock.sleep(until: wake, tolerance: .microseconds(200))
        }
        if arrivalsEnded { break }
        let transcript = transcripts[index % transcripts.count]
        index += plan.shard.count
        // The rate is honoured: in flight grows as needed, up to the cap; past it the
        // arrival is dropped and counted, never delayed (which would hide the slowness).
        guard inFlight.value.load(ordering: .relaxed) < plan.maxInFlight else {
          recorder.dropped(1)
          continue
        }
        inFlight.value.add(1, ordering: .relaxed)
        group.addTask {
          await conversation(transcript, due: due, clock: clock)
          inFlight.value.subtract(1, ordering: .relaxed)
        }
      }
    }
  }

  private func runClosed(_ transcripts: [Transcript]) async {
    let clock = ContinuousClock()
    let end = plan.duration.map { clock.now + .microseconds(Int64($0 * 1_000_000)) }
    let total = end == nil ? plan.totalArrivals(transcripts: transcripts.count) : Int.max
    let next = SharedCounter(plan.shard.index - 1)
    let plan = self.plan
    await withDiscardingTaskGroup { group in
      for _ in 0..<plan.jobs {
        group.addTask {
          while !arrivalsEnded {
            if let end, clock.now >= end { return }
            let index = next.value.add(plan.shard.count, ordering: .relaxed).oldValue
            guard index < total else { return }
            await conversation(transcripts[index % transcripts.count], due: clock.now, clock: clock)
          }
        }
      }
    }
  }

  private func conversation(
    _ transcript: Transcript, due: ContinuousClock.Instant, clock: ContinuousClock
  ) async {
    recorder.started()
    let late = Self.seconds(clock.now - due)
    let firstStep = transcript.start != nil ? 0 : 1
    let name = transcript.name
    let recorder = self.recorder
    let result = await runner.run(transcript) { step, seconds in
      recorder.turn(step: "\(name)#\(step)", seconds: seconds + (step == firstStep ? late : 0))
    }
    recorder.finished(result)
  }

  static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return max(0, Double(seconds) + Double(attoseconds) / 1e18)
  }
}

/// An atomic integer that tasks can share (an `Atomic` cannot be captured).
final class SharedCounter: Sendable {
  let value: Atomic<Int>

  init(_ initial: Int) { value = Atomic(initial) }
}
