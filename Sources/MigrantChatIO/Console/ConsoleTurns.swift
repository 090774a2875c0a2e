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
  /// The turn in flight, for a termination signal to cancel.
  private let activeTurn = Mutex<Task<[ChatEvent], Never>?>(nil)

  init(session: ChatSession, interactive: Bool, showWaiting: Bool) {
    self.session = session
    self.interactive = interactive
    self.showWaiting = showWaiting
  }

  /// Ctrl-C, termination and resizing go through the one `SignalHub`. In a pipe, Ctrl-C
  /// ends the program like SIGTERM (nothing to cancel or clear); on a terminal it is set
  /// per moment (reading a line, a turn).
  func watchSignals(reader: any LineReader, printer: ChatPrinter) {
    let hub = SignalHub.shared
    hub.handle([SIGINT, SIGTERM, SIGHUP] + (interactive ? [SIGWINCH] : []))
    // Weak: the hub is global, and a console kept alive would keep the directory's
    // database open, so its write-ahead log would never be checkpointed at exit.
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
  func run(_ work: @escaping @Sendable () async -> [ChatEvent]) async -> [ChatEvent] {
    // In a pipe nothing can cancel a turn (Ctrl-C ends the program) and nothing
    // waits beside it: no task of its own, one thread hop less per turn.
    if !interactive && !showWaiting { return await work() }
    let task = Task { await work() }
    activeTurn.withLock { $0 = task }
    if interactive {
      SignalHub.shared.onInterrupt { task.cancel() }
    }
    let waiting = showWaiting ? startWaitingNotice() : nil
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
    Task { [session] in
      do { try await Task.sleep(for: .milliseconds(300)) } catch { return false }
      let current = await session.language
      ConsoleOutput.write(Localizer(current)(.waiting), to: STDERR_FILENO)
      return true
    }
  }
}
