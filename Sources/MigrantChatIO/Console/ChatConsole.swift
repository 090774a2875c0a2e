import Dispatch
import Foundation
import MigrantChatCore
import Synchronization

/// The one loop that reads lines, hands them to the session and prints events.
///
/// On a terminal: a prompt, readline, a waiting notice, Ctrl-C to cancel. In
/// a pipe: each input line echoed as `> line` so stdout reads as a log, and an
/// exit status that says whether every turn got an answer.
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
  private let reader: any LineReader
  private let settings: Settings
  private let inputQueue = DispatchQueue(label: "migrant-chat.input")
  private let directory: ContactDirectory?
  /// Directory news (start-up notices, the background sync's failure), shown
  /// with the next output rather than over the line being typed.
  private let pending: Mutex<[ChatEvent]>
  /// Transcripts that could not be written (`/save`, `--record`): they fail the run.
  private let saveFailures = Mutex(SaveFailures())

  private struct SaveFailures {
    var count = 0
    var lastRecordError: String?
  }

  public init(
    session: ChatSession, reader: any LineReader, settings: Settings,
    directory: ContactDirectory? = nil, directoryNotices: [DirectoryNotice] = []
  ) {
    self.session = session
    self.reader = reader
    self.settings = settings
    self.directory = directory
    self.pending = Mutex(directoryNotices.map { .directory(.notice($0)) })
    self.width = Mutex(settings.width)
  }

  /// Columns to wrap at: the setting at start, the terminal's own after a resize.
  private let width: Mutex<Int>
  /// The turn in flight, for a termination signal to cancel.
  private let activeTurn = Mutex<Task<[ChatEvent], Never>?>(nil)

  private var currentWidth: Int { width.withLock { $0 } }

  /// Ctrl-C, termination and resizing go through the one `SignalHub`. In a pipe, Ctrl-C
  /// ends the program like SIGTERM (nothing to cancel or clear); on a terminal it is set
  /// per moment (`read`, `cancellable`).
  private func watchSignals() {
    let hub = SignalHub.shared
    hub.handle([SIGINT, SIGTERM, SIGHUP] + (settings.interactive ? [SIGWINCH] : []))
    let reader = self.reader
    // Weak: the hub is global, and a console kept alive would keep the directory's
    // database open, so its write-ahead log would never be checkpointed at exit.
    hub.onTerminate { [weak self] in
      reader.interrupt()
      self?.activeTurn.withLock { $0?.cancel() }
    }
    guard settings.interactive else { return }
    hub.onResize { [weak self] in
      // The terminal's real size: a resize makes a fixed COLUMNS from the start stale.
      let columns = TerminalInfo.width(environment: [:])
      self?.width.withLock { $0 = columns }
      reader.terminalResized()
    }
  }

  /// Runs the chat until end of input or `/quit`; returns the exit status.
  /// A termination signal (SIGTERM, SIGHUP; SIGINT in a pipe) ends it with 128 + the
  /// signal's number, after readline has put the terminal back.
  public func run() async -> Int32 {
    watchSignals()
    defer {
      SignalHub.shared.onTerminate(nil)
      SignalHub.shared.onResize(nil)
      SignalHub.shared.onInterrupt(nil)
    }
    var language = await session.language
    if settings.interactive && settings.format == .text {
      let l10n = Localizer(language)
      let banner =
        settings.serverName.map { l10n(.banner, ["server": $0]) } ?? l10n(.offlineBanner)
      writeWrapped(banner)
    }
    // One line when tasks are overdue or due within a week; none otherwise. A reminder,
    // not the conversation: always text on stderr, never in `--json` or a pipe's stdout.
    let reminder = Renderer(
      width: currentWidth, color: settings.color && settings.format == .text, language: language)
    for event in await session.dueSoon() {
      ConsoleOutput.write(reminder.render(event).stderr, to: STDERR_FILENO)
    }
    let backgroundSync = startBackgroundSync()
    var events = await cancellable { await self.session.start() }
    var fallback = settings.interactive ? settings.offlineFallback : nil
    language = show(events, language: language, offering: fallback != nil)
    await record(language: language)
    language = await offerOffline(after: events, fallback: &fallback, language: language)
    await updateCompletions()

    loop: while SignalHub.shared.terminationSignal == nil {
      let line = await read(prompt: prompt(language))
      if SignalHub.shared.terminationSignal != nil { break loop }
      switch line {
      case .endOfInput:
        // Readline has ended the prompt's line itself (Ctrl-D): nothing to add.
        break loop
      case .interrupted(let wasEmpty):
        // A report waiting for its text or guide is cancelled first; then how to quit.
        let cancelled = await session.cancelPending()
        if !cancelled.isEmpty {
          language = show(cancelled, language: language)
        } else if wasEmpty {
          language = show([.notice(.howToQuit)], language: language)
        }
        continue
      case .line(let text):
        if !settings.interactive && !text.trimmingWhitespace().isEmpty {
          echo(text, language: language)
        }
        events = await cancellable { await self.session.handle(text) }
        language = show(events, language: language, offering: fallback != nil)
        for case .saveTranscript(let path) in events {
          language = show([await save(to: path)], language: language)
        }
        await record(language: language)
        language = await offerOffline(after: events, fallback: &fallback, language: language)
        if events.contains(.quit) { break loop }
        await updateCompletions()
      }
    }

    if let signal = SignalHub.shared.terminationSignal {
      // The sync is cancelled (never half-applied); the terminal is as readline left it.
      backgroundSync?.cancel()
      await backgroundSync?.value
      SignalHub.shared.restoreTerminal()
      return 128 + signal
    }
    // In a pipe the sync is awaited, so its news is not lost and the next run finds a fresh
    // cache; on a terminal the user has left, so it is cancelled (a sync is never half-applied).
    if settings.interactive { backgroundSync?.cancel() }
    await backgroundSync?.value
    language = show([], language: language)

    let failed = await session.failedTurns
    let unusable = await session.unusableLines
    let unsaved = saveFailures.withLock { $0.count }
    guard !settings.interactive else { return 0 }
    if settings.format == .text {
      // Each counted as what it is: no answer, or a line that could not be used.
      let l10n = Localizer(language)
      var summary = ""
      if failed > 0 { summary += l10n.plural(.turnsFailed, count: failed) + "\n" }
      if unusable > 0 { summary += l10n.plural(.linesUnusable, count: unusable) + "\n" }
      ConsoleOutput.write(summary, to: STDERR_FILENO)
    }
    return failed + unusable + unsaved > 0 ? 1 : 0
  }

  // MARK: - Directory

  /// Syncs the directory in the background when it is due, then sends the reports that
  /// wait in the queue; a failure, or reports sent, are shown later, once.
  private func startBackgroundSync() -> Task<Void, Never>? {
    let session = self.session
    return Task { [self] in
      if let directory {
        let outcome = await directory.syncIfDue()
        if outcome.isFailure, outcome != .failed(.cancelled) {
          self.pending.withLock { $0.append(.directory(.synced(outcome))) }
        }
        // After a failed sync the reports would fail the same way.
        if outcome.isFailure { return }
      }
      guard !Task.isCancelled else { return }
      let sent = await session.sendQueuedReports()
      self.pending.withLock { $0.append(contentsOf: sent) }
    }
  }

  // MARK: - Transcripts

  /// The conversation so far as `--record` and `/save` write it: the start message and
  /// its answer, then every recorded turn.
  private func recording() async -> (start: RecordedTurn?, turns: [RecordedTurn]) {
    let turns = await session.log
    guard let opening = await session.startReply else { return (nil, turns) }
    return (RecordedTurn(line: await session.opening, messages: opening), turns)
  }

  private func writeRecording(to path: String) async throws(TranscriptWriter.Failure) -> Int {
    let (start, turns) = await recording()
    try TranscriptWriter.write(
      name: Self.transcriptName(), language: session.openingLanguage, start: start, turns: turns,
      to: path)
    return turns.count + (start == nil ? 0 : 1)
  }

  private func save(to path: String) async -> ChatEvent {
    do {
      let count = try await writeRecording(to: path)
      return .notice(.transcriptSaved(path: path, turns: count))
    } catch {
      saveFailures.withLock { $0.count += 1 }
      return .transcriptNotSaved(path: path, detail: error.description)
    }
  }

  /// `--record`: the whole conversation after every turn. A failure counts against the
  /// exit status and is shown when it first happens or changes, not after every turn.
  private func record(language: Language) async {
    guard let path = settings.recordPath else { return }
    do {
      _ = try await writeRecording(to: path)
      saveFailures.withLock { $0.lastRecordError = nil }
    } catch {
      let detail = error.description
      let isNew = saveFailures.withLock { failures in
        failures.count += 1
        defer { failures.lastRecordError = detail }
        return failures.lastRecordError != detail
      }
      if isNew { _ = show([.transcriptNotSaved(path: path, detail: detail)], language: language) }
    }
  }

  private static func transcriptName() -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return "Recorded " + formatter.string(from: Date())
  }

  // MARK: - Offline fallback

  /// When the server cannot be reached, asks once whether to go on with the offline
  /// assistant. Only on a terminal: a pipe never switches bots behind the user's back.
  private func offerOffline(
    after events: [ChatEvent], fallback: inout (@Sendable () -> any ChatTransport)?,
    language: Language
  ) async -> Language {
    guard let makeTransport = fallback, events.contains(where: \.isUnreachable) else {
      return language
    }
    fallback = nil  // asked once; a "no" is not asked again
    let l10n = Localizer(language)
    // One message: why the server cannot be reached, and the offer (`show` left the
    // failure out so it is not said twice).
    var failure: ChatError?
    for case .failure(let error) in events { failure = error }
    let question = l10n(.fallbackQuestion, ["reason": failure?.reasonBeforeOffer(l10n) ?? ""])
    // The question is printed wrapped; readline gets only a short prompt, which it can redraw.
    writeWrapped(question)
    guard case .line(let answer) = await read(prompt: l10n(.fallbackPrompt)), Self.isYes(answer)
    else {
      // Typing again will not help while libcurl cannot be loaded.
      let libcurlMissing = if case .libcurlMissing = failure { true } else { false }
      writeWrapped(l10n(libcurlMissing ? .fallbackDeclinedLibcurl : .fallbackDeclined))
      return language
    }
    await session.switchTransport(to: makeTransport())
    writeWrapped(l10n(.fallbackSwitched))
    let events = await cancellable { await self.session.start() }
    let current = show(events, language: language)
    await updateCompletions()
    return current
  }

  /// A line of the console's own, wrapped at the current width (words whole).
  private func writeWrapped(_ text: String) {
    ConsoleOutput.write(
      TextWrapper(width: currentWidth).wrap(StyledText(text)).map { $0.plainText + "\n" }.joined())
  }

  /// "y", "yes", "д", "да", "т", "так", in any case.
  static func isYes(_ answer: String) -> Bool {
    ["y", "yes", "д", "да", "т", "так"].contains(
      answer.trimmingWhitespace().lowercased())
  }

  // MARK: - Input

  private func read(prompt: String) async -> LineInput {
    let reader = self.reader
    if let line = reader.bufferedLine() { return line }
    if settings.interactive {
      SignalHub.shared.onInterrupt { reader.interrupt() }
    } else {
      SignalHub.shared.onInterrupt(nil)  // Ctrl-C in a pipe terminates
    }
    return await withCheckedContinuation { continuation in
      inputQueue.async { continuation.resume(returning: reader.readLine(prompt: prompt)) }
    }
  }

  private func prompt(_ language: Language) -> String {
    guard settings.interactive else { return "" }
    let text = Localizer(language)(.prompt)
    // \u{1} and \u{2} tell readline the escape codes take no columns.
    return settings.color ? "\u{1}\u{1B}[1m\u{2}\(text)\u{1}\u{1B}[0m\u{2}" : text
  }

  /// Tab completes commands, button titles, `/lang` codes, and `/contact`, `/fav`,
  /// `/unfav` with the ids of the offices shown last and of the favourites.
  /// Nothing is asked of the session or the directory when the reader does not
  /// complete (input from a pipe): that was a read of the favourites every turn.
  private func updateCompletions() async {
    guard reader.completes else { return }
    let titles = await session.choices.map {
      TerminalSanitizer.clean($0.title, keepNewlines: false)
    }
    var ids = await session.shownContactIDs
    if let favourites = try? await directory?.favourites() {
      ids += favourites.sorted().map(String.init)
    }
    var seen = Set<String>()
    let unique = ids.filter { seen.insert($0).inserted }
    let withIDs = ["/contact", "/fav", "/unfav"].flatMap { command in
      unique.map { "\(command) \($0)" }
    }
    let languages = Language.allCases.map { "/lang \($0.rawValue)" }
    reader.setCompletions(ClientCommand.words + titles + languages + withIDs)
  }

  // MARK: - Waiting

  /// Runs one turn; Ctrl-C cancels it, and a notice appears if it takes long.
  private func cancellable(_ work: @escaping @Sendable () async -> [ChatEvent]) async -> [ChatEvent]
  {
    // In a pipe nothing can cancel a turn (Ctrl-C ends the program) and nothing
    // waits beside it: no task of its own, one thread hop less per turn.
    if !settings.interactive && !settings.showWaiting { return await work() }
    let task = Task { await work() }
    activeTurn.withLock { $0 = task }
    if settings.interactive {
      SignalHub.shared.onInterrupt { task.cancel() }
    }
    let waiting = settings.showWaiting ? startWaitingNotice() : nil
    let events = await task.value
    activeTurn.withLock { $0 = nil }
    waiting?.cancel()
    if let waiting, await waiting.value {
      ConsoleOutput.write("\r\u{1B}[K", to: STDERR_FILENO)
    }
    return events
  }

  /// Shows "waiting for the bot…" once after 300 ms; true if it was shown.
  /// Written once rather than animated: spinners are noise for screen readers.
  private func startWaitingNotice() -> Task<Bool, Never> {
    return Task { [session] in
      do { try await Task.sleep(for: .milliseconds(300)) } catch { return false }
      let current = await session.language
      ConsoleOutput.write(Localizer(current)(.waiting), to: STDERR_FILENO)
      return true
    }
  }

  // MARK: - Output

  private func echo(_ line: String, language: Language) {
    switch settings.format {
    case .text:
      let renderer = Renderer(
        width: currentWidth, color: settings.color, language: language,
        canSync: settings.hasDataAPI, directorySynced: settings.directorySynced)
      ConsoleOutput.write(renderer.renderEcho(line))
    case .jsonLines:
      ConsoleOutput.write(JSONLinesRenderer(language: language).renderUser(line))
    }
  }

  /// Prints events; returns the language in force after them. `offering`: the offline
  /// assistant is about to be offered, whose question says why the server cannot be
  /// reached, so that failure is not shown on its own as well.
  private func show(_ events: [ChatEvent], language: Language, offering: Bool = false)
    -> Language
  {
    let events = offering ? events.filter { !$0.isUnreachable } : events
    var language = language
    let news = pending.withLock { queued in
      defer { queued.removeAll() }
      return queued
    }
    for event in events + news {
      if case .languageChanged(let new) = event { language = new }
      switch settings.format {
      case .text:
        let renderer = Renderer(
          width: currentWidth, color: settings.color, language: language,
          canSync: settings.hasDataAPI, directorySynced: settings.directorySynced)
        write(renderer.render(event))
      case .jsonLines:
        ConsoleOutput.write(JSONLinesRenderer(language: language).render(event))
      }
    }
    return language
  }

  private func write(_ rendered: Rendered) {
    ConsoleOutput.write(rendered.stdout)
    ConsoleOutput.write(rendered.stderr, to: STDERR_FILENO)
  }
}
