import Foundation
import GRDB
import MigrantChatCore

/// The user's own data: `$XDG_STATE_HOME/migrant-chat/user.sqlite`, mode 0600.
///
/// Favourites, the to-do list and reports waiting for the data API. It is never
/// the cache: deleting or rebuilding the directory cache never touches it, and
/// it is never moved aside or rebuilt; a damaged one is only reported. Every
/// change is one SQLite transaction; several processes may use it at once
/// (WAL, a 30 s busy timeout).
public struct StateDatabase: Sendable {
  public let favourites: SQLiteFavouriteStore
  public let todos: SQLiteTodoStore
  public let reports: SQLiteReportQueue

  init(database: any DatabaseWriter) throws {
    try SQLiteSettings.migrate(Self.migrator, database)
    favourites = SQLiteFavouriteStore(database: database)
    todos = SQLiteTodoStore(database: database)
    reports = SQLiteReportQueue(database: database)
  }

  public static func open(path: String) throws(DirectoryError) -> StateDatabase {
    try SQLiteSettings.open(path: path) { try StateDatabase(database: $0) }
  }

  /// Kept for this run only, when the file cannot be opened.
  public static func inMemory() throws(DirectoryError) -> StateDatabase {
    try SQLiteSettings.open(path: nil) { try StateDatabase(database: $0) }
  }

  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.execute(
        sql: """
          CREATE TABLE favourite (
            contact_id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            added_at REAL NOT NULL
          )
          """)
    }
    // AUTOINCREMENT: a removed task's number is never given to another, so a
    // `todo done 3` typed from an old list cannot complete the wrong task.
    migrator.registerMigration("v2-todo") { db in
      try db.execute(
        sql: """
          CREATE TABLE todo (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            title TEXT NOT NULL,
            details TEXT NOT NULL DEFAULT '',
            place TEXT NOT NULL DEFAULT '',
            due TEXT,
            contacts TEXT NOT NULL DEFAULT '',
            guide_id INTEGER,
            guide_title TEXT,
            step_id INTEGER,
            completed_at REAL,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
          )
          """)
    }
    migrator.registerMigration("v3-pending-report") { db in
      try db.execute(
        sql: """
          CREATE TABLE pending_report (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            item_id INTEGER NOT NULL,
            description TEXT NOT NULL,
            created_at REAL NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            refused INTEGER NOT NULL DEFAULT 0
          )
          """)
    }
    // Claims: a report is taken by one sender before it is posted (see `ReportQueue`).
    migrator.registerMigration("v4-report-claim") { db in
      try db.execute(
        sql: """
          ALTER TABLE pending_report ADD COLUMN claimed_by TEXT;
          ALTER TABLE pending_report ADD COLUMN claimed_at REAL;
          """)
    }
    return migrator
  }
}
