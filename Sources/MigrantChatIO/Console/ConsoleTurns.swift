import Foundation
import MigrantChatCore
import Synchronization

/// Signals and the turn in flight: Ctrl-C cancels a turn on a terminal, a
/// termination signal cancels it anywhere, a resize re-wraps, and a turn that
/// takes long says it is waiting.
final class ConsoleTurns: Sendable {
  private let session: ChatSession
  private let interactive: Bool
  private let showWaiting: Bool
  /// The accessible mode: the waiting line is a line of its own, never erased, and a
  /// "still waiting" line follows every 10 s.
  private let accessible: Bool
  private let bell: Bool
  /// The turn in flight, for a termination signal to cancel.
  private let activeTurn = Mutex<Task<[ChatEvent], Never>?>(nil)

  /// A bell rings for an answer that took longer than this (`--bell`).
  static let bellAfter = Duration.seconds(2)
  /// The accessible mode's "still waiting" lines come this often.
  static let stillWaitingEvery = Duration.seconds(10)

  init(
    session: ChatSession, interactive: Bool, showWaiting: Bool, accessible: Bool = false,
    bell: Bool = false
  ) {
    self.session = session
    self.interactive = interactive
    self.showWaiting = showWaiting
    self.accessible = accessible
    self.bell = bell
  }

  /// Ctrl-C, termination and resizing go through the one `SignalHub`. In a pipe, Ctrl-C
  /// ends the program like SIGTERM (nothing to cancel or clear); on a terminal it is set
  /// per moment (reading a line, a turn).
  func watchSignals(reader: any LineReader, printer: ChatPrinter) {
    let hub = SignalHub.shared
    hub.handle([SIGINT, SIGTERM, SIGHUP] + (interactive ? [SIGWINCH] : []))
    // Weak: the hub is global and outlives any one console (the tests run many).
    hub.onTerminate { [weak self] in
      reader.interrupt()
      self?.activeTurn.withLock { $0?.cancel() }
    }
    guard interactive else { return }
    hub.onResize { [weak printer] in
      // The terminal's real size: a resize makes a fixed COLUMNS from the start stale.
      printer?.resized(to: TerminalInfo.width(environment: [:]))
      reader.terminalResized()
    }
  }

  func stopWatching() {
    SignalHub.shared.onTerminate(nil)
    SignalHub.shared.onResize(nil)
    SignalHub.shared.onInterrupt(nil)
  }

  /// Runs one turn; Ctrl-C cancels it, and a notice appears if it takes long.
  /// `asksServer`: false for the client's own commands (`/map`), which wait for no bot.
  func run(asksServer: Bool = true, _ work: @escaping @Sendable () async -> [ChatEvent]) async
    -> [ChatEvent]
  {
    // In a pipe nothing can cancel a turn (Ctrl-C ends the program) and nothing
    // waits beside it: no task of its own, one thread hop less per turn.
    if !interactive && !showWaiting { return await work() }
    let started = ContinuousClock.now
    let task = Task { await work() }
    activeTurn.withLock { $0 = task }
    if interactive {
      SignalHub.shared.onInterrupt { task.cancel() }
    }
    let waiting = showWaiting && asksServer ? startWaitingNotice() : nil
    let events = await task.value
    activeTurn.withLock { $0 = nil }
    waiting?.cancel()
    if let waiting, await waiting.value {
      ConsoleOutput.write("\r\u{1B}[K", to: STDERR_FILENO)
    }
    if bell && interactive && ContinuousClock.now - started > Self.bellAfter
      && events.contains(where: \.isAnswer)
    {
      ConsoleOutput.write("\u{7}", to: STDERR_FILENO)
    }
    return events
  }

  /// Shows "waiting for the bot…" once after 300 ms; true if it is to be erased.
  /// Written once rather than animated: spinners are noise for screen readers. In the
  /// accessible mode it is a line of its own, never erased, and every 10 s a short
  /// line says how long the wait has been.
  private func startWaitingNotice() -> Task<Bool, Never> {
    Task { [session, accessible] in
      let started = ContinuousClock.now
      do { try await Task.sleep(for: .milliseconds(300)) } catch { return false }
      let l10n = Localizer(await session.language)
      guard accessible else {
        ConsoleOutput.write(l10n(.waiting), to: STDERR_FILENO)
        return true
      }
      ConsoleOutput.write(l10n(.waiting) + "\n", to: STDERR_FILENO)
      var next = started + Self.stillWaitingEvery
      while true {
        do { try await Task.sleep(until: next) } catch { return false }
        let seconds = (ContinuousClock.now - started).components.seconds
        ConsoleOutput.write(
          l10n(.a11yStillWaiting, ["seconds": String(seconds)]) + "\n", to: STDERR_FILENO)
        next += Self.stillWaitingEvery
      }
    }
  }
}
