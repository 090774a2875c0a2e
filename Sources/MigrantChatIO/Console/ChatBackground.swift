import Foundation
import MigrantChatCore

/// The chat's work beside the conversation: the directory's sync when it is due,
/// then the reports waiting in the queue. A failure, or reports sent, are posted
/// to the printer, shown later, once.
enum ChatBackground {
  /// nil when there is nothing to do: no data API to sync from or send reports to (the
  /// offline assistant's usual case, whose start then wakes none of the pool's threads).
  static func start(
    directory: ContactDirectory?, session: ChatSession, printer: ChatPrinter
  ) -> Task<Void, Never>? {
    guard directory?.syncs == true || session.sendsQueuedReports else { return nil }
    // Off the HTTP I/O thread: the chat may run there (see ChatCommand), and this
    // work reads and writes SQLite, which may wait for a lock.
    return Task.detached {
      if let directory {
        let outcome = await directory.syncIfDue()
        if outcome.isFailure, outcome != .failed(.cancelled) {
          printer.post([.directory(.synced(outcome))])
        }
        // After a failed sync the reports would fail the same way.
        if outcome.isFailure { return }
      }
      guard !Task.isCancelled else { return }
      printer.post(await session.sendQueuedReports())
    }
  }
}
