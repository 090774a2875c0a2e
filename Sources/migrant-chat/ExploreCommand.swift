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

  @Flag(help: HelpLanguage.help(.helpExploreOffline))
  var offline = false

  @Option(
    name: .customLong("lang"), help: HelpLanguage.help(.helpExploreLangs),
    transform: ExploreCommand.languages)
  var languages: [Language] = Language.allCases

  @Option(name: .customLong("start"), help: HelpLanguage.help(.helpExploreStart))
  var startOption: String?

  /// The default is said in the translated help text; given to ArgumentParser it would
  /// be said twice, once in English.
  var start: String { startOption ?? "/start" }

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

  @OptionGroup var dataAPI: DataAPIOption

  @OptionGroup var network: NetworkOptions

  /// `en,ru,uk`: each once, in the order given.
  @Sendable static func languages(_ text: String) throws -> [Language] {
    var languages: [Language] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      guard
        let language = Language(rawValue: part.trimmingCharacters(in: .whitespaces).lowercased())
      else {
        throw ArgumentCheck.Problem(
          description: HelpLanguage.l10n(.exploreBadLanguages, ["value": text]))
      }
      if !languages.contains(language) { languages.append(language) }
    }
    return languages
  }

  func run() async throws {
    // The exit status is the verdict: a closed stdout (`| head`) must not make it 0.
    ConsoleOutput.closedStdoutStatus.store(141, ordering: .relaxed)
    let environment = ProcessInfo.processInfo.environment
    let l10n: Localizer
    let explorer: BotExplorer
    let graphFormat: ExploreReport.GraphFormat?
    let directory: ContactDirectory
    let coverage: ExploreCoverage?
    do {
      let base = try BaseSetup(lang: nil, environment: environment)
      l10n = Localizer(base.language)
      graphFormat = try graph.map { path throws(SetupFailure) in
        guard let format = ExploreReport.GraphFormat(path: path) else {
          throw SetupFailure(
            message: l10n(.exploreBadGraph, ["path": TerminalSanitizer.clean(path)]))
        }
        return format
      }
      coverage = try domain.map { path throws(SetupFailure) in
        do {
          return try DomainFile.coverage(path: path)
        } catch {
          throw SetupFailure(
            message: l10n(
              .exploreBadDomain,
              [
                "path": TerminalSanitizer.clean(path),
                "detail": TerminalSanitizer.clean("\(error)"),
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
      if setup.dataAPI != nil { _ = await directory.syncNow() }
      explorer = BotExplorer(
        options: BotExplorer.Options(
          languages: languages, start: start, depth: depth, maxTurns: maxTurns, jobs: jobs),
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
    for (path, check) in [
      (report, { (path: String) throws(AtomicFile.Failure) in try AtomicFile.checkUserFile(path) }),
      (graph, { (path: String) throws(AtomicFile.Failure) in try AtomicFile.checkUserFile(path) }),
      (recordDir, AtomicFile.checkFolder),
    ] {
      guard let path else { continue }
      do { try check(path) } catch {
        ConsoleOutput.write(
          l10n(
            .exploreNotSaved,
            ["path": TerminalSanitizer.clean(path), "detail": TerminalSanitizer.clean("\(error)")])
            + "\n", to: STDERR_FILENO)
        throw ExitCode(2)
      }
    }
    let progress = Self.progressLine(l10n)
    let (walks, mismatches) = await explorer.run(progress: progress)
    if TerminalInfo.isTerminal(STDERR_FILENO) {
      ConsoleOutput.write("\r\u{1B}[K", to: STDERR_FILENO)
    }
    let result = ExploreReport(
      walks: walks, mismatches: mismatches, extra: coverage?.unreached(walks) ?? [])
    ConsoleOutput.write(result.summary(l10n))
    var unsaved = false
    func save(_ text: String, to path: String) {
      do {
        try AtomicFile.writeUserFile(Data(text.utf8), to: path, mode: 0o600)
      } catch {
        unsaved = true
        ConsoleOutput.write(
          l10n(
            .exploreNotSaved,
            ["path": TerminalSanitizer.clean(path), "detail": TerminalSanitizer.clean("\(error)")])
            + "\n", to: STDERR_FILENO)
      }
    }
    if let report { save(result.json.compactText + "\n", to: report) }
    if let graph, let graphFormat { save(result.graph(graphFormat), to: graph) }
    if let recordDir {
      do {
        let count = try ExploreRecording.write(walks, start: start, to: recordDir, l10n: l10n)
        ConsoleOutput.write(
          l10n(
            .exploreRecorded, ["path": TerminalSanitizer.clean(recordDir), "count": String(count)])
            + "\n", to: STDERR_FILENO)
      } catch {
        unsaved = true
        ConsoleOutput.write(
          l10n(
            .exploreNotSaved,
            [
              "path": TerminalSanitizer.clean(recordDir),
              "detail": TerminalSanitizer.clean("\(error)"),
            ]) + "\n", to: STDERR_FILENO)
      }
    }
    if unsaved { throw ExitCode(2) }
    if result.failed { throw ExitCode(1) }
  }

  /// One line on a terminal, rewritten at most five times a second; nothing in a pipe.
  static func progressLine(_ l10n: Localizer) -> (@Sendable (BotExplorer.Progress) -> Void)? {
    guard TerminalInfo.isTerminal(STDERR_FILENO) else { return nil }
    let clock = ContinuousClock()
    let started = clock.now
    let last = Mutex(clock.now - .seconds(1))
    return { progress in
      let now = clock.now
      guard
        last.withLock({ last in
          defer { last = now }
          return now - last >= .milliseconds(200)
        })
      else { return }
      let seconds = Double((now - started).components.seconds)
      let line = l10n(
        .exploreProgress,
        [
          "language": progress.language.rawValue, "nodes": String(progress.nodes),
          "turns": String(progress.turns), "seconds": l10n.number(seconds, fractionDigits: 0),
        ])
      ConsoleOutput.write("\r\u{1B}[K" + line, to: STDERR_FILENO)
    }
  }
}
