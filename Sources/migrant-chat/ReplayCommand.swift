import ArgumentParser
import Foundation
import MigrantChatCore
import MigrantChatIO
import Synchronization

struct ReplayCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay",
    abstract: HelpLanguage.l10n(.helpReplayAbstract),
    discussion: HelpLanguage.l10n(.helpReplayDiscussion),
    subcommands: [ReplayMergeCommand.self]
  )

  @Argument(help: HelpLanguage.help(.helpReplayPaths), completion: .file())
  var paths: [String]

  @OptionGroup var bot: BotOptions

  @Flag(help: HelpLanguage.help(.helpReplayOffline))
  var offline = false

  @OptionGroup var language: LanguageOption

  @OptionGroup var accessibility: AccessibleOption

  @Option(help: HelpLanguage.help(.helpJobs), transform: ArgumentCheck.count(in: 1...10_000))
  var jobs = 1

  @Option(help: HelpLanguage.help(.helpRepeat), transform: ArgumentCheck.count(in: 1...1_000_000))
  var `repeat` = 1

  @Option(help: HelpLanguage.help(.helpJUnit), completion: .file())
  var junit: String?

  @Option(help: HelpLanguage.help(.helpReport), completion: .file())
  var report: String?

  @Flag(help: HelpLanguage.help(.helpFailFast))
  var failFast = false

  @Option(
    name: .customLong("ignore"), help: HelpLanguage.help(.helpIgnore),
    transform: ArgumentCheck.ignorePattern)
  var ignorePatterns: [String] = []

  @Flag(help: HelpLanguage.help(.helpSkipFixtures))
  var skipFixtures = false

  @OptionGroup var coverage: CoverageOptions

  @Option(help: HelpLanguage.help(.helpFailedStories), completion: .file())
  var failedStories: String?

  @Option(
    name: .customLong("stories"), help: HelpLanguage.help(.helpStories),
    transform: ArgumentCheck.storyMode)
  var storyMode = StoryMode.predict

  @Option(help: HelpLanguage.help(.helpRate), transform: ArgumentCheck.rate)
  var rate: Double?

  @Option(
    help: HelpLanguage.help(.helpDuration), transform: ArgumentCheck.duration(option: "--duration"))
  var duration: Double?

  @Option(
    help: HelpLanguage.help(.helpRampUp), transform: ArgumentCheck.duration(option: "--ramp-up"))
  var rampUp: Double?

  @Option(help: HelpLanguage.help(.helpShard), transform: ArgumentCheck.shard)
  var shard: Shard = .whole

  @Option(help: HelpLanguage.help(.helpHlog), completion: .file())
  var hlog: String?

  @Option(
    name: .customLong("max-in-flight"), help: HelpLanguage.help(.helpMaxInFlight),
    transform: ArgumentCheck.count(in: 1...1_000_000))
  var maxInFlightOption: Int?

  @Option(
    name: .customLong("threshold"), help: HelpLanguage.help(.helpThreshold),
    transform: ArgumentCheck.threshold)
  var thresholds: [LoadThreshold] = []

  /// Load mode: a rate, a duration or an interval log asks for figures, not a line per run.
  var isLoad: Bool { rate != nil || duration != nil || hlog != nil || !thresholds.isEmpty }

  func validate() throws {
    if rampUp != nil && rate == nil {
      throw ValidationError(HelpLanguage.l10n(.loadRampWithoutRate))
    }
    if let duration, duration <= 0 {
      throw ValidationError(HelpLanguage.l10n(.loadZeroDuration))
    }
    if let duration, let rampUp, rampUp > duration {
      // The rate would never reach --rate: a run that does not measure what was asked.
      throw ValidationError(HelpLanguage.l10n(.loadRampPastDuration))
    }
  }

  /// A threshold naming a step no transcript has (a typo) is said before the run, with
  /// the steps there are; nil when every step is known.
  static func unknownStep(_ thresholds: [LoadThreshold], _ transcripts: [Transcript]) -> String? {
    var known: [String] = []
    for transcript in transcripts {
      let first = transcript.start != nil ? 0 : 1
      guard first <= transcript.steps.count else { continue }
      known += (first...transcript.steps.count).map { "\(transcript.name)#\($0)" }
    }
    let steps = Set(known)
    guard let unknown = thresholds.compactMap(\.step).first(where: { !steps.contains($0) }) else {
      return nil
    }
    let listed = known.prefix(8).joined(separator: ", ") + (known.count > 8 ? ", …" : "")
    return HelpLanguage.l10n(
      .loadUnknownStep,
      ["step": TerminalSanitizer.clean(unknown), "steps": TerminalSanitizer.clean(listed)])
  }

  @OptionGroup var network: NetworkOptions

  func run() async throws {
    // The exit status is the verdict: a closed stdout (`| head`) must not make it 0.
    ConsoleOutput.closedStdoutStatus.store(141, ordering: .relaxed)
    // Under load, Ctrl-C is heard from the start: one pressed while the transcripts are
    // read stops the arrivals before the first, and the run ends with its figures and 130.
    let pressedEarly = Atomic(false)
    if isLoad {
      SignalHub.shared.onInterrupt { pressedEarly.store(true, ordering: .relaxed) }
      SignalHub.shared.handle([SIGINT])
    }
    let environment = ProcessEnvironment.current()
    let transcripts: [Transcript]
    var unreadable: [String] = []
    let runner: TranscriptRunner
    let l10n: Localizer
    var conformance: [(BotChannel, TranscriptRunner)] = []
    var domain: TrackerCoverage.Names?
    do throws(SetupFailure) {
      let base = try BaseSetup(
        lang: language.lang, environment: environment,
        accessible: accessibility.accessible)
      l10n = Localizer(base.language)
      if network.insecure {
        ConsoleOutput.write(l10n(.insecureWarning) + "\n", to: STDERR_FILENO)
      }
      (transcripts, unreadable) = try Self.load(paths, l10n: l10n)
      let files = DirectoryFiles.open(paths: base.paths)
      // The cache (the sample until a sync) resolves contact ids for `contacts:` card checks.
      let directory = ContactDirectory(store: files.store, favourites: files.favourites, sync: nil)
      let channels = try ChannelSetup(
        bot.channelChoice, environment: environment, config: base.config, l10n: l10n
      ).channels
      if channels.count > 1 {
        // What the comparison does not do is said, never silently left out.
        let refused: [(Bool, String)] = [
          (offline, "--offline"), (rate != nil, "--rate"), (duration != nil, "--duration"),
          (hlog != nil, "--hlog"), (!thresholds.isEmpty, "--threshold"), (junit != nil, "--junit"),
          (failFast, "--fail-fast"), (`repeat` > 1, "--repeat"), (shard != .whole, "--shard"),
        ]
        if let (_, option) = refused.first(where: \.0) {
          throw SetupFailure(message: l10n(.replayChannelsOption, ["option": option]))
        }
        for channel in channels {
          let (makeTransport, tracker) = try BotConnection.make(
            offline: false, bot: bot, network: network, base: base, files: files,
            environment: environment, l10n: l10n, channel: channel)
          var channelRunner = TranscriptRunner(
            language: base.language, tracker: tracker, directory: directory,
            makeTransport: makeTransport)
          channelRunner.ignore = TextMask(patterns: ignorePatterns)
          channelRunner.skipFixtures = skipFixtures
          channelRunner.reader = WordTables.builtIn.map { TypedLineReader(tables: $0) }
          conformance.append((channel, channelRunner))
        }
      }
      let (makeTransport, tracker) = try transport(
        base: base, files: files, environment: environment, l10n: l10n,
        channel: channels.count > 1 ? channels.first : nil)
      var replayRunner = TranscriptRunner(
        language: base.language, tracker: tracker, directory: directory,
        makeTransport: makeTransport)
      replayRunner.ignore = TextMask(patterns: ignorePatterns)
      replayRunner.skipFixtures = skipFixtures
      replayRunner.reader = WordTables.builtIn.map { TypedLineReader(tables: $0) }
      // Coverage and test stories are for a suite run once, not for traffic.
      let once = onceOnly(channels: channels)
      if coverage.domain != nil, let option = once {
        throw SetupFailure(message: l10n(.coverageNotWithLoad, ["option": option]))
      }
      if coverage.domain != nil, storyMode == .predict, !transcripts.isEmpty,
        transcripts.allSatisfy({ $0.story != nil })
      {
        // Nothing would be measured: said before the run, not as 0 % after it.
        throw SetupFailure(message: l10n(.storyCoverageNoConversations))
      }
      domain = try await coverage.domainNames(tracker: tracker, l10n: l10n)
      if transcripts.contains(where: { $0.story != nil }) {
        if let option = once {
          throw SetupFailure(message: l10n(.storyNotWithLoad, ["option": option]))
        }
        // The model is asked through Rasa's HTTP API: no API, no judging, said first.
        guard let model = tracker as? any StoryModel else {
          throw SetupFailure(message: l10n(.storyNoModel))
        }
        switch await StoryJudge.make(model: model) {
        // The domain is asked in both modes: it says, before anything is sent, that the
        // API is on (execute reads each conversation's tracker through it).
        case .success(let judge):
          replayRunner.storyJudge = judge
          replayRunner.storyMode = storyMode
        case .failure(let failure):
          // A server that cannot be reached is not one without the API: no advice to
          // start it with --enable-api when it is not running at all.
          throw SetupFailure(
            message: l10n(
              failure.error == nil ? .storyNeedsAPI : .storyServerDown,
              ["detail": failure.message(l10n)]))
        }
      }
      runner = replayRunner
    } catch {
      ConsoleOutput.write(error.message + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }

    // A report that cannot be written is said now, not after the run: a missing folder,
    // a folder, a database, a file this run reads (named, or found in a folder named),
    // or one file named for two outputs (one would be lost).
    let inputs = paths + transcripts.map(\.location.file)
    let outputs = [report, junit, hlog, coverage.report, failedStories].compactMap { $0 }
    var named: Set<String> = []
    for output in outputs {
      let same = output == "-" ? "-" : URL(fileURLWithPath: output).resolvingSymlinksInPath().path
      guard named.insert(same).inserted else {
        ConsoleOutput.write(
          l10n(
            .reportNotSaved,
            ["detail": TerminalSanitizer.clean(output) + ": " + l10n(.outputNamedTwice)])
            + "\n", to: STDERR_FILENO)
        throw ExitCode(2)
      }
      do { try AtomicFile.checkUserFile(output, inputs: inputs) } catch {
        let message =
          output == hlog
          ? l10n(
            .loadHlogNotOpened,
            [
              "path": TerminalSanitizer.clean(output),
              "detail": TerminalSanitizer.clean("\(error)"),
            ])
          : l10n(.reportNotSaved, ["detail": TerminalSanitizer.clean("\(error)")])
        ConsoleOutput.write(message + "\n", to: STDERR_FILENO)
        throw ExitCode(2)
      }
    }
    // A file that cannot be read does not stop the others: each is named, the rest run.
    for problem in unreadable { ConsoleOutput.write(problem + "\n", to: STDERR_FILENO) }
    // With --rate, --jobs is not used: --max-in-flight caps the open model (below).
    let jobs = rate == nil ? Self.jobsWithinFileLimit(jobs, option: "--jobs", l10n: l10n) : jobs
    if conformance.count > 1 {
      try await ReplayConformance(runners: conformance, l10n: l10n, jobs: jobs)
        .run(transcripts, report: report, inputs: inputs, unreadable: unreadable)
      return
    }
    if isLoad {
      try await runLoad(
        transcripts, jobs: jobs, runner: runner, l10n: l10n, unreadable: unreadable,
        pressedEarly: { pressedEarly.load(ordering: .relaxed) })
      return
    }
    let console = ReplayConsole(
      runner: runner,
      options: ReplayConsole.Options(
        jobs: jobs, repeats: 1, failFast: failFast, output: summaryDescriptor))
    let outcome = await console.run(shard.share(of: transcripts, repeats: `repeat`))
    ConsoleOutput.write(ReplayConsole.summary(outcome, l10n: l10n), to: summaryDescriptor)
    var covered: TrackerCoverage?
    if let domain, let tracker = runner.tracker, let path = coverage.domain {
      var measured = TrackerCoverage(domain: domain)
      for result in outcome.results {
        guard let id = result.conversationID, let events = await tracker.events(sender: id)
        else { continue }
        measured.add(events: events, language: result.language ?? l10n.language)
      }
      ConsoleOutput.write(measured.summary(domainPath: path, l10n: l10n), to: summaryDescriptor)
      covered = measured
    }
    try Self.write(
      [
        (junit, { Data(utf8Of: JUnitReport.xml(outcome.results)) }),
        (report, { Data(utf8Of: ReplayConsole.report(outcome).compactText + "\n") }),
        (failedStories, { Data(utf8Of: Self.failedStoriesYAML(outcome.results)) }),
        (
          coverage.report,
          {
            Data(
              ((covered?.json(domainPath: coverage.domain ?? "") ?? .null).compactText + "\n").utf8)
          }
        ),
      ], inputs: inputs, l10n: l10n)
    if let failedStories, failedStories != "-" {
      let count = outcome.results.filter { !$0.passed && $0.story != nil }.count
      ConsoleOutput.write(
        l10n(
          .storiesWritten,
          ["path": TerminalSanitizer.clean(failedStories), "count": String(count)]) + "\n",
        to: STDERR_FILENO)
    }
    try Self.finish(failed: outcome.failed > 0, unreadable: unreadable, l10n: l10n)
  }

  /// The option that makes this run more than one pass of the suite (traffic, repeats,
  /// two channels), or nil: coverage and test stories are refused with it.
  func onceOnly(channels: [BotChannel]) -> String? {
    let refused: [(Bool, String)] = [
      (channels.count > 1, "--channel " + channels.map(\.rawValue).joined(separator: ",")),
      (rate != nil, "--rate"), (duration != nil, "--duration"), (hlog != nil, "--hlog"),
      (!thresholds.isEmpty, "--threshold"), (`repeat` > 1, "--repeat"),
    ]
    return refused.first(where: \.0)?.1
  }

  /// The stories that failed, as `rasa test core` writes `failed_test_stories.yml`: each
  /// named with its file, each wrong prediction marked `# predicted:`.
  static func failedStoriesYAML(_ results: [TranscriptResult]) -> String {
    var lines = ["version: \"3.1\"", "stories:"]
    for result in results where !result.passed {
      guard let story = result.transcript.story, let verdict = result.story else { continue }
      let name = "\(story.name) (\(story.location.file))"
      lines.append("- story: " + JSONValue.string(name).compactText)
      lines.append("  steps:")
      lines += verdict.annotated.map { "  " + $0 }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Writes each output asked for; one that cannot be written is said, exit 2.
  static func write(
    _ outputs: [(path: String?, data: () -> Data)], inputs: [String], l10n: Localizer
  ) throws {
    do {
      for case (let path?, let data) in outputs {
        try AtomicFile.writeUserFile(data(), to: path, mode: 0o600, inputs: inputs)
      }
    } catch {
      ConsoleOutput.write(
        l10n(.reportNotSaved, ["detail": TerminalSanitizer.clean("\(error)")]) + "\n",
        to: STDERR_FILENO)
      throw ExitCode(2)
    }
  }

  /// The run's end: how many files could not be run (each was named before), and exit 1
  /// when anything failed or was not run.
  static func finish(failed: Bool, unreadable: [String], l10n: Localizer) throws {
    if !unreadable.isEmpty {
      ConsoleOutput.write(
        l10n.plural(.replayUnreadable, count: unreadable.count) + "\n", to: STDERR_FILENO)
    }
    if failed || !unreadable.isEmpty { throw ExitCode(1) }
  }

  /// Every transcript in the given files and directories (`*.yaml`, `*.yml`, recursively),
  /// and what was wrong with each file that could not be read. Nothing to run at all is
  /// a setup failure (exit 2).
  static func load(
    _ paths: [String], l10n: Localizer
  ) throws(SetupFailure) -> (transcripts: [Transcript], unreadable: [String]) {
    var files: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw SetupFailure(
          message: l10n(.replayNoSuchPath, ["path": TerminalSanitizer.clean(path)]))
      }
      if isDirectory.boolValue {
        let found = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
          .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
        files += found.map { (path as NSString).appendingPathComponent($0) }
      } else {
        files.append(path)
      }
    }
    var transcripts: [Transcript] = []
    var unreadable: [String] = []
    for file in files {
      do {
        transcripts += try TranscriptParser.load(path: file)
      } catch {
        unreadable.append(error.message(l10n))
      }
    }
    guard !transcripts.isEmpty else {
      throw SetupFailure(
        message: unreadable.isEmpty ? l10n(.replayNothing) : unreadable.joined(separator: "\n"))
    }
    return (transcripts, unreadable)
  }

  /// The bot to replay against: `--offline`, else a server; never the one for the other.
  func transport(
    base: BaseSetup, files: DirectoryFiles, environment: [String: String], l10n: Localizer,
    channel: BotChannel? = nil
  ) throws(SetupFailure) -> (@Sendable () -> any ChatTransport, (any TrackerSource)?) {
    try BotConnection.make(
      offline: offline, bot: bot, network: network, base: base, files: files,
      environment: environment, l10n: l10n, channel: channel)
  }

  /// Each conversation in flight is a socket: the soft limit of open files goes up
  /// to the hard one, and `jobs` is capped, with a line saying why, when that is short.
  static func jobsWithinFileLimit(_ jobs: Int, option: String, l10n: Localizer) -> Int {
    let limit = OpenFileLimit.raise()
    let connections = min(jobs, OpenFileLimit.connections(within: limit))
    if connections < jobs {
      ConsoleOutput.write(
        l10n(
          .loadFileLimit,
          [
            "option": option, "jobs": "\(jobs)", "limit": "\(limit)",
            "connections": "\(connections)",
          ]) + "\n",
        to: STDERR_FILENO)
    }
    return connections
  }

  /// Where the summary goes: stdout, unless an output was asked for there (`--report -`),
  /// which then holds that output alone.
  private var summaryDescriptor: Int32 {
    [report, junit, hlog].contains("-") ? STDERR_FILENO : STDOUT_FILENO
  }

  /// Runs the transcripts as load and prints the summary (`--rate`, `--duration`, `--hlog`).
  private func runLoad(
    _ transcripts: [Transcript], jobs: Int, runner: TranscriptRunner, l10n: Localizer,
    unreadable: [String], pressedEarly: @escaping @Sendable () -> Bool
  ) async throws {
    var hlogFile: FileHandle?
    if let hlog {
      do {
        hlogFile = try HistogramLog.create(hlog)
      } catch {
        ConsoleOutput.write(
          l10n(
            .loadHlogNotOpened,
            ["path": TerminalSanitizer.clean(hlog), "detail": TerminalSanitizer.clean("\(error)")])
            + "\n", to: STDERR_FILENO)
        throw ExitCode(2)
      }
    }
    defer { try? hlogFile?.close() }
    if let problem = Self.unknownStep(thresholds, transcripts) {
      ConsoleOutput.write(problem + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }
    // The open model's cap, within the sockets this process may open.
    // The default is capped quietly; a cap the user asked for is said when cut.
    let maxInFlight =
      rate == nil
      ? jobs
      : maxInFlightOption.map {
        Self.jobsWithinFileLimit($0, option: "--max-in-flight", l10n: l10n)
      }
        ?? min(
          LoadPlan.defaultMaxInFlight, OpenFileLimit.connections(within: OpenFileLimit.raise()))
    let plan = LoadPlan(
      jobs: jobs, arrivals: rate.map { .open(rate: $0) } ?? .closed, duration: duration,
      rampUp: rampUp ?? 0, shard: shard, repeats: `repeat`, maxInFlight: maxInFlight)
    // A plan whose arrivals could not all start within the longest run (a rate far too
    // low for --repeat) is refused with the figure, never waited out in silence.
    if case .open(let rate) = plan.arrivals, duration == nil {
      let total = plan.totalArrivals(transcripts: transcripts.count)
      let last = plan.arrivalTime(total - 1, rate: rate)
      if !(last <= ArgumentCheck.longestDuration) {
        ConsoleOutput.write(
          l10n(
            .loadArrivalsTooSlow,
            [
              "count": "\(total)", "rate": TerminalSanitizer.clean("\(rate)"),
              "days": l10n.number(min(last / 86_400, 1e15), fractionDigits: 0),
            ]) + "\n", to: STDERR_FILENO)
        throw ExitCode(2)
      }
    }
    let console = LoadConsole(
      load: LoadRunner(runner: runner, plan: plan), l10n: l10n, hlog: hlogFile,
      live: TerminalInfo.isTerminal(STDERR_FILENO))
    // Against a server, the conversations run on the HTTP I/O thread: a turn then
    // crosses no thread, which is what makes the client cheap per turn.
    let executor: (any TaskExecutor)? = offline ? nil : HTTPExecutor.shared
    let work = Task(executorPreference: executor) { await console.run(transcripts) }
    // Ctrl-C stops the arrivals: the conversations in flight finish and the figures
    // are kept. Ctrl-C again cancels those in flight (a slow bot need not be waited for).
    let load = console.load
    let interrupt: @Sendable () -> Void = {
      if load.stopArrivals() {
        ConsoleOutput.write(
          (ConsoleOutput.redraws ? "\r\u{1B}[K" : "")
            + l10n(.loadStopping, ["in_flight": "\(load.recorder.totals.inFlight)"]) + "\n",
          to: STDERR_FILENO)
      } else {
        work.cancel()
      }
    }
    SignalHub.shared.onInterrupt(interrupt)
    // Pressed while the transcripts were read: the arrivals stop before the first.
    if pressedEarly() { interrupt() }
    let outcome = await work.value
    SignalHub.shared.onInterrupt(nil)
    let interrupted = load.wasStopped
    if interrupted { ConsoleOutput.write(l10n(.loadInterrupted) + "\n") }
    if !outcome.failures.isEmpty {
      ConsoleOutput.write(l10n(.loadFailuresShown) + "\n")
      for failure in outcome.failures {
        ConsoleOutput.write(ReplayConsole.describe(failure, l10n: l10n))
      }
    }
    let summary = LoadSummary(
      counts: outcome.counts, seconds: outcome.seconds, overall: outcome.overall,
      steps: outcome.steps)
    ConsoleOutput.write(summary.text(l10n), to: summaryDescriptor)
    let broken = Self.check(thresholds, summary, l10n: l10n)
    do {
      if let report {
        try AtomicFile.writeUserFile(
          Data(utf8Of: summary.json.compactText + "\n"), to: report, mode: 0o600,
          inputs: paths + transcripts.map(\.location.file))
      }
      if let junit {
        // One case per transcript: its first failing run, else a passing one.
        try AtomicFile.writeUserFile(
          Data(utf8Of: JUnitReport.xml(outcome.representatives)), to: junit, mode: 0o600,
          inputs: paths
        )
      }
    } catch {
      ConsoleOutput.write(
        l10n(.reportNotSaved, ["detail": TerminalSanitizer.clean("\(error)")]) + "\n",
        to: STDERR_FILENO)
      throw ExitCode(2)
    }
    // Ctrl-C: the figures so far, and 130 as a shell reports SIGINT.
    if interrupted { throw ExitCode(130) }
    var reasons: [String] = []
    if outcome.counts.failed > 0 {
      reasons.append(l10n.plural(.replayFailed, count: outcome.counts.failed))
    }
    if outcome.counts.dropped > 0 {
      reasons.append(l10n.plural(.loadVerdictDropped, count: outcome.counts.dropped))
    }
    if broken > 0 { reasons.append(l10n.plural(.loadVerdictBroken, count: broken)) }
    if !reasons.isEmpty {
      // Why the exit status is 1, said where the figures are.
      ConsoleOutput.write(
        l10n(.loadVerdictFailed, ["reasons": reasons.joined(separator: ", ")]) + "\n",
        to: summaryDescriptor)
    }
    if !reasons.isEmpty || !unreadable.isEmpty { throw ExitCode(1) }
  }

  /// Prints each threshold, kept or broken, with what was measured; returns how many broke.
  static func check(_ thresholds: [LoadThreshold], _ summary: LoadSummary, l10n: Localizer) -> Int {
    guard !thresholds.isEmpty else { return 0 }
    var lines = [l10n(.loadThresholds)]
    var broken = 0
    for threshold in thresholds {
      let measured = threshold.measured(summary)
      let name = TerminalSanitizer.clean(threshold.description, keepNewlines: false)
      guard let measured else {
        broken += 1
        lines.append("  " + l10n(.loadThresholdNoStep, ["threshold": name]))
        continue
      }
      let kept = threshold.holds(measured)
      if !kept { broken += 1 }
      lines.append(
        "  "
          + l10n(
            kept ? .loadThresholdKept : .loadThresholdBroken,
            ["threshold": name, "value": threshold.format(measured, l10n)]))
    }
    ConsoleOutput.write(lines.joined(separator: "\n") + "\n")
    return broken
  }
}
