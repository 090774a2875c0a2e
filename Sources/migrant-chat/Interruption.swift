import Foundation
import MigrantChatIO
import Synchronization

/// Ctrl-C for a long measuring command (`robustness`, `evaluate`): heard from the
/// moment it is made, so one pressed while files are read or the bot is set up still
/// ends the run with its line and 130, never a death by signal; once the work runs,
/// it cancels it, and what was measured is reported.
final class Interruption: Sendable {
  private let pressed = Atomic(false)

  init() {
    SignalHub.shared.onInterrupt { [self] in pressed.store(true, ordering: .relaxed) }
    SignalHub.shared.handle([SIGINT])
  }

  /// Whether Ctrl-C was pressed.
  var happened: Bool { pressed.load(ordering: .relaxed) }

  /// The work's result, cut short by Ctrl-C (one pressed before it began stops it at
  /// once); the progress line is cleared for what follows.
  func value<Value: Sendable>(of work: Task<Value, Never>) async -> Value {
    SignalHub.shared.onInterrupt { [self] in
      pressed.store(true, ordering: .relaxed)
      work.cancel()
    }
    if happened { work.cancel() }
    let value = await work.value
    SignalHub.shared.onInterrupt(nil)
    ProgressLine.clear()
    return value
  }
}
