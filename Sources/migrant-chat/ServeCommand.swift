import ArgumentParser
import Foundation
import MigrantChatCore
import MigrantChatIO

struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: HelpLanguage.l10n(.helpServeAbstract),
    discussion: HelpLanguage.l10n(.helpServeDiscussion)
  )

  @Option(name: .customLong("host"), help: HelpLanguage.help(.helpHost))
  var hostOption: String?

  /// The default is said in the translated help text; given to ArgumentParser it would
  /// be said twice, once in English.
  var host: String { hostOption ?? "127.0.0.1" }

  @Option(help: HelpLanguage.help(.helpPort), transform: ArgumentCheck.count(in: 0...65535))
  var port = 5005

  @Option(help: HelpLanguage.help(.helpMaxBody), transform: ArgumentCheck.count(in: 1...(1 << 30)))
  var maxBodyBytes = 64 * 1024

  @Option(
    help: HelpLanguage.help(.helpMaxConversations),
    transform: ArgumentCheck.count(in: 1...10_000_000))
  var maxConversations = OfflineAssistant.defaultMaxConversations

  @Flag(help: HelpLanguage.help(.helpServeSample)) var sample = false

  @OptionGroup var language: LanguageOption

  func run() async throws {
    let environment = ProcessEnvironment.current()
    let server: AssistantHTTPServer
    let l10n: Localizer
    do {
      let base = try BaseSetup(lang: language.lang, environment: environment)
      l10n = Localizer(base.language)
      let files = DirectoryFiles.open(paths: base.paths)
      for notice in files.notices {
        ConsoleOutput.write(notice.message(l10n) + "\n", to: STDERR_FILENO)
      }
      // `--sample`: the bundled sample whatever the cache holds, so the bundled
      // transcripts pass after any sync. Kept in memory: the cache is not touched.
      var tree = files.guidanceTree()
      var contacts: any ContactStore = files.store
      var guidance: (any GuidanceStore)? = files.guidance
      if sample {
        let store: SQLiteContactStore
        do { store = try DirectoryFiles.sampleStore() } catch {
          throw SetupFailure(message: l10n(.serveFailed, ["detail": error.detail]))
        }
        tree = SampleGuidance.tree()
        contacts = store
        guidance = store
      }
      let service = AssistantService(
        tree: tree, contacts: contacts, guidanceStore: guidance,
        reports: ReceivedReportStore(path: base.paths.stateDirectory + "/reports.sqlite"),
        version: MigrantChatVersion.current, stemmer: SnowballStemmer.shared,
        maxConversations: maxConversations)
      do {
        server = try AssistantHTTPServer(
          service: service, host: host, port: UInt16(port), maxBodyBytes: maxBodyBytes,
          // Connections past what the file limit leaves room for get a 503, so `accept`
          // never runs out of descriptors.
          maxConnections: min(10_000, OpenFileLimit.connections(within: OpenFileLimit.raise())))
      } catch {
        throw SetupFailure(message: l10n(.invalidHost, ["value": TerminalSanitizer.clean(host)]))
      }
    } catch let failure as SetupFailure {
      ConsoleOutput.write(failure.message + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }

    // SIGINT and SIGTERM (and SIGHUP) stop the server; anything else that ends it is a failure.
    SignalHub.shared.handle([SIGINT, SIGTERM, SIGHUP])
    SignalHub.shared.onTerminate { Task { await server.stop() } }
    let serving = Task { try await server.run() }
    // Listening, or `run()` failed to bind (the port is taken): whichever comes first. Not a
    // task group: it would wait for its other child, `run()`, which lasts until the stop.
    let started = await ServeOutcome.firstOf(
      { try await server.waitUntilListening() },
      {
        try await serving.value
        throw CancellationError()
      })
    if case .failure(let error) = started {
      serving.cancel()
      let place = ["host": TerminalSanitizer.clean(host), "port": String(port)]
      let message =
        switch AssistantHTTPServer.ListenFailure(error) {
        case .portInUse: l10n(.portInUse, place)
        case .permissionDenied: l10n(.portNotPermitted, place)
        case .other(let detail):
          l10n(.cannotListen, place.merging(["detail": TerminalSanitizer.clean(detail)]) { $1 })
        }
      ConsoleOutput.write(message + "\n", to: STDERR_FILENO)
      throw ExitCode(1)
    }
    let bound = await server.port ?? port
    let shown = host.contains(":") ? "[\(host)]" : host
    ConsoleOutput.write(
      l10n(.serving, ["url": "http://\(shown):\(bound)"]) + "\n", to: STDERR_FILENO)
    let ended = await ServeOutcome.of(serving) { SignalHub.shared.terminationSignal != nil }
    switch ended {
    case .stopped:
      ConsoleOutput.write(l10n(.serveStopped) + "\n", to: STDERR_FILENO)
    case .failed(let detail):
      let message =
        detail.map { l10n(.serveFailed, ["detail": TerminalSanitizer.clean($0)]) }
        ?? l10n(.serveEndedUnexpectedly)
      ConsoleOutput.write(message + "\n", to: STDERR_FILENO)
      throw ExitCode(1)
    }
  }
}
