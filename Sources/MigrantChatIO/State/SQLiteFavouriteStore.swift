import Foundation
import GRDB
import MigrantChatCore

/// Favourite offices, in the user's state database (`StateDatabase`), not the cache.
///
/// The contact's name is kept beside its id, so a favourite that vanished from the directory can still be named.
public final class SQLiteFavouriteStore: FavouriteStore {
  private let database: any DatabaseWriter

  init(database: any DatabaseWriter) {
    self.database = database
  }

  public static func open(path: String) throws(DirectoryError) -> SQLiteFavouriteStore {
    try StateDatabase.open(path: path).favourites
  }

  /// Favourites kept for this run only, when the state database cannot be opened.
  public static func inMemory() throws(DirectoryError) -> SQLiteFavouriteStore {
    try StateDatabase.inMemory().favourites
  }

  public func favourites() throws(DirectoryError) -> Set<Int64> {
    do {
      return Set(
        try database.read { db in try Int64.fetchAll(db, sql: "SELECT contact_id FROM favourite") })
    } catch {
      throw SQLiteSettings.directoryError(error)
    }
  }

  public func addFavourite(_ id: Int64, name: String) throws(DirectoryError) {
    do {
      try database.write { db in
        try db.execute(
          sql: """
            INSERT INTO favourite (contact_id, name, added_at) VALUES (?, ?, ?)
            ON CONFLICT (contact_id) DO UPDATE SET name = excluded.name
            """, arguments: [id, name, Date().timeIntervalSince1970])
      }
    } catch {
      throw SQLiteSettings.directoryError(error)
    }
  }

  public func removeFavourite(_ id: Int64) throws(DirectoryError) -> Bool {
    do {
      return try database.write { db in
        try db.execute(sql: "DELETE FROM favourite WHERE contact_id = ?", arguments: [id])
        return db.changesCount > 0
      }
    } catch {
      throw SQLiteSettings.directoryError(error)
    }
  }
}
