import Foundation
import MigrantChatCore

/// The one loop that reads lines, hands them to the session and prints events.
///
/// On a terminal: a prompt, readline, a waiting notice, Ctrl-C to cancel. In
/// a pipe: each input line echoed as `> line` so stdout reads as a log, and an
/// exit status that says whether every turn got an answer. Each concern is a
/// type of its own: `ConsoleInput` (lines, prompt, completions), `ChatPrinter`
/// (output and news), `ConsoleTurns` (signals, the turn in flight, waiting),
/// `ChatRecorder` (`/save`, `--record`), `OfflineFallbackOffer`, and
/// `ChatBackground` (the directory's sync and the report queue).
public final class ChatConsole: Sendable {
  public enum OutputFormat: Sendable { case text, jsonLines }

  public struct Settings: Sendable {
    public var interactive: Bool
    public var format: OutputFormat
    public var width: Int
    public var color: Bool
    /// The waiting notice on stderr, when stderr is a terminal.
    public var showWaiting: Bool
    /// The server named in the banner on a terminal; nil for the offline assistant.
    public var serverName: String?
    /// On a terminal: the offline assistant to offer when the server cannot be reached.
    public var offlineFallback: (@Sendable () -> any ChatTransport)?
    /// `--record FILE`: the conversation is written there as a transcript after every turn.
    public var recordPath: String?
    /// Whether a data API is configured (what a missing contact's hint says).
    public var hasDataAPI = true
    /// The directory came from a real data API (synced before): with none configured now,
    /// a missing contact's hint does not ask to set one.
    public var directorySynced = false
    /// Where the conversation is kept as it is shown; nil with `--no-history`.
    public var history: ChatHistory?
    /// Shown after the banner: the last conversation's tail (`--resume`, stdout), or
    /// one line naming it ("Last time, …", stderr, on a terminal only).
    public var resumed: String?
    public var lastTime: String?
    /// The remembered `/place`, for the cards' distances.
    public var home: HomePlace?
    /// The accessible mode (`Accessibility`): the renderer's and the waiting line's.
    public var accessible = false
    /// `--bell`: the terminal's bell when an answer that took over 2 s arrives.
    public var bell = false

    public init(
      interactive: Bool, format: OutputFormat, width: Int, color: Bool, showWaiting: Bool,
      serverName: String?, offlineFallback: (@Sendable () -> any ChatTransport)? = nil,
      recordPath: String? = nil
    ) {
      self.recordPath = recordPath
      self.offlineFallback = offlineFallback
      self.interactive = interactive
      self.format = format
      self.width = width
      self.color = color
      self.showWaiting = showWaiting
      self.serverName = serverName
    }
  }

  private let session: ChatSession
  private let settings: Settings
  private let directory: ContactDirectory?
  private let input: ConsoleInput
  private let printer: ChatPrinter
  private let turns: ConsoleTurns
  private let recorder: ChatRecorder
  private let fallback: OfflineFallbackOffer

  public init(
    session: ChatSession, reader: any LineReader, settings: Settings,
    directory: ContactDirectory? = nil, directoryNotices: [DirectoryNotice] = []
  ) {
    self.session = session
    self.settings = settings
    self.directory = directory
    input = ConsoleInput(
      reader: reader, interactive: settings.interactive, color: settings.color)
    printer = ChatPrinter(
      settings: settings, news: directoryNotices.map { .directory(.notice($0)) })
    turns = ConsoleTurns(
      session: session, interactive: settings.interactive, showWaiting: settings.showWaiting,
      accessible: settings.accessible, bell: settings.bell)
    recorder = ChatRecorder(session: session, recordPath: settings.recordPath)
    fallback = OfflineFallbackOffer(settings.interactive ? settings.offlineFallback : nil)
  }

  /// Runs the chat until end of input or `/quit`; returns the exit status.
  /// A termination signal (SIGTERM, SIGHUP; SIGINT in a pipe) ends it with 128 + the
  /// signal's number, after readline has put the terminal back.
  public func run() async -> Int32 {
    turns.watchSignals(reader: input.reader, printer: printer)
    defer { turns.stopWatching() }
    var language = await session.language
    if settings.interactive && settings.format == .text {
      let l10n = Localizer(language)
      printer.writeWrapped(
        settings.serverName.map { l10n(.banner, ["server": $0]) } ?? l10n(.offlineBanner))
    }
    if let resumed = settings.resumed, settings.format == .text { ConsoleOutput.write(resumed) }
    if let lastTime = settings.lastTime, settings.interactive, settings.format == .text {
      printer.writeWrapped(lastTime, to: STDERR_FILENO)
    }
    // One line when tasks are overdue or due within a week; none otherwise.
    printer.remind(await session.dueSoon(), language: language)
    let background = ChatBackground.start(
      directory: directory, session: session, printer: printer)
    var events = await turns.run { await self.session.start() }
    await keep(line: nil, events: events, language: language)
    language = await after(events, language: language)
    // What the bot read the start as, once the greeting is on the screen: for a person
    // at the terminal only. A pipe's lines are already waiting, and one more request
    // to the tracker would hold every scripted chat back (#50); `explore` and the
    // inspector say it there.
    if settings.interactive {
      let startCheck = await session.startCheck()
      if !startCheck.isEmpty { language = printer.show(startCheck, language: language) }
    }

    loop: while SignalHub.shared.terminationSignal == nil {
      let line = await input.read(prompt: input.prompt(language))
      if SignalHub.shared.terminationSignal != nil { break loop }
      switch line {
      case .endOfInput:
        // Readline has ended the prompt's line itself (Ctrl-D); the terminal's own line
        // has not: the shell's prompt would follow ours on one line.
        if plainTerminal { ConsoleOutput.write("\n") }
        break loop
      case .interrupted(let wasEmpty):
        // The terminal echoed `^C` where the cursor was: what follows is a line of its own.
        if plainTerminal { ConsoleOutput.write("\n") }
        // A report waiting for its text or guide is cancelled first; then how to quit.
        let cancelled = await session.cancelPending()
        if !cancelled.isEmpty {
          language = printer.show(cancelled, language: language)
        } else if wasEmpty {
          language = printer.show([.notice(.howToQuit)], language: language)
        }
        continue
      case .line(let text):
        if !settings.interactive && !text.trimmingWhitespace().isEmpty {
          printer.echo(text, language: language)
        }
        // The line is kept before it is sent: a `kill -9` while the bot is slow loses
        // nothing that is on the screen. A line started with a space is kept out, and
        // so is its answer.
        let kept = !text.hasPrefix(" ") && UserInput(line: text, choices: []) != .command(.quit)
        if kept {
          // What will be sent for it, when the line is read first (#48): kept with it.
          let sent = await session.readingToSend(text)?.text
          await keep(line: text, events: [], language: language, sent: sent)
        }
        events = await turns.run(asksServer: !UserInput.isLocalCommand(text)) {
          await self.session.handle(text)
        }
        if plainTerminal && events.contains(.failure(.cancelled)) { ConsoleOutput.write("\n") }
        if kept { await keep(line: nil, events: events, language: language) }
        language = await after(events, language: language)
        if events.contains(.quit) { break loop }
      }
    }

    if let signal = SignalHub.shared.terminationSignal {
      // The sync is cancelled (never half-applied); the terminal is as readline left it.
      background?.cancel()
      await background?.value
      SignalHub.shared.restoreTerminal()
      return 128 + signal
    }
    // In a pipe the sync is awaited, so its news is not lost and the next run finds a fresh
    // cache; on a terminal the user has left, so it is cancelled (a sync is never half-applied).
    if settings.interactive { background?.cancel() }
    await background?.value
    language = printer.show([], language: language)
    // What a failed write held back for "the next line", which will not come: one last
    // try, since the process ends next (not after a signal, which must not wait for the
    // file's lock).
    if let warning = settings.history?.flush(language: language) {
      ConsoleOutput.write(warning + "\n", to: STDERR_FILENO)
    }
    return await exitStatus(language: language)
  }

  /// Input on the terminal's own line (the accessible mode, `TERM=dumb`), not readline's:
  /// nothing ends the line after the terminal's echo of `^C` or Ctrl-D but the program.
  private var plainTerminal: Bool { settings.interactive && !input.reader.completes }

  /// The line and what it brought, kept in the history before they are shown; a
  /// history that cannot be written is said once.
  private func keep(
    line: String?, events: [ChatEvent], language: Language, sent: String? = nil
  ) async {
    guard let history = settings.history else { return }
    // `/new`: the line that asked for it ends this conversation; the rest begins the next.
    if let started = events.firstIndex(of: .notice(.newConversation)) {
      let before = Array(events[..<started])
      if let warning = history.record(line: line, events: before, language: language) {
        ConsoleOutput.write(warning + "\n", to: STDERR_FILENO)
      }
      history.startOver(sender: await session.senderID)
      if let warning = history.record(
        line: nil, events: Array(events[started...]), language: language)
      {
        ConsoleOutput.write(warning + "\n", to: STDERR_FILENO)
      }
      return
    }
    if let warning = history.record(line: line, events: events, language: language, sent: sent) {
      ConsoleOutput.write(warning + "\n", to: STDERR_FILENO)
    }
  }

  /// After a turn's events: shown, saved (`/save`, `--record`), the offline assistant
  /// offered when the server could not be reached, the completions brought up to date.
  private func after(_ events: [ChatEvent], language: Language) async -> Language {
    var language = printer.show(events, language: language, offering: fallback.isPending)
    for case .saveTranscript(let path) in events {
      language = printer.show([await recorder.save(to: path)], language: language)
    }
    for case .labelConversation(let label) in events {
      let l10n = Localizer(language)
      guard let history = settings.history else {
        printer.writeWrapped(l10n(.historyOff))
        continue
      }
      // `/label` says it; `/label off` takes it off; `/label TEXT` sets it.
      if let label, let warning = history.setLabel(label == "off" ? nil : label, language: language)
      {
        ConsoleOutput.write(warning + "\n", to: STDERR_FILENO)
      }
      let now = history.label.map { TerminalSanitizer.clean($0, keepNewlines: false) }
      printer.writeWrapped(
        now.map { l10n(label == nil ? .historyLabelCurrent : .historyLabelled, ["label": $0]) }
          ?? l10n(.historyLabelNone))
    }
    for case .showHistory(let number) in events {
      let l10n = Localizer(language)
      let json = settings.format == .jsonLines
      ConsoleOutput.write(
        settings.history?.show(
          number, l10n: l10n, width: printer.currentWidth, color: settings.color, json: json,
          accessible: settings.accessible)
          ?? (json
            ? JSONValue.object(["type": .string("history"), "off": .bool(true)]).compactText
            : l10n(.historyOff)) + "\n")
    }
    if let failure = await recorder.record() {
      language = printer.show([failure], language: language)
    }
    language = await fallback.offer(
      after: events, language: language, session: session, input: input, printer: printer,
      turns: turns)
    await input.updateCompletions(session: session, directory: directory)
    return language
  }

  /// On a terminal 0; in a pipe 1 when a turn got no answer, a line could not be
  /// used or a transcript could not be written, each counted on stderr.
  private func exitStatus(language: Language) async -> Int32 {
    guard !settings.interactive else { return 0 }
    let failed = await session.failedTurns
    let unusable = await session.unusableLines
    if settings.format == .text {
      let l10n = Localizer(language)
      var summary = ""
      if failed > 0 { summary += l10n.plural(.turnsFailed, count: failed) + "\n" }
      if unusable > 0 { summary += l10n.plural(.linesUnusable, count: unusable) + "\n" }
      ConsoleOutput.write(summary, to: STDERR_FILENO)
    }
    return failed + unusable + recorder.failureCount > 0 ? 1 : 0
  }
}
