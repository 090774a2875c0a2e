import ArgumentParser
import Foundation
import MigrantChatCore
import MigrantChatIO

/// `migrant-chat evaluate`: how well the deployed bot understands a labelled test
/// set, counted as `rasa test nlu` counts it, asked over `POST /model/parse`.
struct EvaluateCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "evaluate",
    abstract: HelpLanguage.l10n(.helpEvaluateAbstract),
    discussion: HelpLanguage.l10n(.helpEvaluateDiscussion)
  )

  @Option(help: HelpLanguage.help(.helpServer))
  var server: String?

  @Option(
    name: .customLong("nlu"), help: HelpLanguage.help(.helpEvaluateNLU),
    completion: .file(extensions: ["yml", "yaml"]))
  var nlu: [String] = []

  @Option(
    name: .customLong("lang"), help: HelpLanguage.help(.helpEvaluateLang),
    transform: ExploreCommand.languages)
  var languages: [Language]?

  @Option(help: HelpLanguage.help(.helpEvaluateReport), completion: .file())
  var report: String?

  @Option(help: HelpLanguage.help(.helpEvaluateHTML), completion: .file())
  var html: String?

  @Option(help: HelpLanguage.help(.helpEvaluateThreshold), transform: EvaluateCommand.gate)
  var threshold: [EvaluationGate] = []

  @Option(help: HelpLanguage.help(.helpEvaluateWrongCost), transform: EvaluateCommand.cost)
  var wrongCost: Double = 1

  @Option(
    help: HelpLanguage.help(.helpEvaluateFallbackThreshold), transform: RobustnessCommand.share)
  var fallbackThreshold: Double?

  @Option(help: HelpLanguage.help(.helpRobustnessJobs), transform: ArgumentCheck.count(in: 1...64))
  var jobs = 4

  @Option(help: HelpLanguage.help(.helpRobustnessRate), transform: RobustnessCommand.rate)
  var rate: Double?

  @OptionGroup var accessibility: AccessibleOption

  @OptionGroup var network: NetworkOptions

  @Sendable static func gate(_ text: String) throws -> EvaluationGate {
    guard let gate = EvaluationGate(text) else {
      throw ArgumentCheck.Problem(
        description: HelpLanguage.l10n(.evaluateBadThreshold, ["value": text]))
    }
    return gate
  }

  @Sendable static func cost(_ text: String) throws -> Double {
    guard let cost = Double(text.trimmingCharacters(in: .whitespaces)), cost.isFinite,
      (0...100).contains(cost)
    else {
      throw ArgumentCheck.Problem(
        description: HelpLanguage.l10n(.evaluateBadCost, ["value": text]))
    }
    return cost
  }

  func run() async throws {
    ConsoleOutput.closedStdoutStatus.store(141, ordering: .relaxed)
    let interruption = Interruption()
    let environment = ProcessEnvironment.current()
    let l10n: Localizer
    let inspector: RasaInspector
    var examples: [NLUTestExample]
    let accessible: Bool
    do throws(SetupFailure) {
      let base = try BaseSetup(
        lang: nil, environment: environment, accessible: accessibility.accessible)
      l10n = Localizer(base.language)
      accessible = base.accessible
      examples = try readExamples(l10n)
      inspector = try RobustnessCommand.inspector(
        server: server, network: network, base, environment, l10n, noBot: .evaluateNoBot)
    } catch {
      ConsoleOutput.write(error.message + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }
    if let languages {
      let all = examples.count
      examples = examples.filter { languages.contains($0.language) }
      guard !examples.isEmpty else {
        ConsoleOutput.write(
          l10n(
            .evaluateNothing,
            ["count": String(all), "languages": languages.map(\.rawValue).joined(separator: ",")])
            + "\n", to: STDERR_FILENO)
        throw ExitCode(2)
      }
      if examples.count < all {
        ConsoleOutput.write(
          l10n(
            .evaluateLeftOutLang,
            [
              "asked": String(examples.count), "count": String(all),
              "languages": languages.map(\.rawValue).joined(separator: ","),
            ]) + "\n", to: STDERR_FILENO)
      }
    }
    // A threshold naming an intent, entity or language no example has is a mistake
    // said now (a misspelt name), not a failure after the run.
    for gate in threshold {
      guard let name = gate.unknownName(in: examples) else { continue }
      func list<S: Sequence<String>>(_ names: S) -> String {
        Set(names).sorted().map { TerminalSanitizer.clean($0) }.joined(separator: ", ")
      }
      ConsoleOutput.write(
        l10n(
          .evaluateUnknownName,
          [
            "threshold": TerminalSanitizer.clean(gate.description),
            "name": TerminalSanitizer.clean(name), "intents": list(examples.map(\.intent)),
            "entities": list(examples.flatMap(\.entities).map(\.label)),
            "languages": list(examples.map(\.language.rawValue)),
          ]) + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }
    // One intent has nothing to be told from (Rasa judges intents from two).
    if Set(examples.map(\.intent)).count < 2, let only = examples.first?.intent {
      ConsoleOutput.write(
        l10n(.evaluateOneIntent, ["intent": TerminalSanitizer.clean(only)]) + "\n",
        to: STDERR_FILENO)
      throw ExitCode(2)
    }
    // Where the results go is checked now, not after a long run.
    if let report, let html,
      URL(fileURLWithPath: report).resolvingSymlinksInPath()
        == URL(fileURLWithPath: html).resolvingSymlinksInPath()
    {
      ConsoleOutput.write(
        l10n(.evaluateSameFile, ["path": TerminalSanitizer.clean(report)]) + "\n",
        to: STDERR_FILENO)
      throw ExitCode(2)
    }
    for path in [report, html].compactMap({ $0 }) {
      do { try AtomicFile.checkUserFile(path) } catch {
        UserFiles.sayNotSaved(path, error, l10n: l10n)
        throw ExitCode(2)
      }
    }

    let asked = examples
    let jobs = jobs
    let rate = rate
    let work = Task(executorPreference: HTTPExecutor.shared) {
      () -> (NLUEvaluation.Measured) in
      await Self.measure(
        asked, inspector: inspector, jobs: jobs, rate: rate,
        progress: RobustnessCommand.progressLine(l10n, .evaluateProgress))
    }
    let measured = await interruption.value(of: work)
    let interrupted = interruption.happened
    if interrupted {
      ConsoleOutput.write(l10n(.robustnessInterrupted) + "\n", to: STDERR_FILENO)
      guard !measured.judged.isEmpty else { throw ExitCode(130) }
    } else if let stop = measured.stop {
      ConsoleOutput.write(
        RobustnessCommand.message(for: stop, l10n) + "\n", to: STDERR_FILENO)
      guard !measured.judged.isEmpty else { throw ExitCode(2) }
      ConsoleOutput.write(l10n(.robustnessStoppedBy) + "\n", to: STDERR_FILENO)
    }
    // The bot's fallback threshold: as given, else its answer to nonsense, else any
    // nlu_fallback among its answers (Rasa gives it the threshold as confidence).
    let told =
      measured.judged.lazy.map(\.answered).first(where: \.isFallback)?.intent?.confidence
    let evaluation = NLUEvaluation(
      measured.judged, wrongCost: wrongCost,
      botThreshold: fallbackThreshold ?? measured.botThreshold ?? told, planned: examples.count)
    let shownServer = ServerEndpoint.redacted(inspector.endpoint.baseURL)
    ConsoleOutput.write(evaluation.text(l10n, server: shownServer, accessible: accessible))
    var saved = true
    for (path, text) in [
      (report, evaluation.json(server: shownServer, gates: threshold).compactText + "\n"),
      (html, evaluation.html(l10n, server: shownServer, gates: threshold)),
    ] {
      if let path, !UserFiles.save(text, to: path, l10n: l10n) { saved = false }
    }
    if interrupted { throw ExitCode(130) }
    if measured.stop != nil || !saved { throw ExitCode(2) }
    var failed = false
    for gate in threshold where !gate.passes(evaluation) {
      failed = true
      let figure = gate.measured(in: evaluation)
      ConsoleOutput.write(
        l10n(
          figure == nil ? .evaluateNoFigure : .evaluateThresholdMissed,
          [
            "threshold": TerminalSanitizer.clean(gate.description),
            "value": figure.map { l10n.number($0, fractionDigits: 4) } ?? "",
          ]) + "\n", to: STDERR_FILENO)
    }
    if !threshold.isEmpty {
      ConsoleOutput.write(
        l10n(
          .evaluateThresholdsMet,
          [
            "met": String(threshold.filter { $0.passes(evaluation) }.count),
            "count": String(threshold.count),
          ]) + "\n", to: STDERR_FILENO)
    }
    if failed { throw ExitCode(1) }
  }

  /// The examples of the --nlu files and folders.
  func readExamples(_ l10n: Localizer) throws(SetupFailure) -> [NLUTestExample] {
    guard !nlu.isEmpty else { throw SetupFailure(message: l10n(.evaluateNoExamples)) }
    do throws(NLUFile.PathFailure) {
      let examples = try NLUFile.testExamples(paths: nlu)
      guard !examples.isEmpty else { throw NLUFile.PathFailure(path: nlu[0], failure: .noList) }
      return examples
    } catch {
      throw SetupFailure(
        message: l10n(
          .evaluateBadNLU,
          [
            "path": TerminalSanitizer.clean(error.path),
            "detail": TerminalSanitizer.clean(error.failure.message(l10n)),
          ]))
    }
  }

  /// The bot's fallback threshold (its answer to nonsense), then every example.
  static func measure(
    _ examples: [NLUTestExample], inspector: RasaInspector, jobs: Int, rate: Double?,
    progress: (@Sendable (Int, Int) -> Void)?
  ) async -> NLUEvaluation.Measured {
    var measured = NLUEvaluation.Measured()
    switch await inspector.parseAnswer(RobustnessRun.nonsenseProbe) {
    case .success(let answer):
      let probe = NLUPrediction(parse: answer)
      if probe.isFallback { measured.botThreshold = probe.intent?.confidence }
    case .failure(let reason):
      measured.stop = .inspector(reason)
      return measured
    }
    guard !Task.isCancelled else { return measured }
    let (answers, stop) = await RobustnessRun.askEach(
      examples.count, jobs: jobs, rate: rate,
      ask: { index in
        await inspector.parseAnswer(examples[index].text).mapError { .inspector($0) }
      },
      progress: progress)
    measured.stop = stop
    measured.judged = zip(examples, answers).compactMap { example, answer in
      answer.map { NLUEvaluation.Judged(example: example, answered: NLUPrediction(parse: $0)) }
    }
    // Ctrl-C cut the asks short: an ask it ended is not a refusal.
    if Task.isCancelled { measured.stop = nil }
    return measured
  }
}
