import ArgumentParser
import Foundation
import MigrantChatCore
import MigrantChatIO
import Synchronization

/// `migrant-chat robustness`: how a bot's NLU holds up when its own examples are
/// typed as migrants type them (`UtteranceVariants`, judged by `/model/parse`).
struct RobustnessCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "robustness",
    abstract: HelpLanguage.l10n(.helpRobustnessAbstract),
    discussion: HelpLanguage.l10n(.helpRobustnessDiscussion)
  )

  @Option(help: HelpLanguage.help(.helpServer))
  var server: String?

  @Option(
    name: .customLong("nlu"), help: HelpLanguage.help(.helpRobustnessNLU),
    completion: .file(extensions: ["yml", "yaml"]))
  var nlu: [String] = []

  @Option(
    name: .customLong("lang"), help: HelpLanguage.help(.helpRobustnessLangs),
    transform: ExploreCommand.languages)
  var languages: [Language] = [.ru, .uk, .en]

  @Option(help: HelpLanguage.help(.helpRobustnessClasses), transform: RobustnessCommand.classes)
  var classes: [VariantClass] = VariantClass.allCases

  @Option(help: HelpLanguage.help(.helpRobustnessSeed))
  var seed: UInt64 = 1

  @Option(help: HelpLanguage.help(.helpRobustnessMinConfidence), transform: RobustnessCommand.share)
  var minConfidence = 0.5

  @Option(help: HelpLanguage.help(.helpRobustnessThreshold), transform: RobustnessCommand.share)
  var threshold: Double?

  @Option(help: HelpLanguage.help(.helpRobustnessReport), completion: .file())
  var report: String?

  @Option(
    name: .customLong("write-nlu"), help: HelpLanguage.help(.helpRobustnessWriteNLU),
    completion: .file())
  var writeNLU: String?

  @Option(help: HelpLanguage.help(.helpRobustnessJobs), transform: ArgumentCheck.count(in: 1...64))
  var jobs = 4

  @Option(help: HelpLanguage.help(.helpRobustnessRate), transform: RobustnessCommand.rate)
  var rate: Double?

  @OptionGroup var network: NetworkOptions

  /// `transliteration,typo`: each once, in the order given.
  @Sendable static func classes(_ text: String) throws -> [VariantClass] {
    try ArgumentCheck.commaList(text, problem: .robustnessBadClasses) { VariantClass(rawValue: $0) }
  }

  /// `90%`, `90 %` or `0.9`: a share from 0 to 1.
  @Sendable static func share(_ text: String) throws -> Double {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let isPercent = trimmed.hasSuffix("%")
    let number = Double(
      (isPercent ? String(trimmed.dropLast()) : trimmed).trimmingCharacters(in: .whitespaces))
    guard let number, number.isFinite, let share = Optional(isPercent ? number / 100 : number),
      (0...1).contains(share)
    else {
      throw ArgumentCheck.Problem(
        description: HelpLanguage.l10n(.robustnessBadShare, ["value": text]))
    }
    return share
  }

  /// Questions a second: more than 0, at most 10,000.
  @Sendable static func rate(_ text: String) throws -> Double {
    guard let rate = Double(text.trimmingCharacters(in: .whitespaces)), rate.isFinite,
      rate > 0, rate <= 10_000
    else {
      throw ArgumentCheck.Problem(
        description: HelpLanguage.l10n(.robustnessBadRate, ["value": text]))
    }
    return rate
  }

  func run() async throws {
    ConsoleOutput.closedStdoutStatus.store(141, ordering: .relaxed)
    let environment = ProcessInfo.processInfo.environment
    let l10n: Localizer
    let inspector: RasaInspector
    var examples: [RobustnessExample] = []
    do throws(SetupFailure) {
      let base = try BaseSetup(lang: nil, environment: environment)
      l10n = Localizer(base.language)
      guard !nlu.isEmpty else { throw SetupFailure(message: l10n(.robustnessNoExamples)) }
      for path in nlu {
        do {
          examples += try NLUFile.examples(path: path)
        } catch {
          throw SetupFailure(
            message: l10n(
              .robustnessBadNLU,
              [
                "path": TerminalSanitizer.clean(path),
                "detail": TerminalSanitizer.clean("\(error)"),
              ]))
        }
      }
      guard var url = firstGiven(server, environment["MIGRANT_CHAT_SERVER"], base.config.server)
      else { throw SetupFailure(message: l10n(.robustnessNoBot)) }
      if let assumed = ServerEndpoint.assumingHTTP(url) { url = assumed }
      let endpoint: ServerEndpoint
      do {
        endpoint = try ServerEndpoint(baseURL: url, webhookPath: ServerEndpoint.defaultWebhookPath)
      } catch {
        throw SetupFailure(message: l10n(.invalidServer, ["url": TerminalSanitizer.clean(url)]))
      }
      inspector = RasaInspector(
        endpoint: endpoint, timeout: (network.timeout ?? base.config.timeout ?? .standard).seconds,
        credentials: RasaInspector.Credentials(environment: environment), insecure: network.insecure
      )
    } catch {
      ConsoleOutput.write(error.message + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }
    // Where the results go is checked now, not after a long run.
    for path in [report, writeNLU].compactMap({ $0 }) {
      do { try AtomicFile.checkUserFile(path) } catch {
        UserFiles.sayNotSaved(path, error, l10n: l10n)
        throw ExitCode(2)
      }
    }

    let plan = RobustnessRun.plan(examples, languages: languages, classes: classes, seed: seed)
    let progress = Self.progressLine(l10n)
    let work = Task(executorPreference: HTTPExecutor.shared) {
      await RobustnessRun.measure(
        plan, jobs: jobs, rate: rate, parse: { await inspector.parse($0) }, progress: progress)
    }
    // Ctrl-C stops the asking; what was measured is reported.
    let stopped = Atomic(false)
    SignalHub.shared.onInterrupt {
      stopped.store(true, ordering: .relaxed)
      work.cancel()
    }
    SignalHub.shared.handle([SIGINT])
    let measured = await work.value
    SignalHub.shared.onInterrupt(nil)
    if progress != nil { ConsoleOutput.write("\r\u{1B}[K", to: STDERR_FILENO) }
    if let reason = measured.unavailable {
      let renderer = Renderer(width: 80, color: false, language: l10n.language)
      ConsoleOutput.write(renderer.message(for: reason) + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }
    if stopped.load(ordering: .relaxed) {
      ConsoleOutput.write(l10n(.robustnessStopped) + "\n", to: STDERR_FILENO)
    }
    let result = RobustnessReport(outcomes: measured.outcomes, minConfidence: minConfidence)
    ConsoleOutput.write(result.text(l10n))
    var unsaved = false
    for (path, text) in [(report, result.json.compactText + "\n"), (writeNLU, result.nluYAML)] {
      if let path, !UserFiles.save(text, to: path, l10n: l10n) { unsaved = true }
    }
    if unsaved { throw ExitCode(2) }
    if let threshold, result.kept < threshold {
      ConsoleOutput.write(
        l10n(
          .robustnessBelowThreshold,
          [
            "share": l10n.number(result.kept * 100, fractionDigits: 0) + "%",
            "threshold": l10n.number(threshold * 100, fractionDigits: 0) + "%",
          ]) + "\n", to: STDERR_FILENO)
      throw ExitCode(1)
    }
  }

  /// Questions asked so far, on one line of a terminal (`ProgressLine`).
  static func progressLine(_ l10n: Localizer) -> (@Sendable (Int, Int) -> Void)? {
    let made = ProgressLine.make { (count: [Int]) in
      l10n(.robustnessProgress, ["done": String(count[0]), "total": String(count[1])])
    }
    guard let line = made else { return nil }
    return { @Sendable done, total in line([done, total]) }
  }
}
