import Foundation
import GRDB
import MigrantChatCore

/// The connection settings shared by migrant-chat's databases.
enum SQLiteSettings {
  /// A long busy timeout: a sync in another process holds the write lock for
  /// at most a few seconds, and waiting is better than "database is locked".
  static func configuration() -> Configuration {
    var configuration = Configuration()
    configuration.busyMode = .timeout(30)
    configuration.label = "migrant-chat"
    return configuration
  }

  /// Opens `path` (WAL, mode 0600) or an in-memory database when `path` is nil,
  /// and builds a store on it; SQLite's errors become `DirectoryError`s.
  /// `synchronousNormal`: commits are not flushed to the disk one by one (WAL keeps
  /// them safe from a killed process, not from a power cut), for a file written at
  /// every turn.
  static func open<Store>(
    path: String?, synchronousNormal: Bool = false,
    _ makeStore: (any DatabaseWriter) throws -> Store
  ) throws(DirectoryError) -> Store {
    do {
      guard let path else { return try makeStore(try DatabaseQueue()) }
      // SQLite gives its -wal and -shm files the main file's mode when it
      // creates them: so the file is 0600 before SQLite first opens it.
      let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
      if descriptor >= 0 { close(descriptor) }
      chmod(path, 0o600)
      var configuration = configuration()
      if synchronousNormal {
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
      }
      let pool = try DatabasePool(path: path, configuration: configuration)
      // Files made by an earlier version, before the line above.
      for file in [path + "-wal", path + "-shm"] { chmod(file, 0o600) }
      return try makeStore(pool)
    } catch let error as DirectoryError {
      throw error
    } catch {
      throw directoryError(error)
    }
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
