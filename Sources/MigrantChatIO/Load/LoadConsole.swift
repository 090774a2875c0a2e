import Foundation
import MigrantChatCore

/// `replay` as a load generator: runs a `LoadRunner`, shows a live line on a
/// terminal, writes the interval log, and sums the run up.
///
/// Once a second: the interval's histograms go to `--hlog`, and on a terminal
/// (stderr) one line is rewritten in place: in flight, done, errors, the
/// interval's p99. In a pipe nothing is animated; only the summary is written.
public struct LoadConsole: Sendable {
  public let load: LoadRunner
  public let l10n: Localizer
  /// Where the interval log goes, already opened.
  public let hlog: FileHandle?
  public let live: Bool

  public init(load: LoadRunner, l10n: Localizer, hlog: FileHandle?, live: Bool) {
    self.load = load
    self.l10n = l10n
    self.hlog = hlog
    self.live = live
  }

  /// What a finished run comes to.
  public struct Outcome: Sendable {
    public var counts: LoadCounts
    public var seconds: Double
    public var overall: LatencyHistogram
    public var steps: [String: LatencyHistogram]
    public var failures: [TranscriptResult]
    public var representatives: [TranscriptResult]
  }

  public func run(_ transcripts: [Transcript]) async -> Outcome {
    let started = Date().timeIntervalSince1970
    let clock = ContinuousClock()
    let began = clock.now
    write(HistogramLog.opening(start: started))
    let ticker = Task {
      var intervalStart = started
      var plainDue = began + .seconds(10)
      while !Task.isCancelled {
        try? await clock.sleep(for: .seconds(1))
        let now = Date().timeIntervalSince1970
        // The second just ended: to the interval log, and its p99 to the live line.
        let interval = load.recorder.takeInterval()
        writeInterval(interval, start: intervalStart, end: now)
        intervalStart = now
        // Where nothing may be redrawn (the accessible mode, TERM=dumb): a line of its
        // own every 10 seconds (by the clock: a late tick does not put it off) instead
        // of one rewritten every second.
        if live && !ConsoleOutput.redraws && clock.now >= plainDue {
          plainDue += .seconds(10)
          let elapsed = LoadRunner.seconds(clock.now - began)
          ConsoleOutput.write(
            liveLine(interval: interval, elapsed: elapsed) + "\n", to: STDERR_FILENO)
        } else if live && ConsoleOutput.redraws {
          let elapsed = LoadRunner.seconds(clock.now - began)
          // Cut to the terminal's width: a line that wraps cannot be rewritten in place.
          let width = TerminalInfo.width(
            environment: ProcessEnvironment.current(), descriptor: STDERR_FILENO)
          let line = Self.fitting(liveLine(interval: interval, elapsed: elapsed), width - 1)
          ConsoleOutput.write("\r\u{1B}[K" + line, to: STDERR_FILENO)
        }
      }
      return intervalStart
    }
    await load.run(transcripts)
    ticker.cancel()
    let lastStart = await ticker.value
    if live && ConsoleOutput.redraws { ConsoleOutput.write("\r\u{1B}[K", to: STDERR_FILENO) }
    let seconds = LoadRunner.seconds(clock.now - began)
    writeInterval(load.recorder.takeInterval(), start: lastStart, end: Date().timeIntervalSince1970)
    let totals = load.recorder.totals
    let usage = LoadCounts.processUsage()
    let counts = LoadCounts(
      // Conversations cancelled by a second Ctrl-C are not counted as run (the transport
      // errors name them: `cancelled N`).
      conversations: totals.finished - totals.cancelled, failed: totals.failed,
      turns: totals.turns,
      errors: totals.errors, cpuSeconds: usage.cpuSeconds, peakRSSBytes: usage.peakRSSBytes,
      dropped: totals.dropped)
    write(HistogramLog.countsLine(counts))
    return Outcome(
      counts: counts, seconds: seconds, overall: load.recorder.overall, steps: load.recorder.steps,
      failures: load.recorder.failures, representatives: load.recorder.representatives)
  }

  private func writeInterval(_ interval: LoadRecorder.Interval, start: Double, end: Double) {
    guard hlog != nil, interval.overall.totalCount > 0 else { return }
    var text = HistogramLog.line(
      tag: nil, start: start, length: end - start, histogram: interval.overall)
    for (step, histogram) in interval.steps.sorted(by: { $0.key < $1.key }) {
      text += HistogramLog.line(tag: step, start: start, length: end - start, histogram: histogram)
    }
    write(text)
  }

  private func write(_ text: String) {
    hlog?.write(Data(utf8Of: text))
  }

  /// Passed, failed, in flight, transport errors, dropped arrivals, the p99 of
  /// `interval` (the last second; "-" when no turn ended in it), and the time.
  func liveLine(interval: LoadRecorder.Interval, elapsed: Double) -> String {
    let totals = load.recorder.totals
    let p99 =
      interval.overall.totalCount == 0
      ? "-"
      : Self.milliseconds(Double(interval.overall.valueAtPercentile(99)) / 1_000_000, l10n)
    var line = l10n(
      .loadLive,
      [
        "passed": l10n.number(Double(totals.finished - totals.failed - totals.cancelled)),
        "failed": l10n.number(Double(totals.failed)),
        "in_flight": l10n.number(Double(totals.inFlight)),
        "errors": l10n.number(Double(totals.errors.values.reduce(0, +))), "p99": p99,
        "elapsed": Self.clock(elapsed),
      ])
    if let duration = load.plan.duration {
      line +=
        " "
        + l10n(
          .loadLiveRemaining,
          ["duration": Self.clock(duration), "remaining": Self.clock(max(duration - elapsed, 0))])
    }
    if totals.dropped > 0 {
      line += " · " + l10n.plural(.loadLiveDropped, count: totals.dropped)
    }
    return line
  }

  /// `line` cut to `width` columns, with `…` where it was cut.
  static func fitting(_ line: String, _ width: Int) -> String {
    guard DisplayWidth.of(line) > width, width > 1 else { return line }
    var kept = ""
    var used = 0
    for character in line {
      let columns = DisplayWidth.of(character)
      if used + columns > width - 1 { break }
      kept.append(character)
      used += columns
    }
    return kept + "…"
  }

  /// `1:05`, `12:00`, `1:00:00`.
  static func clock(_ seconds: Double) -> String {
    let whole = Int(min(max(seconds, 0), 1e9).rounded(.down))
    let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
    let tail = String(format: "%02d", rest)
    return hours > 0
      ? "\(hours):" + String(format: "%02d", minutes) + ":" + tail : "\(minutes):" + tail
  }

  static func milliseconds(_ seconds: Double, _ l10n: Localizer) -> String {
    l10n(.unitMilliseconds, ["value": l10n.number(seconds * 1000, fractionDigits: 1)])
  }
}
