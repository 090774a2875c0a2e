import Foundation
import TestSupport
import Testing

/// `replay` as a load generator, from the built binary.
@Suite struct ReplayLoadEndToEndTests {
  let home = TemporaryDirectory()

  func write(_ name: String, _ text: String) throws -> String {
    let path = home.path + "/" + name
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  func replay(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
    try ProcessRunner.run(
      ProcessRunner.binaryPath, ["replay"] + arguments, environment: home.environment(environment))
  }

  /// A bot that answers every message "Greeting" after `seconds`, and a
  /// one-step transcript that expects it.
  func slowBot(seconds: Double) throws -> (LoopbackHTTPServer, String) {
    let bot = try LoopbackHTTPServer { _ in
      .delayed(seconds: seconds, then: ResponseBox(.json(#"[{"text":"Greeting"}]"#)))
    }
    let transcript = try write(
      "slow.yaml",
      """
      name: slow
      language: en
      steps:
        - user: hello
          bot:
            - text: Greeting
      """)
    return (bot, transcript)
  }

  func json(_ path: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
      as? [String: Any] ?? [:]
  }

  static let twoSteps = """
    name: Greeting
    language: en
    steps:
      - user: /start
        bot:
          - text: {contains: offline guide}
          - buttons: {contains: [Work]}
      - user: "4"
        bot:
          - text: "Work: choose a guide."
    """

  @Test func shardsAgainstServeMergeIntoOneRun() throws {
    let serve = try ServeProcess(home: home)
    let transcript = try write("greeting.yaml", Self.twoSteps)
    var logs: [String] = []
    for shard in ["1/2", "2/2"] {
      let log = home.path + "/shard-\(shard.prefix(1)).hlog"
      let report = home.path + "/shard-\(shard.prefix(1)).json"
      let result = try replay([
        transcript, "--server", serve.baseURL, "--rate", "40", "--duration", "1s", "--shard", shard,
        "--jobs", "50", "--hlog", log, "--report", report, "--junit", home.path + "/j.xml",
      ])
      #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
      // Shard 1 takes arrivals 0, 2, ..., 38; shard 2 the odd ones: 20 each.
      #expect(result.stdout.hasPrefix("20 conversations in "), "\(result.stdout)")
      #expect(result.stdout.contains("20 passed, 0 failed; 40 turns, "))
      #expect(result.stdout.contains("latency per turn: p50 "))
      #expect(result.stdout.contains("p99.9 "))
      #expect(result.stdout.contains("  Greeting#1: 20 turns, p50 "))
      #expect(result.stdout.contains("\ntransport errors: none\n"))
      #expect(result.stdout.contains("turns per CPU second), peak RSS "))
      // Nothing animated in a pipe.
      #expect(!result.stderr.contains("\u{1B}[K"))
      let figures = try json(report)
      #expect(figures["conversations"] as? Int == 20)
      #expect((figures["latency_ms"] as? [String: Any])?["turns"] as? Int == 40)
      let written = try String(contentsOfFile: log, encoding: .utf8)
      #expect(written.hasPrefix("#[Histogram log format version 1.3]\n#[StartTime: "))
      #expect(written.contains("\nTag=Greeting#2,"))
      logs.append(home.path + "/shard-\(shard.prefix(1)).hlog")
    }
    let junit = try String(contentsOfFile: home.path + "/j.xml", encoding: .utf8)
    #expect(junit.contains(#"<testsuites tests="1" failures="0""#))

    let merged = try replay(["merge"] + logs + ["--report", home.path + "/merged.json"])
    #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
    #expect(merged.stdout.hasPrefix("40 conversations in "), "\(merged.stdout)")
    #expect(merged.stdout.contains("40 passed, 0 failed; 80 turns, "))
    #expect(merged.stdout.contains("  Greeting#2: 40 turns, p50 "))
    #expect(try json(home.path + "/merged.json")["turns"] as? Int == 80)
  }

  /// `migrant-chat replay ARGUMENTS` started in the background: its stdout piped,
  /// its stderr to `errors` (or nowhere).
  func startReplay(_ arguments: [String], errors: Pipe? = nil) throws -> (Process, Pipe) {
    let process = Process()
    // Never the test run's own stdin: CI's may be a pipe that never ends.
    process.standardInput = FileHandle.nullDevice
    process.executableURL = URL(fileURLWithPath: ProcessRunner.binaryPath)
    process.arguments = ["replay"] + arguments
    process.environment = home.environment()
    let output = Pipe()
    process.standardOutput = output
    process.standardError = errors ?? FileHandle.nullDevice
    try process.run()
    return (process, output)
  }

  /// Two hundred conversations wait on a slow bot at once: the client holds
  /// them on one I/O thread, not a thread each (as it did with a blocking
  /// transfer per thread).
  @Test func conversationsInFlightHoldNoThreadEach() throws {
    let (bot, transcript) = try slowBot(seconds: 2)
    let (process, output) = try startReplay([
      transcript, "--server", bot.baseURL, "--rate", "400", "--duration", "0.5", "--jobs", "1000",
    ])
    // The sign: all 200 are at the bot, waiting for its answers.
    #expect(waitUntil { bot.requests.count == 200 }, "\(bot.requests.count) reached the bot")
    let status = try String(
      contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
    let threads =
      status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
      .flatMap { Int($0.dropFirst(8).trimmingCharacters(in: .whitespaces)) } ?? 0
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(text)")
    #expect(text.hasPrefix("200 conversations in "), "\(text)")
    #expect(bot.requests.count == 200)
    #expect(threads > 0 && threads < 40, "\(threads) threads with 200 requests in flight")
  }

  /// More conversations in flight than the soft limit of open files allows: the
  /// limit is raised up to the hard one, and past the hard one the jobs are
  /// capped with a translated line saying why (not "Too many open files" errors);
  /// in load mode and in a plain replay of many runs at once.
  @Test(arguments: [
    ("ulimit -Sn 160", false, true), ("ulimit -n 160", true, true),
    ("ulimit -Sn 160", false, false), ("ulimit -n 160", true, false),
  ])
  func theOpenFileLimitIsRaisedOrSaid(limit: String, capped: Bool, load: Bool) throws {
    let (bot, transcript) = try slowBot(seconds: 0.5)
    let result = try ProcessRunner.run(
      "/bin/sh",
      [
        "-c", limit + #"; exec "$0" "$@""#, ProcessRunner.binaryPath, "replay", transcript,
        "--server", bot.baseURL,
      ]
        + (load
          ? ["--rate", "1000", "--duration", "0.2", "--max-in-flight", "1000"]
          : ["--jobs", "1000", "--repeat", "200"]),
      environment: home.environment())
    // Arrivals dropped at the cap fail the run, as k6's dropped iterations do.
    #expect(result.status == (load && capped ? 1 : 0), "\(result.stdout)\(result.stderr)")
    if load {
      // Capped, the 96 jobs are still busy when the 0.2 s of arrivals end.
      let started = capped ? 96 : 200
      #expect(result.stdout.hasPrefix("\(started) conversations in "), "\(result.stdout)")
      #expect(result.stdout.contains("\ntransport errors: none\n"), "\(result.stdout)")
      #expect(
        result.stdout.contains("\ndropped: 104 arrivals never started") == capped,
        "\(result.stdout)")
      #expect(bot.requests.count == started)
    } else {
      #expect(result.stdout.contains("\n200 passed, 0 failed\n"), "\(result.stdout)")
      #expect(bot.requests.count == 200)
    }
    #expect(
      result.stderr.contains(
        (load ? "--max-in-flight" : "--jobs")
          + " 1000 needs a socket for each conversation, but this process may open only 160 "
          + "files (ulimit -n, hard limit): at most 96 conversations run at once.") == capped,
      "\(result.stderr)")
  }

  /// At a terminal, stderr shows one line a second with the last second's p99
  /// (with and without `--hlog`, which also takes the second's latencies), and
  /// clears it before the summary.
  @Test(arguments: [false, true])
  func theLiveLineShowsTheLastSecondsP99(withLog: Bool) throws {
    let serve = try ServeProcess(home: home)
    let transcript = try write("greeting.yaml", Self.twoSteps)
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Scripts/stderr_on_tty.py").path
    let log = withLog ? ["--hlog", home.path + "/live.hlog"] : []
    let result = try ProcessRunner.run(
      "/usr/bin/env",
      [
        "python3", script, ProcessRunner.binaryPath, "replay", transcript, "--server",
        serve.baseURL, "--rate", "50", "--duration", "2.5", "--jobs", "100",
      ] + log, environment: home.environment(["TERM": "xterm", "COLUMNS": withLog ? "60" : "200"]))
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    let lines = result.stderr.components(separatedBy: "\r\u{1B}[K").filter { !$0.isEmpty }
    #expect(lines.count >= 2, "\(result.stderr.debugDescription)")
    for line in lines {
      #expect(line.hasPrefix("passed "), "\(line.debugDescription)")
      #expect(line.contains(" · failed 0 · in flight "), "\(line.debugDescription)")
      if withLog {
        // A narrow terminal: cut to fit, or it would wrap and could not be rewritten.
        #expect(line.count <= 59 && line.hasSuffix("…"), "\(line.debugDescription)")
      } else {
        #expect(line.contains(" · transport errors 0 · p99 "), "\(line.debugDescription)")
        #expect(line.contains(" of 0:02, ") && line.hasSuffix(" left"), "\(line.debugDescription)")
      }
    }
    #expect(result.stderr.hasSuffix("\r\u{1B}[K"), "the live line is cleared at the end")
    #expect(result.stdout.hasPrefix("125 conversations in "), "\(result.stdout)")
  }

  /// The open model honours the rate: conversations in flight grow as a slow bot needs
  /// (it was throttled to --jobs 1: 9 of 90 started); past --max-in-flight an arrival is
  /// dropped, said and fails the run; thresholds are checked, each broken one named.
  @Test func theRateIsHonouredAndThresholdsAreChecked() throws {
    let (bot, transcript) = try slowBot(seconds: 0.2)
    let result = try replay([
      transcript, "--server", bot.baseURL, "--rate", "30", "--duration", "3",
      "--threshold", "pass>=99%", "--threshold", "errors<1%", "--threshold", "slow#1:p99<10s",
      "--threshold", "p50<1ms",
    ])
    #expect(result.stdout.hasPrefix("90 conversations in "), "\(result.stdout)")
    #expect(bot.requests.count == 90)
    #expect(!result.stdout.contains("dropped"), "\(result.stdout)")
    #expect(result.stdout.contains("\n  ok      pass>=99% (measured 100.0%)\n"), "\(result.stdout)")
    #expect(result.stdout.contains("\n  ok      slow#1:p99<10s (measured "), "\(result.stdout)")
    #expect(result.stdout.contains("\n  BROKEN  p50<1ms (measured "), "\(result.stdout)")
    #expect(result.status == 1, "a broken threshold fails the run")
    #expect(result.stdout.hasSuffix("The run failed: 1 threshold broken.\n"), "\(result.stdout)")

    let capped = try replay([
      transcript, "--server", bot.baseURL, "--rate", "30", "--duration", "1", "--max-in-flight",
      "2",
    ])
    #expect(capped.status == 1, "\(capped.stdout)")
    #expect(capped.stdout.contains("\ndropped: "), "\(capped.stdout)")
    #expect(
      capped.stdout.contains("The run failed: ") && capped.stdout.contains(" arrivals dropped"))
    let kept = try replay([
      transcript, "--server", bot.baseURL, "--rate", "5", "--duration", "1", "--threshold",
      "dropped==0", "--threshold", "p99<30s",
    ])
    #expect(kept.status == 0, "\(kept.stdout)\(kept.stderr)")
  }

  /// What makes a run do nothing, or check nothing, is refused before it starts; a
  /// closed stdout cannot turn a failing run's status into 0; a bot that cannot be
  /// reached has no answer times.
  @Test func runsThatWouldMisleadAreRefusedOrSaid() throws {
    let transcript = try write("greeting.yaml", ReplayEndToEndTests.passing)
    let zero = try replay([transcript, "--offline", "--duration", "0"])
    #expect(zero.status == 2 && zero.stderr.contains("--duration must be more than 0"))
    let ramp = try replay([
      transcript, "--offline", "--rate", "5", "--ramp-up", "10", "--duration", "5",
    ])
    #expect(ramp.status == 2 && ramp.stderr.contains("longer than --duration"), "\(ramp.stderr)")
    let typo = try replay([
      transcript, "--offline", "--duration", "1", "--threshold", "nosuch#1:p99<1s",
    ])
    #expect(typo.status == 2, "\(typo.stdout)")
    #expect(
      typo.stderr.contains("'nosuch#1'") && typo.stderr.contains("Greeting#1"), "\(typo.stderr)")
    #expect(try replay([transcript, "--offline", "--threshold", "pass>=150%"]).status == 2)
    let dead = try replay([transcript, "--server", "http://127.0.0.1:9"])
    #expect(dead.status == 1)
    #expect(!dead.stdout.contains("latency"), "no answer, no answer time: \(dead.stdout)")
    // A failing run whose stdout is closed (`| head`): never 0.
    let failing = try write("failing.yaml", ReplayEndToEndTests.failing)
    let process = Process()
    // Never the test run's own stdin: CI's may be a pipe that never ends.
    process.standardInput = FileHandle.nullDevice
    process.executableURL = URL(fileURLWithPath: ProcessRunner.binaryPath)
    process.arguments = ["replay", failing, "--offline"]
    process.environment = home.environment()
    let pipe = Pipe()
    try pipe.fileHandleForReading.close()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 141, "closed stdout: \(process.terminationStatus)")
  }

  /// Ctrl-C once: no new conversation starts, those in flight finish and pass,
  /// and the summary is printed. Ctrl-C twice: those in flight are cancelled.
  @Test(arguments: [1, 2])
  func ctrlCStopsTheArrivalsThenCancelsWhatIsInFlight(presses: Int) throws {
    // Slow enough that those in flight are still there at the second press, however
    // late a busy machine lets the test send it.
    let (bot, transcript) = try slowBot(seconds: 3)
    let errors = PipeCollector()
    let (process, output) = try startReplay(
      [transcript, "--server", bot.baseURL, "--rate", "20", "--duration", "60", "--jobs", "100"],
      errors: errors.pipe)
    // The signs: conversations reached the bot; the first Ctrl-C was heard.
    #expect(waitUntil { bot.requests.count >= 3 }, "no conversation reached the bot")
    kill(process.processIdentifier, SIGINT)
    if presses == 2 {
      #expect(errors.wait(for: "Stopping: "), "the first Ctrl-C was not heard: \(errors.text)")
      kill(process.processIdentifier, SIGINT)
    }
    let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = errors.all()
    process.waitUntilExit()
    #expect(
      stderr.contains("Stopping: no new conversations; waiting for the "), "\(stderr)")
    #expect(stdout.contains(" conversations in "), "\(stdout)")
    // About 12 started in 0.6 s at 20 a second; none after the first Ctrl-C.
    #expect(bot.requests.count < 30, "\(bot.requests.count) requests")
    // The figures so far, and 130 as a shell reports Ctrl-C.
    #expect(stdout.hasPrefix("Interrupted: the figures so far.\n"), "\(stdout)")
    #expect(process.terminationStatus == 130, "\(stdout)\(stderr)")
    if presses == 1 {
      #expect(stdout.contains(" passed, 0 failed; "), "\(stdout)")
      #expect(stdout.contains("\ntransport errors: none\n"), "\(stdout)")
    } else {
      // Cancelled by the user: not failed by the bot, not shown as failures.
      #expect(stdout.contains("transport errors: cancelled "), "\(stdout)")
      #expect(stdout.contains(" passed, 0 failed; "), "\(stdout)")
      #expect(!stdout.contains("The first failures"), "\(stdout)")
    }
  }

  /// Ctrl-C as the run begins (as soon as the program hears it, before a conversation
  /// could start): it ends with its figures and 130, not by the signal, and starts none
  /// or the one already under way.
  @Test func ctrlCAsTheRunBeginsEndsWith130() throws {
    let bot = try LoopbackHTTPServer { _ in .json(#"[{"text":"Greeting"}]"#) }
    let transcript = try write("greeting.yaml", ReplayEndToEndTests.passing)
    let errors = PipeCollector()
    let (process, output) = try startReplay(
      [transcript, "--server", bot.baseURL, "--rate", "5", "--duration", "60"],
      errors: errors.pipe)
    // The sign: a handler for SIGINT exists (the program installs it first of all).
    #expect(waitUntil { catchesSignal(process.processIdentifier, SIGINT) })
    kill(process.processIdentifier, SIGINT)
    let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit, "ended by the signal: \(errors.all())")
    #expect(process.terminationStatus == 130, "\(stdout)\(errors.all())")
    #expect(stdout.hasPrefix("Interrupted: the figures so far.\n"), "\(stdout)")
    #expect(bot.requests.count <= 1, "\(bot.requests.count) conversations after Ctrl-C")
  }

  /// A rate far too low for the conversations asked (`--repeat`) would wait for
  /// centuries in silence: refused before it starts, with the figure.
  @Test func arrivalsThatCouldNeverAllStartAreRefused() throws {
    let transcript = try write("greeting.yaml", ReplayEndToEndTests.passing)
    let result = try replay([
      transcript, "--offline", "--rate", "0.0000000000001", "--repeat", "2",
    ])
    #expect(result.status == 2)
    #expect(
      result.stderr.contains(
        "At --rate 1e-13 a second, the 2 conversations of this run would take 115740741 days"),
      "\(result.stderr)")
    // Within a run's longest time, it runs.
    let fine = try replay([transcript, "--offline", "--rate", "50", "--repeat", "2"])
    #expect(fine.status == 0, "\(fine.stderr)")
    // With --duration, the duration ends it.
    let bounded = try replay([transcript, "--offline", "--rate", "0.0001", "--duration", "0.2"])
    #expect(bounded.status == 0, "\(bounded.stderr)")
  }

  @Test func badLoadOptionsAreUsageErrorsInTheUsersLanguage() throws {
    let transcript = try write("greeting.yaml", ReplayEndToEndTests.passing)
    let cases: [([String], String)] = [
      (["--shard", "0/2"], "--shard wants I/N with 1 ≤ I ≤ N ≤ 10000, like 2/4; got '0/2'."),
      (["--shard", "3/2"], "got '3/2'"),
      (["--rate", "0"], "--rate wants conversations a second, more than 0 and at most 100000"),
      (["--rate", "nan"], "got 'nan'"),
      (["--duration", "soon"], "--duration wants a duration like 90, 90s, 5m or 1h"),
      (["--duration", "8d"], "got '8d'"),
      (["--rate", "5", "--ramp-up", "forever"], "--ramp-up wants a duration"),
      (["--ramp-up", "10s"], "--ramp-up needs --rate"),
      (["--jobs", "10001"], "--jobs"),
    ]
    for (arguments, message) in cases {
      let result = try replay([transcript, "--offline"] + arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
    let russian = try replay(
      [transcript, "--offline", "--shard", "x"], environment: ["LANG": "ru_RU.UTF-8"])
    #expect(russian.stderr.contains("--shard ожидает I/N"), "\(russian.stderr)")
    let noLog = try replay([
      transcript, "--offline", "--duration", "1", "--hlog", home.path + "/no/such/dir/a.hlog",
    ])
    #expect(noLog.status == 2)
    #expect(
      noLog.stderr.contains("Could not open '\(home.path)/no/such/dir/a.hlog' for the interval log")
    )
  }

  /// `replay merge` with no file prints its usage; runs that did not overlap in time are
  /// a warning, and the time between them is not counted as load.
  @Test func mergeSaysWhatItTakesAndWarnsOfRunsApart() throws {
    let usage = try replay(["merge"])
    #expect(usage.status == 2)
    #expect(usage.stderr.contains("USAGE: migrant-chat replay merge"), "\(usage.stderr)")
    let transcript = try write("greeting.yaml", ReplayEndToEndTests.passing)
    var logs: [String] = []
    for name in ["first", "second"] {
      let log = home.path + "/\(name).hlog"
      let run = try replay([transcript, "--offline", "--duration", "0.3", "--hlog", log])
      #expect(run.status == 0, "\(run.stderr)")
      logs.append(log)
      if name == "first" { Thread.sleep(forTimeInterval: 2.5) }
    }
    let merged = try replay(
      ["merge"] + logs + [logs[0], "--report", home.path + "/merged.json"])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stderr.contains("did not overlap in time"), "\(merged.stderr)")
    #expect(merged.stderr.contains("is named twice: merged once"), "\(merged.stderr)")
    let seconds = try json(home.path + "/merged.json")["seconds"] as? Double ?? 99
    #expect(seconds < 2, "the 2.5 s between the runs is not counted: \(seconds)")
  }

  /// A merged run with failures exits 1 and says why, as the run did.
  @Test func mergeSaysWhyItFails() throws {
    let failing = try write("failing.yaml", ReplayEndToEndTests.failing)
    let log = home.path + "/f.hlog"
    let run = try replay(["--offline", "--duration", "1", "--hlog", log, failing])
    #expect(run.status == 1, "\(run.stderr)")
    let merged = try replay(["merge", log])
    #expect(merged.status == 1)
    #expect(merged.stdout.contains("The run failed: "), "\(merged.stdout)")
  }

  @Test func mergeRefusesWhatIsNotAnIntervalLog() throws {
    let garbage = try write("garbage.hlog", "#[Histogram log format version 1.3]\nhello,world\n")
    let bad = try replay(["merge", garbage])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("\(garbage):2: not an interval log line"), "\(bad.stderr)")
    let missing = try replay(["merge", home.path + "/missing.hlog"])
    #expect(missing.status == 2)
    #expect(
      missing.stderr.contains("Could not read '\(home.path)/missing.hlog': there is no such file"),
      "\(missing.stderr)")
    let empty = try write("empty.hlog", "#[Histogram log format version 1.3]\n")
    let nothing = try replay(["merge", empty])
    #expect(nothing.status == 2)
    #expect(nothing.stderr.contains("The logs hold no latencies"))
  }

  /// Offline, in load mode: the offline assistant is a bot like another.
  @Test func aClosedRunForADurationOffline() throws {
    let transcript = try write("greeting.yaml", ReplayEndToEndTests.passing)
    let result = try replay([
      transcript, "--offline", "--duration", "0.5", "--jobs", "2", "--report",
      home.path + "/r.json",
    ])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains(" passed, 0 failed; "))
    let report = try json(home.path + "/r.json")
    // Two jobs, each starting the next conversation as one ends, for half a second.
    #expect((report["conversations"] as? Int ?? 0) >= 2, "\(report)")
    #expect(report["seconds"] as? Double ?? 0 >= 0.5)
  }
}
