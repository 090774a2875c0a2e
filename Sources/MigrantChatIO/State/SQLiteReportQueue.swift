import Foundation
import GRDB
import MigrantChatCore

/// Reports of wrong guides waiting for the data API, in the user's state database.
///
/// `enqueue` commits before it returns, so a report survives a crash right
/// after it was typed; a full disk fails the insert with a clear error and
/// leaves the queue as it was.
public final class SQLiteReportQueue: ReportQueue {
  private let database: any DatabaseWriter

  init(database: any DatabaseWriter) {
    self.database = database
  }

  public func enqueue(itemID: Int64, text: String, now: Date) throws(DirectoryError)
    -> PendingReport
  {
    do {
      return try database.write { db in
        try db.execute(
          sql: "INSERT INTO pending_report (item_id, description, created_at) VALUES (?, ?, ?)",
          arguments: [itemID, text, now.timeIntervalSince1970])
        return PendingReport(id: db.lastInsertedRowID, itemID: itemID, text: text, createdAt: now)
      }
    } catch {
      throw SQLiteSettings.directoryError(error)
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

  public func markFailed(id: Int64, error: String, refused: Bool) throws(DirectoryError) {
    do {
      try database.write { db in
        try db.execute(
          sql: """
            UPDATE pending_report SET attempts = attempts + 1, last_error = ?, refused = ?
            WHERE id = ?
            """, arguments: [error, refused, id])
      }
    } catch {
      throw SQLiteSettings.directoryError(error)
    }
  }

  public func remove(id: Int64) throws(DirectoryError) -> Bool {
    do {
      return try database.write { db in
        try db.execute(sql: "DELETE FROM pending_report WHERE id = ?", arguments: [id])
        return db.changesCount > 0
      }
    } catch {
      throw SQLiteSettings.directoryError(error)
    }
  }
}
