import Foundation
import MigrantChatCore
import MigrantChatIO

/// Everything `chat` needs, resolved from flags, environment, config and state.
struct ChatSetup {
  /// Nil: the offline assistant (no server configured, or `--offline`).
  let endpoint: ServerEndpoint?
  let language: Language
  let timeout: Double
  let color: Bool
  /// The accessible mode and escape sequences (`Accessibility`), `--bell`.
  let accessible: Bool
  let escapesAllowed: Bool
  let bell: Bool
  /// Lines typed for the bot are read before they are sent (#48): not with
  /// `--no-rewrite` or `rewrite: false`.
  let rewrite: Bool
  let options: ChatArguments
  let environment: [String: String]
  let paths: AppPaths
  let store: FileSessionStore
  let directory: DirectorySetup
  let channel: BotChannel
  let channelSetup: ChannelSetup
  /// `history: {keep_days: N}` in config.yaml.
  let keepDays: Int?

  init(options: ChatArguments, environment: [String: String]) throws(SetupFailure) {
    self.options = options
    self.environment = environment
    let base = try BaseSetup(
      lang: options.lang, environment: environment, accessible: options.accessible)
    paths = base.paths
    language = base.language
    let config = base.config
    keepDays = config.historyKeepDays
    let state = base.state
    let l10n = Localizer(language)

    accessible = base.accessible
    escapesAllowed = base.escapesAllowed
    bell = options.bell || config.bell == true
    rewrite = !options.noRewrite && config.rewrite != false
    // Not one escape under TERM=dumb or in the accessible mode, `--color always` or not.
    color =
      escapesAllowed
      && options.color.enabled(
        isTerminal: TerminalInfo.isTerminal(STDOUT_FILENO), environment: environment)
    timeout = (options.timeout ?? config.timeout ?? .standard).seconds

    var server = firstGiven(options.server, environment["MIGRANT_CHAT_SERVER"], config.server)
    if let typed = server, let assumed = ServerEndpoint.assumingHTTP(typed) {
      ConsoleOutput.write(
        l10n(
          .assumingHTTP,
          [
            "value": TerminalSanitizer.clean(ServerEndpoint.redacted(typed)),
            "url": ServerEndpoint.redacted(assumed),
          ]) + "\n",
        to: STDERR_FILENO)
      server = assumed
    }
    channelSetup = try ChannelSetup(
      options.channel, environment: environment, config: config, l10n: l10n)
    channel = try channelSetup.single(l10n)
    if let server, !options.offline {
      let path =
        firstGiven(
          options.webhookPath, environment["MIGRANT_CHAT_WEBHOOK_PATH"], config.webhookPath)
        ?? ServerEndpoint.defaultWebhookPath
      do {
        endpoint = try ServerEndpoint(baseURL: server, webhookPath: path)
        // libcurl and its 30 libraries load while the stores open, not after them.
        LibcurlPreload.start()
      } catch {
        throw SetupFailure(
          message: l10n(
            .invalidServer, ["url": TerminalSanitizer.clean(ServerEndpoint.redacted(server))]))
      }
    } else {
      endpoint = nil
    }
    // The offline assistant keeps its own conversation id, like a server of its own.
    store = state.scoped(to: endpoint?.baseURL ?? Self.offlineKey)
    // The background sync at start gives up sooner than `contacts sync`: it must not hold a pipe.
    directory = try DirectorySetup(
      flag: options.dataAPI, environment: environment, config: config, paths: paths,
      timeout: timeout, insecure: options.insecure, policy: RetryPolicy(attempts: 2),
      l10n: l10n)
  }

  /// The history the chat keeps its conversation in, pruned to `history: keep_days`;
  /// nil (said once) when it cannot be opened: the chat goes on without it.
  func openHistory(l10n: Localizer) -> HistoryStore? {
    do {
      try FileManager.default.createDirectory(
        atPath: paths.stateDirectory, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
      let (store, setAside) = try HistoryStore.openSettingAside(path: paths.conversationsFile)
      if let setAside {
        ConsoleOutput.write(
          l10n(.historySetAside, ["aside": TerminalSanitizer.clean(setAside)]) + "\n",
          to: STDERR_FILENO)
      }
      if let days = keepDays {
        HistoryStore.deleteDamagedCopies(
          beside: paths.conversationsFile, before: Date().addingTimeInterval(-Double(days) * 86_400)
        )
        // What was typed in the conversations pruned leaves the input history too.
        let typed =
          (try? store.typedLines(before: Date().addingTimeInterval(-Double(days) * 86_400))) ?? []
        if (try? store.prune(keepDays: days)) ?? 0 > 0 {
          let kept = (try? store.typedLines()) ?? []
          HistoryCommand.Forget.forgetTyped(
            typed.subtracting(kept), all: false, path: paths.historyFile, l10n: l10n)
        }
      }
      return store
    } catch {
      ConsoleOutput.write(
        l10n(.historyNotSaved, ["detail": TerminalSanitizer.clean(Self.detail(error))]) + "\n",
        to: STDERR_FILENO)
      return nil
    }
  }

  /// What went wrong, as SQLite or the file system says it (not a Swift enum's dump).
  static func detail(_ error: any Error) -> String {
    (error as? DirectoryError)?.detail ?? "\(error)"
  }

  /// How much of the last conversation `--resume` shows: its last lines and answers.
  static let resumedEntries = 12

  /// The key the offline assistant's conversation id is remembered under.
  static let offlineKey = "offline"

  func makeConsole() async -> ChatConsole {
    let l10n = Localizer(language)
    if options.insecure {
      ConsoleOutput.write(l10n(.insecureWarning) + "\n", to: STDERR_FILENO)
    }
    // The history, and the conversation before this one with the same server: opened
    // before the transport, whose engine waits for libcurl to finish loading on the
    // preload's thread, so the two overlap (#50).
    var history: HistoryStore?
    var last: HistoryConversation?
    if !options.noHistory {
      history = openHistory(l10n: l10n)
      // The last conversation is for `--resume` and, at a terminal, the "Last time, …"
      // line; a chat in a pipe shows neither, and the query cost 0.36 million
      // instructions before its first answer (#50).
      if options.resume || TerminalInfo.isTerminal(STDIN_FILENO) {
        last = try? history?.conversations(limit: 1, server: .some(endpoint?.baseURL)).first
      }
    }
    let transport: any ChatTransport
    var fallback: (@Sendable () -> any ChatTransport)?
    if let endpoint {
      transport = channelSetup.transport(
        channel, endpoint: endpoint,
        options: HTTPOptions(timeout: timeout, insecure: options.insecure),
        token: environment["MIGRANT_CHAT_TOKEN"])
      if options.offlineFallback == .auto {
        let directory = self.directory
        fallback = {
          OfflineTransport(
            assistant: OfflineAssistant(
              tree: directory.guidanceTree(), stemmer: SnowballStemmer.shared))
        }
      }
    } else {
      let assistant = OfflineAssistant(
        tree: directory.guidanceTree(), stemmer: SnowballStemmer.shared)
      transport = OfflineTransport(assistant: assistant)
      let directory = self.directory
      directory.directory.setAfterSync { await assistant.update(directory.guidanceTree()) }
    }

    // Resumed only with the last conversation's own sender (not with --sender).
    let resuming = options.resume && options.sender == nil && last != nil
    var sessionStore: any SessionStore = store
    let senderID: String
    if resuming, let last {
      senderID = last.sender  // --resume: the same conversation, with the same bot
    } else if let given = options.sender, !given.isEmpty {
      senderID = given
      sessionStore = TransientSessionStore()  // --sender is for this run only
    } else if let remembered = store.senderID {
      senderID = remembered
    } else {
      senderID = SenderID.random()
      do { try store.rememberSender(senderID) } catch {
        ConsoleOutput.write(l10n(.saveFailed, ["detail": "\(error)"]) + "\n", to: STDERR_FILENO)
      }
    }
    var tools = directory.chatTools()
    tools.inspectFromStart = options.inspect
    tools.inspector =
      endpoint.map {
        RasaInspector(
          endpoint: $0, timeout: timeout,
          credentials: RasaInspector.Credentials(environment: environment),
          insecure: options.insecure)
      } ?? OfflineInspector()
    let session = ChatSession(
      transport: transport, store: sessionStore, language: language, senderID: senderID,
      // Resumed, the bot is where it was: no start message to begin it again.
      startMessage: resuming ? "" : options.startMessage,
      directory: directory.directory,
      tools: tools, home: store.place)
    if rewrite, let tables = WordTables.builtIn {
      await session.readTypedLines(with: TypedLineReader(tables: tables))
    }

    let interactive = TerminalInfo.isTerminal(STDIN_FILENO)
    // Readline redraws the line it edits (and turns on bracketed paste), which a screen
    // reader reads again: without escapes, the terminal's own line editing, a prompt.
    let reader: any LineReader
    if interactive && escapesAllowed {
      reader = ReadlineLineReader(historyPath: options.noHistory ? nil : paths.historyFile)
    } else {
      reader = StdinLineReader(prompts: interactive)
    }
    var settings = ChatConsole.Settings(
      interactive: interactive, format: options.json ? .jsonLines : .text,
      width: TerminalInfo.width(environment: environment), color: color,
      showWaiting: interactive && TerminalInfo.isTerminal(STDERR_FILENO),
      serverName: endpoint?.baseURL, offlineFallback: fallback, recordPath: options.record)
    settings.hasDataAPI = directory.dataAPI != nil
    settings.accessible = accessible
    settings.bell = bell
    settings.home = store.place
    if let history {
      let kept = ChatHistory(
        store: history, server: endpoint?.baseURL, sender: senderID,
        continuing: resuming ? last?.id : nil, label: resuming ? last?.label : nil)
      if let label = options.label, let warning = kept.setLabel(label, language: language) {
        ConsoleOutput.write(warning + "\n", to: STDERR_FILENO)
      }
      settings.history = kept
    }
    if let last, let history {
      let width = TerminalInfo.width(environment: environment)
      if resuming {
        // Far enough back to find the bot's last answer behind the client's own commands.
        let entries = HistoryExport.resumed(
          (try? history.entries(of: last.id, tail: 200)) ?? [], count: Self.resumedEntries)
        if let offered = entries.last(where: { !$0.messages.isEmpty }) {
          await session.resume(choices: offered.messages.flatMap(\.choices))
        }
        settings.resumed =
          HistoryExport.text(
            last, entries: entries, l10n: l10n, width: width, color: color,
            accessible: accessible)
          + l10n(.historyResumed) + "\n"
      } else {
        var topic = last.shownTopic
        if topic.count > 50 { topic = topic.prefix(49) + "…" }
        settings.lastTime = l10n(
          .historyLastTime,
          [
            "time": HistoryExport.time(last.updatedAt),
            "topic": TerminalSanitizer.clean(topic, keepNewlines: false),
            "number": String(last.id),
          ])
      }
    } else if options.resume {
      ConsoleOutput.write(l10n(.historyNothingToResume) + "\n", to: STDERR_FILENO)
    }
    if let source = directory.files.contactsSource ?? (try? directory.files.store.status().source) {
      settings.directorySynced = !source.isSample
    }
    return ChatConsole(
      session: session, reader: reader, settings: settings, directory: directory.directory,
      directoryNotices: directory.notices)
  }
}
