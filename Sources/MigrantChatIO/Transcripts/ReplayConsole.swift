import Foundation
import Histogram
import MigrantChatCore

/// Runs transcripts and prints what `migrant-chat replay` shows.
///
/// One line per run (PASS/FAIL, name, file, time); for a failure the step's
/// `file:line`, the reasons and a unified diff of the expected and actual
/// answer as the user would have seen it; then `N passed, N failed` (and
/// `, N skipped` when `--fail-fast` stopped early) and the bot's latency per
/// turn (p50, p95, p99, max) from an HdrHistogram.
public struct ReplayConsole: Sendable {
  public struct Options: Sendable {
    public var jobs: Int
    public var repeats: Int
    public var failFast: Bool
    /// Where each transcript's line goes: stdout, or stderr when stdout holds a report.
    public var output: Int32

    public init(jobs: Int, repeats: Int, failFast: Bool, output: Int32 = STDOUT_FILENO) {
      self.jobs = jobs
      self.repeats = repeats
      self.failFast = failFast
      self.output = output
    }
  }

  public struct Outcome: Sendable {
    public var results: [TranscriptResult]
    public var skipped: Int
    public var failed: Int { results.filter(\.isFailure).count }
    public var expectedFailures: Int { results.filter(\.isExpectedFailure).count }
    public var fixed: Int { results.filter(\.isFixed).count }
    /// Transcripts not run (`--fail-fast`) and checks that could not be made.
    public var skippedTotal: Int { skipped + results.map(\.skipped.count).reduce(0, +) }
  }

  public let runner: TranscriptRunner
  public let options: Options

  public init(runner: TranscriptRunner, options: Options) {
    self.runner = runner
    self.options = options
  }

  /// Runs every transcript `repeats` times, at most `jobs` at once; prints as results come.
  public func run(_ transcripts: [Transcript]) async -> Outcome {
    let queue = (0..<max(options.repeats, 1)).flatMap { _ in transcripts }
    var results: [TranscriptResult] = []
    var next = 0
    var stopped = false
    await withTaskGroup(of: TranscriptResult.self) { group in
      while next < queue.count && next < max(options.jobs, 1) {
        let transcript = queue[next]
        group.addTask { await runner.run(transcript) }
        next += 1
      }
      while let result = await group.next() {
        results.append(result)
        ConsoleOutput.write(Self.describe(result, l10n: runner.l10n), to: options.output)
        if result.isFailure && options.failFast {
          stopped = true
          group.cancelAll()
        }
        if !stopped && next < queue.count {
          let transcript = queue[next]
          group.addTask { await runner.run(transcript) }
          next += 1
        }
      }
    }
    return Outcome(results: results, skipped: queue.count - results.count)
  }

  public static func describe(_ result: TranscriptResult, l10n: Localizer) -> String {
    let time = l10n(.unitSeconds, ["value": l10n.number(result.seconds, fractionDigits: 2)])
    let verdict = l10n(
      result.isExpectedFailure
        ? .replayExpectedFail
        : result.isFixed ? .replayFixed : result.passed ? .replayPass : .replayFail)
    // The name may be a bot's button titles (`explore --record-dir`): text from outside.
    let name = TerminalSanitizer.clean(result.transcript.name, keepNewlines: false)
    let file = TerminalSanitizer.clean(result.transcript.location.file, keepNewlines: false)
    let head = "\(verdict)  \(name)  (\(file), \(time))\n"
    var skips = result.skipped.map { "  " + l10n(.replaySkippedLine, ["reason": $0]) }
    if let reason = result.transcript.expectedFailure {
      skips.append(
        "  " + l10n(result.passed ? .replayFixedLine : .replayExpectedLine, ["reason": reason]))
    }
    guard let failure = result.failure else {
      return skips.isEmpty
        ? head : head + TerminalSanitizer.clean(skips.joined(separator: "\n")) + "\n"
    }
    var lines =
      [head.dropLast().description] + skips
      + ["  " + l10n(.replayAt, ["location": failure.location.description])]
    lines += failure.reasons.map { "  " + $0 }
    lines += failure.diff.map { "    " + $0 }
    return TerminalSanitizer.clean(lines.joined(separator: "\n")) + "\n"
  }

  /// `N passed, N failed[, N skipped]` and the latency line, in `l10n`'s language.
  public static func summary(_ outcome: Outcome, l10n: Localizer = Localizer(.en)) -> String {
    let passed = outcome.results.count - outcome.failed - outcome.expectedFailures
    var line =
      l10n.plural(.replayPassed, count: passed) + ", "
      + l10n.plural(.replayFailed, count: outcome.failed)
    if outcome.expectedFailures > 0 {
      line += ", " + l10n.plural(.replayExpectedFailures, count: outcome.expectedFailures)
    }
    if outcome.fixed > 0 { line += ", " + l10n.plural(.replayFixedCount, count: outcome.fixed) }
    if outcome.skippedTotal > 0 {
      line += ", " + l10n.plural(.replaySkipped, count: outcome.skippedTotal)
    }
    var histogram = Histogram<UInt64>(
      highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
    let turns = outcome.results.flatMap(\.turnSeconds)
    for seconds in turns { _ = histogram.record(UInt64(max(seconds, 0) * 1_000_000)) }
    guard !turns.isEmpty else { return line + "\n" }
    func ms(_ micros: UInt64) -> String {
      l10n(.unitMilliseconds, ["value": l10n.number(Double(micros) / 1000, fractionDigits: 1)])
    }
    let latency = l10n(
      .replayLatency,
      [
        "turns": l10n.plural(.replayTurns, count: turns.count),
        "p50": ms(histogram.valueAtPercentile(50)), "p95": ms(histogram.valueAtPercentile(95)),
        "p99": ms(histogram.valueAtPercentile(99)), "max": ms(histogram.max),
      ])
    return line + "\n" + latency + "\n"
  }

  /// Every step's expected and actual, for `--report`.
  public static func report(_ outcome: Outcome) -> JSONValue {
    .object([
      "passed": .number(Double(outcome.results.count - outcome.failed)),
      "failed": .number(Double(outcome.failed)),
      "skipped": .number(Double(outcome.skippedTotal)),
      "transcripts": .array(
        outcome.results.map { result in
          var fields: [String: JSONValue] = [
            "name": .string(result.transcript.name),
            "file": .string(result.transcript.location.description),
            "passed": .bool(result.passed), "seconds": .number(result.seconds),
            "skipped": .array(result.skipped.map(JSONValue.string)),
            "steps": .array(
              result.steps.map { step in
                .object([
                  "user": .string(step.user), "passed": .bool(step.passed),
                  "expected": .array((step.expected ?? []).map { .string($0.summary) }),
                  "actual": .array(step.actual.map(Self.json)),
                ])
              }),
          ]
          if let story = result.story {
            // A test story: every prediction the model made, against the story's action.
            fields["predictions"] = .array(
              story.checks.map { check in
                .object([
                  "expected": .string(check.expected),
                  "predicted": .string(check.prediction.action),
                  "policy": check.prediction.policy.map(JSONValue.string) ?? .null,
                  "confidence": .number(check.prediction.confidence),
                  "passed": .bool(check.passed),
                ])
              })
            if !story.readings.isEmpty {
              // `--stories execute`: what the bot's NLU read in each user turn sent.
              fields["readings"] = .array(
                story.readings.map { reading in
                  .object([
                    "text": .string(reading.text),
                    "story_intent": reading.expected.map(JSONValue.string) ?? .null,
                    "intent": .string(reading.intent), "confidence": .number(reading.confidence),
                  ])
                })
            }
          }
          if let failure = result.failure {
            fields["failure"] = .object([
              "at": .string(failure.location.description),
              "reasons": .array(failure.reasons.map(JSONValue.string)),
              "diff": .array(failure.diff.map(JSONValue.string)),
            ])
          }
          return .object(fields)
        }),
    ]).sanitized
  }

  static func json(_ message: BotMessage) -> JSONValue {
    var fields: [String: JSONValue] = [:]
    if let text = message.text { fields["text"] = .string(text) }
    if !message.buttons.isEmpty {
      fields["buttons"] = .array(
        message.buttons.map {
          .object([
            "title": .string($0.title), "payload": $0.payload.map(JSONValue.string) ?? .null,
          ])
        })
    }
    if let image = message.image { fields["image"] = .string(image) }
    if let custom = message.custom { fields["custom"] = custom }
    return .object(fields)
  }
}
