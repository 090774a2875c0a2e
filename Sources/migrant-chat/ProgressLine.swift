import Foundation
import MigrantChatIO
import Synchronization

/// A long command's progress on stderr when it is a terminal; nil (nothing) in a pipe,
/// unless `inPipe` (a run of hours, whose log must show it is alive). One line
/// rewritten at most five times a second; where nothing may be redrawn (the
/// accessible mode, `TERM=dumb`, a pipe), a plain line of its own every 10 seconds,
/// which a screen reader reads once.
enum ProgressLine {
  /// How often a line of its own is written where nothing is redrawn.
  static let plainEvery = Duration.seconds(10)

  static func make<Value>(
    inPipe: Bool = false, _ text: @escaping @Sendable (Value) -> String
  ) -> (@Sendable (Value) -> Void)? {
    let terminal = TerminalInfo.isTerminal(STDERR_FILENO)
    guard terminal || inPipe else { return nil }
    let clock = ContinuousClock()
    let redraws = terminal && ConsoleOutput.redraws
    // The first plain line comes after one interval: a short run prints none.
    let last = Mutex(redraws ? clock.now - .seconds(1) : clock.now)
    let every = redraws ? Duration.milliseconds(200) : plainEvery
    return { value in
      let now = clock.now
      guard
        last.withLock({ last in
          guard now - last >= every else { return false }
          last = now
          return true
        })
      else { return }
      ConsoleOutput.write(
        redraws ? "\r\u{1B}[K" + text(value) : text(value) + "\n", to: STDERR_FILENO)
    }
  }

  /// Erases the progress line before the results, where one was drawn.
  static func clear() {
    guard ConsoleOutput.redraws, TerminalInfo.isTerminal(STDERR_FILENO) else { return }
    ConsoleOutput.write("\r\u{1B}[K", to: STDERR_FILENO)
  }
}
