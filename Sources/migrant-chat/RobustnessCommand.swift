import ArgumentParser
import Foundation
import MigrantChatCore
import MigrantChatIO

/// `migrant-chat robustness`: how a bot's NLU holds up when its own examples are
/// typed as migrants type them (`UtteranceVariants`, judged by `/model/parse`).
struct RobustnessCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "robustness",
    abstract: HelpLanguage.l10n(.helpRobustnessAbstract),
    discussion: HelpLanguage.l10n(.helpRobustnessDiscussion)
  )

  @Argument(
    help: HelpLanguage.help(.helpRobustnessTranscripts),
    completion: .file(extensions: ["yaml", "yml"]))
  var transcripts: [String] = []

  @OptionGroup var bot: BotOptions

  @OptionGroup var accessibility: AccessibleOption

  @Flag(help: HelpLanguage.help(.helpRobustnessOffline))
  var offline = false

  @Flag(name: .customLong("black-box"), help: HelpLanguage.help(.helpRobustnessBlackBox))
  var blackBox = false

  @Flag(help: HelpLanguage.help(.helpRobustnessThroughClient))
  var throughClient = false

  @Option(
    name: .customLong("nlu"), help: HelpLanguage.help(.helpRobustnessNLU),
    completion: .file(extensions: ["yml", "yaml"]))
  var nlu: [String] = []

  @Option(
    name: .customLong("lang"), help: HelpLanguage.help(.helpRobustnessLangs),
    transform: ExploreCommand.languages)
  var languages: [Language] = [.ru, .uk, .en]

  @Option(
    name: .customLong("classes"), help: HelpLanguage.help(.helpRobustnessClasses),
    transform: RobustnessCommand.classes)
  var chosenClasses: [VariantClass]?

  /// Every class unless --classes named some (`RobustnessRun.plan` reads which).
  var classes: [VariantClass] { chosenClasses ?? VariantClass.allCases }

  @Option(
    help: HelpLanguage.help(.helpRobustnessSample),
    transform: ArgumentCheck.count(in: 1...1_000_000))
  var sample: Int?

  @Option(
    help: HelpLanguage.help(.helpRobustnessTemplates),
    completion: .file(extensions: ["yml", "yaml"]))
  var templates: String?

  @Option(help: HelpLanguage.help(.helpRobustnessSeed), transform: RobustnessCommand.seed)
  var seed: UInt64 = 1

  @Option(help: HelpLanguage.help(.helpRobustnessMinConfidence), transform: RobustnessCommand.share)
  var minConfidence: Double?

  @Option(help: HelpLanguage.help(.helpRobustnessThreshold), transform: RobustnessCommand.share)
  var threshold: Double?

  @Option(help: HelpLanguage.help(.helpRobustnessReport), completion: .file())
  var report: String?

  @Option(
    name: .customLong("write-nlu"), help: HelpLanguage.help(.helpRobustnessWriteNLU),
    completion: .file())
  var writeNLU: String?

  @Option(
    name: .customLong("write-transcripts"),
    help: HelpLanguage.help(.helpRobustnessWriteTranscripts), completion: .directory)
  var writeTranscripts: String?

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
        description: HelpLanguage.l10n(.robustnessBadShare))
    }
    return share
  }

  /// A whole number from 0 to 2^64 - 1.
  @Sendable static func seed(_ text: String) throws -> UInt64 {
    guard let seed = UInt64(text.trimmingCharacters(in: .whitespaces)) else {
      throw ArgumentCheck.Problem(
        description: HelpLanguage.l10n(
          .usageWholeNumberRange, ["min": "0", "max": String(UInt64.max)]))
    }
    return seed
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

  /// What a run found: the examples measured and left out, the outcomes, the
  /// fallback threshold the bot told, and why it stopped early, if it did.
  struct Found: Sendable {
    var outcomes: [RobustnessOutcome] = []
    var skipped: [RobustnessSkip] = []
    var threshold: Double?
    var stop: RobustnessStop?
    var planned = 0
    var templates: [TemplateOutcome] = []
  }

  func run() async throws {
    ConsoleOutput.closedStdoutStatus.store(141, ordering: .relaxed)
    let interruption = Interruption()
    let environment = ProcessEnvironment.current()
    let l10n: Localizer
    let ask: RobustnessRun.Ask
    let judgedByAnswer = blackBox || offline
    var examples: [RobustnessExample] = []
    var filled: [CheckListTemplate.Filled] = []
    do throws(SetupFailure) {
      let base = try BaseSetup(
        lang: nil, environment: environment, accessible: accessibility.accessible)
      l10n = Localizer(base.language)
      try checkTogether(l10n)
      examples = try readExamples(l10n)
      filled = try readTemplates(l10n)
      ask = try judgedByAnswer ? answers(base, environment, l10n) : parses(base, environment, l10n)
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
    if let writeTranscripts {
      do { try AtomicFile.checkFolder(writeTranscripts) } catch {
        UserFiles.sayNotSaved(writeTranscripts, error, l10n: l10n)
        throw ExitCode(2)
      }
    }
    // A --lang that leaves nothing to vary is said before anything is asked.
    guard
      !filled.isEmpty
        || !RobustnessRun.plan(
          examples, languages: languages, classes: classes, seed: seed,
          chosen: chosenClasses != nil, byIntent: !judgedByAnswer
        ).isEmpty
    else {
      sayNothingToVary(examples.count, l10n)
      throw ExitCode(2)
    }

    // --sample: that many of the examples to vary, drawn with the seed, in file order.
    if let sample {
      let varied = examples.indices.filter { languages.contains(examples[$0].language) }
      if sample < varied.count {
        var generator = SeededGenerator(seed: seed)
        let drawn = Set(varied.shuffled(using: &generator).prefix(sample))
        examples = examples.indices.filter(drawn.contains).map { examples[$0] }
        ConsoleOutput.write(
          l10n(
            .robustnessSampled,
            ["sample": String(sample), "count": String(varied.count), "seed": String(seed)])
            + "\n", to: STDERR_FILENO)
      }
    }
    let asked = examples
    let sentences = filled
    let work = Task(executorPreference: HTTPExecutor.shared) {
      await measure(asked, templates: sentences, ask: ask, blackBox: judgedByAnswer, l10n: l10n)
    }
    let found = await interruption.value(of: work)
    // Ctrl-C: what was measured is reported and saved, and the status says it was
    // interrupted (130), whatever the asks cut short made of it.
    let interrupted = interruption.happened
    if interrupted {
      ConsoleOutput.write(l10n(.robustnessInterrupted) + "\n", to: STDERR_FILENO)
      guard !found.outcomes.isEmpty else { throw ExitCode(130) }
    } else if let stop = found.stop {
      ConsoleOutput.write(Self.message(for: stop, l10n) + "\n", to: STDERR_FILENO)
      // Refused before a variant was asked: nothing was measured to report.
      guard !found.outcomes.isEmpty else { throw ExitCode(2) }
      ConsoleOutput.write(l10n(.robustnessStoppedBy) + "\n", to: STDERR_FILENO)
    }
    // The bot's fallback threshold: its answer to nonsense, else any nlu_fallback's.
    let confidence =
      minConfidence ?? found.threshold
      ?? found.outcomes.first { $0.understood == RobustnessRun.fallbackIntent }?.confidence
    var result = RobustnessReport(outcomes: found.outcomes, minConfidence: confidence ?? 0.5)
    result.confidenceFromBot = minConfidence == nil && confidence != nil
    result.skipped = found.skipped
    result.blackBox = judgedByAnswer
    result.templates = found.templates
    result.planned = found.planned
    if found.planned == 0, found.templates.isEmpty, found.stop == nil, !interrupted {
      // Every example was left out: why, and no table of nothing.
      ConsoleOutput.write(result.skippedText(l10n))
      ConsoleOutput.write(l10n(.robustnessAllLeftOut) + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }
    ConsoleOutput.write(result.text(l10n))
    ConsoleOutput.write(classNotes(examples, byIntent: !judgedByAnswer, l10n))
    let unsaved = !save(result, l10n)
    if interrupted { throw ExitCode(130) }
    if found.stop != nil || unsaved { throw ExitCode(2) }
    // The templates' sentences pass or fail by the same share as the variants.
    let templatesPassed =
      result.templates.isEmpty
      ? 1
      : Double(result.templates.count - result.templateFailures.count)
        / Double(result.templates.count)
    if let threshold, result.judged.isEmpty || result.kept >= threshold,
      templatesPassed < threshold
    {
      ConsoleOutput.write(
        l10n(
          .robustnessTemplatesBelow,
          [
            "share": l10n.number(templatesPassed * 100, fractionDigits: 1) + "%",
            "threshold": l10n.number(threshold * 100, fractionDigits: 1) + "%",
          ]) + "\n", to: STDERR_FILENO)
      throw ExitCode(1)
    }
    if let threshold, !result.judged.isEmpty, result.kept < threshold {
      // Enough digits that the two never read the same ("58% kept, 58% wanted").
      let digits =
        (0...3).first { digits in
          l10n.number(result.kept * 100, fractionDigits: digits)
            != l10n.number(threshold * 100, fractionDigits: digits)
        } ?? 4
      ConsoleOutput.write(
        l10n(
          .robustnessBelowThreshold,
          [
            "share": l10n.number(result.kept * 100, fractionDigits: digits) + "%",
            "threshold": l10n.number(threshold * 100, fractionDigits: digits) + "%",
          ]) + "\n", to: STDERR_FILENO)
      throw ExitCode(1)
    }
  }

  /// Options that contradict each other are a usage error, never one silently ignored.
  func checkTogether(_ l10n: Localizer) throws(SetupFailure) {
    func conflict(_ first: String, _ second: String, _ why: MessageKey) -> SetupFailure {
      SetupFailure(
        message: l10n(.robustnessConflict, ["first": first, "second": second, "why": l10n(why)]))
    }
    if offline, bot.server != nil { throw conflict("--offline", "--server", .robustnessWhyOffline) }
    if blackBox || offline, minConfidence != nil {
      throw conflict(
        blackBox ? "--black-box" : "--offline", "--min-confidence", .robustnessWhyConfidence)
    }
    if blackBox || offline, templates != nil {
      throw conflict(
        blackBox ? "--black-box" : "--offline", "--templates", .robustnessWhyConfidence)
    }
    if blackBox || offline, nlu.isEmpty, writeNLU != nil {
      throw SetupFailure(message: l10n(.robustnessNoIntents))
    }
    if let report, let writeNLU,
      URL(fileURLWithPath: report).resolvingSymlinksInPath()
        == URL(fileURLWithPath: writeNLU).resolvingSymlinksInPath()
    {
      throw SetupFailure(
        message: l10n(.robustnessSameFile, ["path": TerminalSanitizer.clean(report)]))
    }
  }

  /// The examples of the --nlu files and the transcripts' user turns.
  func readExamples(_ l10n: Localizer) throws(SetupFailure) -> [RobustnessExample] {
    guard !nlu.isEmpty || !transcripts.isEmpty || templates != nil else {
      throw SetupFailure(message: l10n(.robustnessNoExamples))
    }
    var examples: [RobustnessExample] = []
    for path in nlu {
      do {
        examples += try NLUFile.examples(path: path)
      } catch {
        throw SetupFailure(
          message: l10n(
            .robustnessBadNLU,
            [
              "path": TerminalSanitizer.clean(path),
              "detail": TerminalSanitizer.clean(error.message(l10n)),
            ]))
      }
    }
    if !transcripts.isEmpty {
      // Every file is wanted: one that cannot be read is an error, not a smaller run.
      let (loaded, unreadable) = try ReplayCommand.load(transcripts, l10n: l10n)
      guard unreadable.isEmpty else {
        throw SetupFailure(message: unreadable.joined(separator: "\n"))
      }
      examples += RobustnessExample.turns(of: loaded)
    }
    return examples
  }

  /// `--templates`: the filled sentences, read before anything is asked.
  func readTemplates(_ l10n: Localizer) throws(SetupFailure) -> [CheckListTemplate.Filled] {
    guard let templates else { return [] }
    do {
      return try TemplatesFile.filled(path: templates, seed: seed)
    } catch {
      throw SetupFailure(
        message: l10n(
          .robustnessBadTemplates,
          [
            "path": TerminalSanitizer.clean(templates),
            "detail": TerminalSanitizer.clean(error.message(l10n)),
          ]))
    }
  }

  /// Asking `/model/parse` of the bot's HTTP API.
  func parses(
    _ base: BaseSetup, _ environment: [String: String], _ l10n: Localizer
  ) throws(SetupFailure) -> RobustnessRun.Ask {
    let inspector = try Self.inspector(
      server: bot.server, network: network, base, environment, l10n, noBot: .robustnessNoBot)
    return RobustnessRun.asking { await inspector.parse($0) }
  }

  /// The bot's HTTP API at --server (else MIGRANT_CHAT_SERVER, else config.yaml's).
  static func inspector(
    server: String?, network: NetworkOptions, _ base: BaseSetup,
    _ environment: [String: String], _ l10n: Localizer, noBot: MessageKey
  ) throws(SetupFailure) -> RasaInspector {
    guard var url = firstGiven(server, environment["MIGRANT_CHAT_SERVER"], base.config.server)
    else { throw SetupFailure(message: l10n(noBot)) }
    if let assumed = ServerEndpoint.assumingHTTP(url) { url = assumed }
    let endpoint: ServerEndpoint
    do {
      endpoint = try ServerEndpoint(baseURL: url, webhookPath: ServerEndpoint.defaultWebhookPath)
    } catch {
      throw SetupFailure(
        message: l10n(
          .invalidServer, ["url": TerminalSanitizer.clean(ServerEndpoint.redacted(url))]))
    }
    return RasaInspector(
      endpoint: endpoint, timeout: (network.timeout ?? base.config.timeout ?? .standard).seconds,
      credentials: RasaInspector.Credentials(environment: environment), insecure: network.insecure)
  }

  /// Asking the bot in a fresh conversation each time (`--black-box`, `--offline`):
  /// its answer.
  func answers(
    _ base: BaseSetup, _ environment: [String: String], _ l10n: Localizer
  ) throws(SetupFailure) -> RobustnessRun.Ask {
    let (makeTransport, _) = try BotConnection.make(
      offline: offline, bot: bot, network: network, base: base,
      files: DirectoryFiles.open(paths: base.paths), environment: environment, l10n: l10n,
      noBot: .robustnessNoBot)
    return { text, language in
      let transport = makeTransport()
      do throws(ChatError) {
        let reply = try await transport.send(
          ChatRequest(
            sender: "robustness-" + UUID().uuidString, message: text, language: language))
        return .success(.answer(RobustnessAnswer(messages: reply.messages)))
      } catch {
        return .failure(.bot(error))
      }
    }
  }

  /// The fallback threshold (the API's answer to nonsense), the examples' intents
  /// or answers where not given, then every variant.
  func measure(
    _ examples: [RobustnessExample], templates: [CheckListTemplate.Filled],
    ask: @escaping RobustnessRun.Ask, blackBox: Bool, l10n: Localizer
  ) async -> Found {
    var found = Found()
    if !blackBox {
      switch await ask(RobustnessRun.nonsenseProbe, .en) {
      case .success(.insight(let insight)):
        found.threshold = RobustnessRun.fallbackThreshold([insight])
      case .failure(let stop):
        found.stop = stop
        return found
      default: break
      }
    }
    let references = await RobustnessRun.references(
      examples, blackBox: blackBox, jobs: jobs, rate: rate, ask: ask,
      progress: Self.progressLine(l10n, .robustnessAskingOriginals, eta: true))
    found.skipped = references.skipped
    if let stop = references.stop {
      found.stop = stop
      return found
    }
    guard !Task.isCancelled else { return found }
    let plan = RobustnessRun.plan(
      references.examples, languages: languages, classes: classes, seed: seed,
      chosen: chosenClasses != nil, byIntent: !blackBox)
    found.planned = plan.count
    // `--through-client`: each variant read as the chat reads a line before sending it.
    var reading: (@Sendable (String, Language) -> String?)?
    if throughClient, let tables = WordTables.builtIn {
      let reader = TypedLineReader(tables: tables)
      reading = { text, language in
        reader.reading(of: text, language: language, isName: KnownNames.isName)?.text
      }
    }
    let measured = await RobustnessRun.measure(
      plan, jobs: jobs, rate: rate, ask: ask,
      progress: Self.progressLine(l10n, .robustnessProgress, eta: true),
      throughClient: reading)
    found.outcomes = measured.outcomes
    found.stop = measured.stop
    guard !templates.isEmpty, found.stop == nil, !Task.isCancelled else { return found }
    let (replies, stop) = await RobustnessRun.askEach(
      templates.count, jobs: jobs, rate: rate,
      ask: { await ask(templates[$0].text, .en) }, progress: nil)
    found.stop = stop
    found.templates = zip(templates, replies).compactMap { filled, reply in
      guard case .insight(let insight)? = reply else { return nil }
      return TemplateOutcome(filled: filled, insight: insight)
    }
    return found
  }

  /// Writes --report, --write-nlu and --write-transcripts; false when one could not be.
  func save(_ result: RobustnessReport, _ l10n: Localizer) -> Bool {
    var saved = true
    for (path, text) in [(report, result.json.compactText + "\n"), (writeNLU, result.nluYAML)] {
      if let path, !UserFiles.save(text, to: path, l10n: l10n) { saved = false }
    }
    if let writeTranscripts {
      do {
        let count = try RobustnessRecording.write(result, to: writeTranscripts)
        ConsoleOutput.write(
          l10n.plural(
            .robustnessWroteTranscripts, count: count,
            ["path": TerminalSanitizer.clean(writeTranscripts)]) + "\n", to: STDERR_FILENO)
      } catch {
        saved = false
        UserFiles.sayNotSaved(writeTranscripts, error, l10n: l10n)
      }
    }
    return saved
  }

  /// Which classes applied to the examples of each language, and why the others did
  /// not: a class never vanishes from the table without a word.
  func classNotes(_ examples: [RobustnessExample], byIntent: Bool, _ l10n: Localizer) -> String {
    let byLanguage = Dictionary(grouping: examples.filter { languages.contains($0.language) }) {
      $0.language
    }
    guard !byLanguage.isEmpty else { return "" }
    var lines = ["", l10n(.robustnessClassesHeading)]
    for (language, group) in byLanguage.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      let mine = RobustnessRun.classes(for: language, from: classes, chosen: chosenClasses != nil)
      // An example's language is `en` exactly when it has no Cyrillic.
      let cyrillic = language != .en
      let swappable = group.contains {
        !EntitySwap.variants(of: $0, language: language, seed: seed).isEmpty
      }
      let negatable = byIntent && group.contains { Negation.applies(toIntent: $0.intent) }
      var applied: [VariantClass] = []
      var why: [String] = []
      var noCyrillic: [String] = []
      for variantClass in classes {
        switch variantClass {
        case .transliteration where !cyrillic, .ruUkMix where !cyrillic:
          noCyrillic.append(variantClass.rawValue)
        case .keyboardLayout where !mine.contains(.keyboardLayout):
          why.append(l10n(.robustnessWhyLayoutEn))
        case .entitySwap where !swappable: why.append(l10n(.robustnessWhyNoEntities))
        case .negation where !negatable: why.append(l10n(.robustnessWhyNegation))
        default: applied.append(variantClass)
        }
      }
      if !noCyrillic.isEmpty {
        why.insert(
          l10n(.robustnessWhyNoCyrillic, ["classes": noCyrillic.joined(separator: ", ")]), at: 0)
      }
      lines.append(
        "  "
          + l10n(
            .robustnessClassNote,
            [
              "language": language.rawValue,
              "classes": applied.map(\.rawValue).joined(separator: ", ")
                + (why.isEmpty ? "" : " (" + why.joined(separator: "; ") + ")"),
            ]))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  func sayNothingToVary(_ count: Int, _ l10n: Localizer) {
    ConsoleOutput.write(
      l10n(
        .robustnessNothingToVary,
        ["count": String(count), "languages": languages.map(\.rawValue).joined(separator: ",")])
        + "\n", to: STDERR_FILENO)
  }

  /// Why the bot could not be asked, as the inspector and the chat say it.
  static func message(for stop: RobustnessStop, _ l10n: Localizer) -> String {
    let renderer = Renderer(width: 80, color: false, language: l10n.language)
    func clean(_ text: String) -> String { TerminalSanitizer.clean(text, keepNewlines: false) }
    switch stop {
    case .inspector(.notEnabled(let server)):
      return l10n(.robustnessAPINotEnabled, ["server": clean(server)])
    case .inspector(.unauthorized(let server, let status)):
      return l10n(.robustnessAPIUnauthorized, ["server": clean(server), "status": String(status)])
    case .inspector(.unreachable(let server, let why)):
      return l10n(
        .robustnessAPIFailed,
        ["server": clean(server), "detail": clean(DataAPIError.describe(why, l10n))])
    case .inspector(.failed(let server, let detail)):
      return l10n(.robustnessAPIFailed, ["server": clean(server), "detail": clean(detail)])
    case .inspector(let reason): return renderer.message(for: reason)
    case .bot(let error): return TerminalSanitizer.clean(error.message(l10n))
    }
  }

  /// Questions asked so far, on one line of a terminal (`ProgressLine`); with `eta`,
  /// in a pipe too, every 10 seconds, with the time left at the pace so far.
  static func progressLine(
    _ l10n: Localizer, _ key: MessageKey, eta: Bool = false
  ) -> (@Sendable (Int, Int) -> Void)? {
    let clock = ContinuousClock()
    let started = clock.now
    let made = ProgressLine.make(inPipe: eta) { (count: [Int]) in
      let (done, total) = (count[0], count[1])
      guard eta, done > 0, done < total else {
        return l10n(key, ["done": String(done), "total": String(total)])
      }
      let elapsed = clock.now - started
      let seconds =
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      let left = seconds / Double(done) * Double(total - done)
      let shown =
        left < 90
        ? l10n(.unitSeconds, ["value": String(Int(left.rounded()))])
        : l10n(.unitMinutes, ["value": String(Int((left / 60).rounded()))])
      return l10n(
        .robustnessProgressEta, ["done": String(done), "total": String(total), "left": shown])
    }
    guard let line = made else { return nil }
    return { @Sendable done, total in line([done, total]) }
  }
}
