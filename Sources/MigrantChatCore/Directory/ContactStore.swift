import Foundation

/// Where the contact directory is kept: a cache that can be rebuilt at any time.
///
/// Implementations make `replaceContacts` all-or-nothing: after a crash the
/// store holds either the old table or the new one, never a mix.
public protocol ContactStore: Sendable {
  /// The contacts with these ids that are in the store, in no particular order.
  func contacts(ids: [Int64]) throws(DirectoryError) -> [Contact]
  /// Contacts whose names (any language), address or city contain words
  /// starting with every term of `query`; favourites first, then by name.
  /// An empty query lists everything.
  func search(
    _ query: String, language: Language, favourites: Set<Int64>, limit: Int
  ) throws(DirectoryError) -> SearchResult
  /// Replaces the whole table and records where and when it came from.
  func replaceContacts(_ contacts: [Contact], source: DirectorySource) throws(DirectoryError)
  /// What the store holds and when it was last synced.
  func status() throws(DirectoryError) -> DirectoryStatus
  /// Remembers that a sync was tried now, successful or not.
  func recordSyncAttempt(at time: Date) throws(DirectoryError)
}

/// User data about contacts that must outlive the cache: favourites.
public protocol FavouriteStore: Sendable {
  func favourites() throws(DirectoryError) -> Set<Int64>
  func addFavourite(_ id: Int64, name: String) throws(DirectoryError)
  /// Returns whether the id was a favourite.
  func removeFavourite(_ id: Int64) throws(DirectoryError) -> Bool
}

/// A page of search results and how many matched in all.
public struct SearchResult: Sendable, Hashable {
  public var contacts: [Contact]
  public var total: Int
  /// When nothing was found: the names and cities closest to what was typed.
  public var suggestions: [String]
  /// The query as it was read when not as typed: typed with the other keyboard
  /// layout on (`ghfuf` read as "прага", `KeyboardLayout`).
  public var readAs: String?
  /// The words as typed that match no office and were left out, others matching.
  public var leftOut: [String] = []

  public init(contacts: [Contact], total: Int, suggestions: [String] = [], readAs: String? = nil) {
    self.contacts = contacts
    self.total = total
    self.suggestions = suggestions
    self.readAs = readAs
  }
}

/// Where the directory's data came from.
public enum DirectorySource: Sendable, Hashable {
  /// The sample embedded in the binary: not real offices.
  case sample
  /// A data API, synced at `syncedAt`.
  case dataAPI(url: String, syncedAt: Date)

  public var isSample: Bool { self == .sample }
}

/// What a store holds.
public struct DirectoryStatus: Sendable, Hashable {
  /// Nil while the store is empty (never loaded).
  public var source: DirectorySource?
  public var count: Int
  public var lastAttempt: Date?

  public init(source: DirectorySource?, count: Int, lastAttempt: Date?) {
    self.source = source
    self.count = count
    self.lastAttempt = lastAttempt
  }
}

/// Why the directory's files could not be used.
public enum DirectoryError: Error, Sendable, Hashable {
  /// The database could not be read or written; the detail is SQLite's.
  case storage(detail: String)
  /// The file is damaged; the caller may move it aside and rebuild.
  case corrupt(detail: String)
}
