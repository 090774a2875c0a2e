import Foundation
import MigrantChatCore
import Synchronization
import Testing

@testable import MigrantChatIO

/// A bot that takes `seconds` to answer every message, or fails with `error`.
struct SlowBot: ChatTransport {
  var seconds: Double
  var error: ChatError?
  var gauge = ConcurrencyGauge()

  func send(_ request: ChatRequest) async throws(ChatError) -> BotReply {
    gauge.enter()
    defer { gauge.leave() }
    try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
    if let error { throw error }
    return BotReply(messages: [BotMessage(text: "hi")])
  }
}

/// How many sends run at once, and the most there ever were.
final class ConcurrencyGauge: Sendable {
  private let state = Mutex((now: 0, peak: 0))
  func enter() {
    state.withLock {
      $0.now += 1; $0.peak = max($0.peak, $0.now)
    }
  }
  func leave() { state.withLock { $0.now -= 1 } }
  var peak: Int { state.withLock { $0.peak } }
}

@Suite struct LoadRunnerTests {
  static let transcript = """
    name: greet
    language: en
    steps:
      - user: hello
        bot:
          - text: hi
      - user: again
        bot:
          - text: hi
    """

  func load(
    _ plan: LoadPlan, bot: SlowBot, recorder: LoadRecorder = LoadRecorder()
  ) async throws -> LoadRecorder {
    let transcripts = try TranscriptParser.parse(Self.transcript, file: "greet.yaml")
    let runner = TranscriptRunner(language: .en) { bot }
    await LoadRunner(runner: runner, plan: plan, recorder: recorder).run(transcripts)
    return recorder
  }

  @Test func theOpenModelStartsConversationsAtTheRate() async throws {
    let recorder = try await load(
      LoadPlan(jobs: 100, arrivals: .open(rate: 200), duration: 0.25), bot: SlowBot(seconds: 0))
    #expect(recorder.totals.finished == 50)
    #expect(recorder.totals.turns == 100)
    #expect(recorder.totals.failed == 0)
    #expect(recorder.steps.keys.sorted() == ["greet#1", "greet#2"])
  }

  /// One job and a bot slower than the arrivals: the open model does not queue
  /// conversations behind the jobs (it did: each waited for the one before, 90 ms
  /// late at the tenth); each starts when due, so nothing is late and nothing is
  /// dropped. (A start late because the machine is slow still counts in its
  /// first turn's latency: `LoadRunner.conversation`.)
  @Test func theOpenModelDoesNotQueueBehindJobs() async throws {
    let bot = SlowBot(seconds: 0.05)
    let recorder = try await load(
      LoadPlan(jobs: 1, arrivals: .open(rate: 100), repeats: 10), bot: bot)
    #expect(recorder.totals.finished == 10)
    #expect(recorder.totals.dropped == 0)
    // Queued behind one job, never two at once; due every 10 ms, each 100 ms long, they overlap.
    #expect(bot.gauge.peak > 1, "conversations in flight: at most \(bot.gauge.peak)")
  }

  @Test func errorsAreCountedByKind() async throws {
    let recorder = try await load(
      LoadPlan(jobs: 4, repeats: 6),
      bot: SlowBot(seconds: 0, error: .httpStatus(server: "s", status: 503, firstLine: "")))
    #expect(recorder.totals.finished == 6)
    #expect(recorder.totals.failed == 6)
    #expect(recorder.totals.errors == ["http_503": 6])
    #expect(recorder.failures.count == LoadRecorder.failuresKept)
    #expect(recorder.representatives.count == 1)
  }

  @Test func shardsOfAClosedRunAddUpToTheWhole() async throws {
    var finished = 0
    for index in 1...3 {
      let recorder = try await load(
        LoadPlan(jobs: 2, shard: Shard(index: index, count: 3), repeats: 10),
        bot: SlowBot(seconds: 0))
      finished += recorder.totals.finished
    }
    #expect(finished == 10)
  }

  /// (A closed run for a duration is checked from the binary: in this process the
  /// test runner's blocking process waits can hold the pool longer than the run.)
  @Test func aClosedRunKeepsEveryJobBusy() async throws {
    let bot = SlowBot(seconds: 0.02)
    let recorder = try await load(LoadPlan(jobs: 3, repeats: 12), bot: bot)
    #expect(recorder.totals.finished == 12)
    #expect(bot.gauge.peak == 3)
  }

  @Test func cancellingStopsTheArrivals() async throws {
    let recorder = LoadRecorder()
    let task = Task {
      try await load(
        LoadPlan(jobs: 10, arrivals: .open(rate: 50), duration: 60), bot: SlowBot(seconds: 0),
        recorder: recorder)
    }
    try await Task.sleep(for: .milliseconds(200))
    task.cancel()
    _ = try await task.value
    // Run out, the plan is 3,000 conversations (60 s at 50 a second). Far fewer,
    // however late a loaded machine woke the test to cancel.
    #expect(recorder.totals.finished < 1_000)
    #expect(recorder.totals.inFlight == 0)
  }

  /// Ctrl-C once: the arrivals stop, and the conversations in flight finish (and
  /// pass) instead of being cancelled, at a high rate and at a low one (whose
  /// wait for the next arrival is cut short).
  @Test(arguments: [50.0, 0.1])
  func stoppingTheArrivalsLetsThoseInFlightFinish(rate: Double) async throws {
    let transcripts = try TranscriptParser.parse(Self.transcript, file: "greet.yaml")
    let runner = TranscriptRunner(language: .en) { SlowBot(seconds: 0.2) }
    let load = LoadRunner(
      runner: runner, plan: LoadPlan(jobs: 10, arrivals: .open(rate: rate), duration: 60))
    let task = Task { await load.run(transcripts) }
    try await Task.sleep(for: .milliseconds(150))
    #expect(load.stopArrivals())
    #expect(!load.stopArrivals(), "a second stop is the caller's to act on")
    await task.value
    let totals = load.recorder.totals
    #expect(totals.finished > 0)
    #expect(totals.inFlight == 0)
    #expect(totals.failed == 0, "\(totals.errors)")
    // Run out, 60 s of arrivals; far fewer however late a loaded machine woke the test.
    #expect(totals.finished < Int(rate * 60 / 3) + 2)
  }

  /// The open model honours the rate: `jobs` does not hold it back, conversations in
  /// flight grow as a slow bot needs; past `maxInFlight` an arrival is dropped, counted,
  /// and never started late.
  @Test func arrivalsPastTheCapAreDropped() async throws {
    let free = try await load(
      LoadPlan(jobs: 1, arrivals: .open(rate: 100), duration: 0.3), bot: SlowBot(seconds: 0.6))
    #expect(free.totals.finished == 30 && free.totals.dropped == 0)
    let recorder = try await load(
      LoadPlan(jobs: 1, arrivals: .open(rate: 100), duration: 0.3, maxInFlight: 2),
      bot: SlowBot(seconds: 0.6))
    let totals = recorder.totals
    // Arrivals 0 and 1 are in flight for 1.2 s; the other 28 of the 30 due in 0.3 s
    // find two in flight and are dropped as they come.
    #expect(totals.finished >= 2)
    #expect(totals.dropped > 0)
    #expect(totals.finished + totals.dropped == 30, "every arrival due is run or dropped")
    let summary = LoadSummary(
      counts: LoadCounts(
        conversations: totals.finished, failed: totals.failed, turns: totals.turns, errors: [:],
        cpuSeconds: 0, peakRSSBytes: 0, dropped: 28),
      seconds: 1.2, overall: recorder.overall, steps: recorder.steps)
    #expect(
      summary.text(Localizer(.en)).contains(
        "\ndropped: 28 arrivals never started (--max-in-flight conversations were already running)")
    )
    #expect(
      summary.text(Localizer(.ru)).contains("\nпропущено: 28 разговоров так и не начались"))
    #expect(summary.json.compactText.contains(#""dropped":28"#))
  }
}
