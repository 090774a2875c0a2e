import ArgumentParser
import Foundation
import MigrantChatCore
import MigrantChatIO
import Synchronization

/// `migrant-chat explore`: clicks through every button of a bot in every language
/// and reports what is broken (`BotExplorer`).
struct ExploreCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "explore",
    abstract: HelpLanguage.l10n(.helpExploreAbstract),
    discussion: HelpLanguage.l10n(.helpExploreDiscussion)
  )

  @OptionGroup var bot: BotOptions

  @OptionGroup var accessibility: AccessibleOption

  @Flag(help: HelpLanguage.help(.helpExploreOffline))
  var offline = false

  @Option(
    name: .customLong("lang"), help: HelpLanguage.help(.helpExploreLangs),
    transform: ExploreCommand.languages)
  var languages: [Language] = Language.allCases

  @Option(name: .customLong("start"), help: HelpLanguage.help(.helpExploreStart))
  var startOptions: [String] = []

  /// The default is said in the translated help text; given to ArgumentParser it would
  /// be said twice, once in English. Each start message once, in the order given.
  var starts: [String] {
    var seen: Set<String> = []
    let given = startOptions.filter { seen.insert($0).inserted }
    return given.isEmpty ? ["/start"] : given
  }

  @Option(
    help: HelpLanguage.help(.helpExploreAnswers), completion: .file(extensions: ["yml", "yaml"]))
  var answers: String?

  @Option(name: .customLong("skip-button"), help: HelpLanguage.help(.helpExploreSkipButton))
  var skipButtons: [String] = []

  @Option(help: HelpLanguage.help(.helpExploreDepth), transform: ArgumentCheck.count(in: 1...100))
  var depth = 8

  @Option(
    help: HelpLanguage.help(.helpExploreMaxTurns),
    transform: ArgumentCheck.count(in: 1...1_000_000))
  var maxTurns = 2_000

  @Option(help: HelpLanguage.help(.helpExploreJobs), transform: ArgumentCheck.count(in: 1...64))
  var jobs = 4

  @Option(help: HelpLanguage.help(.helpExploreRecordDir), completion: .directory)
  var recordDir: String?

  @Option(help: HelpLanguage.help(.helpExploreReport), completion: .file())
  var report: String?

  @Option(help: HelpLanguage.help(.helpExploreGraph), completion: .file())
  var graph: String?

  @Option(
    help: HelpLanguage.help(.helpExploreDomain), completion: .file(extensions: ["yml", "yaml"]))
  var domain: String?

  @OptionGroup var coverageOptions: CoverageOptions

  @OptionGroup var dataAPI: DataAPIOption

  @OptionGroup var network: NetworkOptions

  /// `en,ru,uk`: each once, in the order given.
  @Sendable static func languages(_ text: String) throws -> [Language] {
    try ArgumentCheck.commaList(text, problem: .exploreBadLanguages) { Language(rawValue: $0) }
  }

  func validate() throws {
    // An empty start would send nothing; an empty --skip-button would skip nothing.
    for (values, option) in [(startOptions, "--start"), (skipButtons, "--skip-button")]
    where values.contains(where: { $0.trimmingWhitespace().isEmpty }) {
      throw ValidationError(HelpLanguage.l10n(.exploreEmptyValue, ["option": option]))
    }
  }

  func run() async throws {
    // The exit status is the verdict: a closed stdout (`| head`) must not make it 0.
    ConsoleOutput.closedStdoutStatus.store(141, ordering: .relaxed)
    let environment = ProcessEnvironment.current()
    let l10n: Localizer
    let explorer: BotExplorer
    let graphFormat: ExploreReport.GraphFormat?
    let directory: ContactDirectory
    let coverage: ExploreCoverage?
    let domainNames: TrackerCoverage.Names?
    let typed: ExploreAnswers?
    do {
      let base = try BaseSetup(
        lang: nil, environment: environment, accessible: accessibility.accessible)
      l10n = Localizer(base.language)
      graphFormat = try graph.map { path throws(SetupFailure) in
        guard let format = ExploreReport.GraphFormat(path: path) else {
          throw SetupFailure(
            message: l10n(.exploreBadGraph, ["path": TerminalSanitizer.clean(path)]))
        }
        return format
      }
      typed = try answers.map { path throws(SetupFailure) in
        // A file that is not there is said so, as replay says it, not as unreadable.
        guard FileManager.default.fileExists(atPath: path) else {
          throw SetupFailure(
            message: l10n(.replayNoSuchPath, ["path": TerminalSanitizer.clean(path)]))
        }
        do throws(TranscriptParser.Problem) {
          return try AnswersFile.load(path: path)
        } catch {
          throw SetupFailure(message: l10n(.exploreBadAnswers, ["problem": error.message(l10n)]))
        }
      }
      coverage = try domain.map { path throws(SetupFailure) in
        do throws(DomainFile.Failure) {
          return try DomainFile.coverage(path: path)
        } catch {
          throw SetupFailure(
            message: l10n(
              .exploreBadDomain,
              [
                "path": TerminalSanitizer.clean(path),
                "detail": TerminalSanitizer.clean(error.message(l10n)),
              ]))
        }
      }
      let setup = try DirectorySetup(
        flag: dataAPI.dataApi, environment: environment, config: base.config, paths: base.paths,
        timeout: (network.timeout ?? base.config.timeout ?? .standard).seconds,
        insecure: network.insecure, policy: RetryPolicy(), l10n: l10n)
      directory = setup.directory
      let (makeTransport, tracker) = try BotConnection.make(
        offline: offline, bot: bot, network: network, base: base, files: setup.files,
        environment: environment, l10n: l10n, noBot: .exploreNoBot)
      domainNames = try await coverageOptions.domainNames(tracker: tracker, l10n: l10n)
      if setup.dataAPI != nil { _ = await directory.syncNow() }
      var options = BotExplorer.Options(
        languages: languages, start: "/start", depth: depth, maxTurns: maxTurns, jobs: jobs)
      options.starts = starts
      options.skipButtons = skipButtons
      options.answers = typed
      explorer = BotExplorer(
        options: options,
        makeTransport: makeTransport, tracker: tracker,
        missingContacts: { ids in
          let cards = await directory.cards(for: ids).cards
          return cards.resolved ? ids.filter { cards.found[$0] == nil } : []
        })
    } catch {
      ConsoleOutput.write(error.message + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }

    // Where the results go is checked now, not after a long exploration.
    let file: (String) throws(AtomicFile.Failure) -> Void = { path throws(AtomicFile.Failure) in
      try AtomicFile.checkUserFile(path)
    }
    let outputs: [(String?, (String) throws(AtomicFile.Failure) -> Void)] = [
      (report, file), (coverageOptions.report, file), (graph, file),
      (recordDir, AtomicFile.checkFolder),
    ]
    for (path, check) in outputs {
      guard let path else { continue }
      do { try check(path) } catch {
        UserFiles.sayNotSaved(path, error, l10n: l10n)
        throw ExitCode(2)
      }
    }
    let progress = Self.progressLine(l10n)
    let (walks, mismatches) = await explorer.run(progress: progress)
    ProgressLine.clear()
    let result = ExploreReport(
      walks: walks, mismatches: mismatches, extra: coverage?.unreached(walks) ?? [])
    ConsoleOutput.write(result.summary(l10n))
    // `--answers` entries that answered nothing: a typo in a slot or a pattern, or slot
    // entries with no tracker to name the slot.
    let answersUsed = walks.reduce(into: Set<Int>()) { $0.formUnion($1.answersUsed) }
    let unused = typed?.entries.indices.filter { !answersUsed.contains($0) } ?? []
    if let given = typed, let path = answers {
      if !unused.isEmpty {
        let named = unused.map { index in
          let entry = given.entries[index]
          return "\(TerminalSanitizer.clean(path)):\(entry.line) ("
            + (entry.slot.map { "slot: " + TerminalSanitizer.clean($0) }
              ?? "prompt: " + TerminalSanitizer.clean(entry.prompt ?? "")) + ")"
        }
        ConsoleOutput.write(
          l10n(.exploreAnswersUnused, ["entries": named.joined(separator: ", ")]) + "\n",
          to: STDERR_FILENO)
        let slotsUnread =
          walks.allSatisfy { $0.tracked == 0 }
          && unused.contains { given.entries[$0].slot != nil }
        if slotsUnread {
          ConsoleOutput.write(l10n(.exploreAnswersNoTracker) + "\n", to: STDERR_FILENO)
        }
      }
    }
    let skipsUsed = walks.reduce(into: Set<Int>()) { $0.formUnion($1.skipsUsed) }
    let skipsUnused = skipButtons.indices.filter { !skipsUsed.contains($0) }
    if !skipsUnused.isEmpty {
      let named = skipsUnused.map { "“" + TerminalSanitizer.clean(skipButtons[$0]) + "”" }
      ConsoleOutput.write(
        l10n(.exploreSkipUnused, ["buttons": named.joined(separator: ", ")]) + "\n",
        to: STDERR_FILENO)
    }
    // What was unused may be past where a limit stopped the walk: said, not guessed.
    let cut = walks.contains { walk in
      walk.findings.contains {
        switch $0.detail {
        case .turnLimit, .depthLimit: true
        default: false
        }
      }
    }
    if cut && (!unused.isEmpty || !skipsUnused.isEmpty) {
      ConsoleOutput.write(l10n(.exploreWalkCut) + "\n", to: STDERR_FILENO)
    }
    var unsaved = false
    func save(_ text: String, to path: String) {
      if !UserFiles.save(text, to: path, l10n: l10n) { unsaved = true }
    }
    if let domainNames, let path = coverageOptions.domain {
      var measured = TrackerCoverage(domain: domainNames)
      for walk in walks {
        measured.reached[walk.language] = walk.reached
        measured.conversations[walk.language] = walk.tracked
      }
      ConsoleOutput.write(measured.summary(domainPath: path, l10n: l10n))
      if let out = coverageOptions.report {
        save(measured.json(domainPath: path).compactText + "\n", to: out)
      }
    }
    if let report { save(result.json.compactText + "\n", to: report) }
    if let graph, let graphFormat { save(result.graph(graphFormat), to: graph) }
    if let recordDir {
      do {
        let count = try ExploreRecording.write(walks, to: recordDir, l10n: l10n)
        ConsoleOutput.write(
          l10n(
            .exploreRecorded, ["path": TerminalSanitizer.clean(recordDir), "count": String(count)])
            + "\n", to: STDERR_FILENO)
      } catch {
        unsaved = true
        UserFiles.sayNotSaved(recordDir, error, l10n: l10n)
      }
    }
    if unsaved { throw ExitCode(2) }
    if result.failed { throw ExitCode(1) }
  }

  /// The walk so far, on one line of a terminal (`ProgressLine`).
  static func progressLine(_ l10n: Localizer) -> (@Sendable (BotExplorer.Progress) -> Void)? {
    let started = ContinuousClock.now
    return ProgressLine.make { (progress: BotExplorer.Progress) in
      let seconds = Double((ContinuousClock.now - started).components.seconds)
      return l10n(
        .exploreProgress,
        [
          "language": progress.language.rawValue, "nodes": String(progress.nodes),
          "turns": String(progress.turns), "seconds": l10n.number(seconds, fractionDigits: 0),
        ])
    }
  }
}
