import Foundation
import MigrantChatIO
import Synchronization

/// A long command's progress: one line on stderr when it is a terminal,
/// rewritten at most five times a second; nil (nothing) in a pipe.
enum ProgressLine {
  static func make<Value>(
    _ text: @escaping @Sendable (Value) -> String
  ) -> (@Sendable (Value) -> Void)? {
    guard TerminalInfo.isTerminal(STDERR_FILENO) else { return nil }
    let clock = ContinuousClock()
    let last = Mutex(clock.now - .seconds(1))
    return { value in
      let now = clock.now
      guard
        last.withLock({ last in
          defer { last = now }
          return now - last >= .milliseconds(200)
        })
      else { return }
      ConsoleOutput.write("\r\u{1B}[K" + text(value), to: STDERR_FILENO)
    }
  }
}
