import Foundation
import GRDB
import MigrantChatCore

/// Reports of wrong guides waiting for the data API, in the user's state database.
///
/// `enqueue` commits before it returns, so a report survives a crash right
/// after it was typed; a full disk fails the insert with a clear error and
/// leaves the queue as it was. A claim is one `UPDATE … WHERE` nobody holds the
/// row: SQLite runs one writer at a time, so exactly one claimer changes the row.
public final class SQLiteReportQueue: ReportQueue {
  private let database: any DatabaseWriter

  init(database: any DatabaseWriter) {
    self.database = database
  }

  public func enqueue(itemID: Int64, text: String, now: Date, claimedBy: String?)
    throws(DirectoryError) -> PendingReport
  {
    try write { db in
      try db.execute(
        sql: """
          INSERT INTO pending_report (item_id, description, created_at, claimed_by, claimed_at)
          VALUES (?, ?, ?, ?, ?)
          """,
        arguments: [
          itemID, text, now.timeIntervalSince1970, claimedBy,
          claimedBy == nil ? nil : now.timeIntervalSince1970,
        ])
      return PendingReport(id: db.lastInsertedRowID, itemID: itemID, text: text, createdAt: now)
    }
  }

  public func pending() throws(DirectoryError) -> [PendingReport] {
    do {
      return try database.read { db in
        try Row.fetchAll(
          db,
          sql: """
            SELECT id, item_id, description, created_at, attempts, last_error, refused
            FROM pending_report ORDER BY id
            """
        ).map { row in
          PendingReport(
            id: row["id"], itemID: row["item_id"], text: row["description"],
            createdAt: Date(timeIntervalSince1970: row["created_at"]), attempts: row["attempts"],
            lastError: row["last_error"], refused: row["refused"])
        }
      }
    } catch {
      throw SQLiteSettings.directoryError(error)
    }
  }

  public func claim(id: Int64, by claimer: String, now: Date, staleAfter: TimeInterval)
    throws(DirectoryError) -> Bool
  {
    let time = now.timeIntervalSince1970
    return try write { db in
      // Free: never claimed, claimed too long ago, or "claimed" in the future by
      // more than the timeout (a clock set back must not hold a report forever).
      try db.execute(
        sql: """
          UPDATE pending_report SET claimed_by = ?, claimed_at = ?
          WHERE id = ? AND (claimed_at IS NULL OR claimed_at <= ? OR claimed_at > ?)
          """,
        arguments: [claimer, time, id, time - staleAfter, time + staleAfter])
      return db.changesCount == 1
    }
  }

  public func markFailed(id: Int64, error: String, refused: Bool) throws(DirectoryError) {
    try write { db in
      try db.execute(
        sql: """
          UPDATE pending_report SET attempts = attempts + 1, last_error = ?, refused = ?,
            claimed_by = NULL, claimed_at = NULL
          WHERE id = ?
          """, arguments: [error, refused, id])
    }
  }

  public func remove(id: Int64) throws(DirectoryError) -> Bool {
    try write { db in
      try db.execute(sql: "DELETE FROM pending_report WHERE id = ?", arguments: [id])
      return db.changesCount > 0
    }
  }

  /// One write transaction, its failure in the directory's words.
  private func write<T>(_ body: (Database) throws -> T) throws(DirectoryError) -> T {
    do {
      return try database.write(body)
    } catch {
      throw SQLiteSettings.directoryError(error)
    }
  }
}
