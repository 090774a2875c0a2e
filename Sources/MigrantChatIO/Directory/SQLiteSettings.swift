import Foundation
import GRDB
internal import GRDBSQLite
import MigrantChatCore

/// The connection settings shared by migrant-chat's databases.
enum SQLiteSettings {
  /// A long busy timeout: a sync in another process holds the write lock for
  /// at most a few seconds, and waiting is better than "database is locked".
  static let busyTimeout: TimeInterval = 30

  static func configuration() -> Configuration {
    var configuration = Configuration()
    configuration.busyMode = .timeout(busyTimeout)
    configuration.label = "migrant-chat"
    return configuration
  }

  /// Opens `path` (WAL, mode 0600) or an in-memory database when `path` is nil,
  /// and builds a store on it; SQLite's errors become `DirectoryError`s.
  ///
  /// One connection (a GRDB `DatabaseQueue`) in WAL mode, with `synchronous = NORMAL`
  /// (commits are not flushed to the disk one by one: WAL keeps them safe from a
  /// killed process, not from a power cut), which is what GRDB's `DatabasePool` set up.
  /// Other processes still read while one writes; within a process, reads wait for
  /// a write in progress, which a chat or a sync never holds long. Not the pool: its
  /// second connection parsed the schema again, and its WAL set-up asked Foundation
  /// for the log's size through `URL.resourceValues` (1.8 million instructions), at
  /// every start (#50).
  static func open<Store>(
    path: String?, _ makeStore: (any DatabaseWriter) throws -> Store
  ) throws(DirectoryError) -> Store {
    do {
      guard let path else { return try makeStore(try DatabaseQueue()) }
      // SQLite gives its -wal and -shm files the main file's mode when it
      // creates them: so the file is 0600 before SQLite first opens it.
      let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
      if descriptor >= 0 { close(descriptor) }
      chmod(path, 0o600)
      var configuration = configuration()
      configuration.prepareDatabase { db in
        try turnOnWAL(db, path: path)
        emptyTheLog(db, path: path)
      }
      let queue = try DatabaseQueue(path: path, configuration: configuration)
      // Files made by an earlier version, before the line above.
      for file in [path + "-wal", path + "-shm"] { chmod(file, 0o600) }
      return try makeStore(queue)
    } catch let error as DirectoryError {
      throw error
    } catch {
      throw directoryError(error)
    }
  }

  /// `PRAGMA journal_mode = WAL` (which answers the mode now in force) and
  /// `synchronous = NORMAL`, by SQLite's own calls: GRDB's generic `String.fetchOne` cost
  /// 1.2 million instructions at start, its first use looking up conformances (#50).
  private static func turnOnWAL(_ db: Database, path: String) throws {
    var statement: OpaquePointer?
    var code = sqlite3_prepare_v2(
      db.sqliteConnection, "PRAGMA journal_mode = WAL", -1, &statement, nil)
    defer { sqlite3_finalize(statement) }
    if code == SQLITE_OK { code = sqlite3_step(statement) }
    guard code == SQLITE_ROW else {
      throw DatabaseError(
        resultCode: ResultCode(rawValue: code),
        message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
    }
    let mode = sqlite3_column_text(statement, 0).map { String(cString: $0) }
    guard mode == "wal" else {
      throw DatabaseError(
        message: "could not turn on WAL mode at \(path) (it is \(mode ?? "none"))")
    }
    try db.execute(sql: "PRAGMA synchronous = NORMAL")
  }

  /// Copies what the write-ahead log holds into the database and empties it, when
  /// it holds anything and no other connection is using it.
  ///
  /// A process exits without closing its connections, so SQLite never checkpoints
  /// on close: the log of the last writes (the first run's 350 KB of directory and
  /// guidance) stayed, and every later start read and checksummed all of it to
  /// rebuild its index (500,000 instructions, #50), up to SQLite's 4 MB before its
  /// own checkpoint. Never waits: another process's reader or writer leaves the log
  /// for a later start.
  private static func emptyTheLog(_ db: Database, path: String) {
    var status = stat()
    guard stat(path + "-wal", &status) == 0, status.st_size > 0 else { return }
    let connection = db.sqliteConnection
    sqlite3_busy_timeout(connection, 0)
    defer { sqlite3_busy_timeout(connection, Int32(busyTimeout * 1000)) }
    _ = sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
  }

  /// Runs the migrations of `migrator` that the database lacks. When it lacks none, which
  /// one read of `grdb_migrations` by SQLite's own calls tells, GRDB's migrator is not
  /// run: its own look (a `CREATE TABLE IF NOT EXISTS` and two generic fetches) was
  /// 0.35 million instructions at every start (#50). A database it cannot read (new,
  /// damaged) is left to the migrator, which creates it or says what is wrong.
  static func migrate(_ migrator: DatabaseMigrator, _ writer: any DatabaseWriter) throws {
    let applied = writer.writeWithoutTransaction { db in appliedMigrations(db) }
    if migrator.migrations.allSatisfy(applied.contains) { return }
    try migrator.migrate(writer)
  }

  /// Reads every row of `table` (`count(*)`), by SQLite's own calls, and throws what a
  /// damaged file gives. GRDB's `read` around a generic fetch was 130,000 instructions at
  /// every start (#50).
  static func touch(_ table: String, in writer: any DatabaseWriter) throws {
    try writer.writeWithoutTransaction { db in
      var statement: OpaquePointer?
      defer { sqlite3_finalize(statement) }
      var code = sqlite3_prepare_v2(
        db.sqliteConnection, "SELECT count(*) FROM \"\(table)\"", -1, &statement, nil)
      if code == SQLITE_OK { code = sqlite3_step(statement) }
      guard code == SQLITE_ROW else {
        throw DatabaseError(
          resultCode: ResultCode(rawValue: code),
          message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
      }
    }
  }

  /// The migrations `grdb_migrations` names; none when it cannot be read.
  private static func appliedMigrations(_ db: Database) -> Set<String> {
    var statement: OpaquePointer?
    defer { sqlite3_finalize(statement) }
    let sql = "SELECT identifier FROM grdb_migrations"
    guard sqlite3_prepare_v2(db.sqliteConnection, sql, -1, &statement, nil) == SQLITE_OK
    else { return [] }
    var applied = Set<String>()
    while sqlite3_step(statement) == SQLITE_ROW {
      if let text = sqlite3_column_text(statement, 0) { applied.insert(String(cString: text)) }
    }
    return applied
  }

  static func directoryError(_ error: any Error) -> DirectoryError {
    if let error = error as? DatabaseError {
      switch error.resultCode {
      case .SQLITE_CORRUPT, .SQLITE_NOTADB: return .corrupt(detail: error.message ?? "\(error)")
      default: return .storage(detail: error.message ?? "\(error)")
      }
    }
    return .storage(detail: "\(error)")
  }
}
