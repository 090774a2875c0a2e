import Foundation
import MigrantChatCore

/// Opens the directory cache and the user's state (favourites, to-do list, report
/// queue), repairing what can be repaired.
///
/// A damaged cache is moved aside as `directory.sqlite.corrupt-<time>` and
/// rebuilt from the sample (a sync then refills it). A cache that cannot be
/// opened at all (an unwritable directory) gives way to one in memory. The
/// state database is user data: it is never moved or rebuilt, only read.
public struct DirectoryFiles: Sendable {
  public var store: any ContactStore
  /// The guidance tables, in the same cache; nil only when no database opened at all.
  /// Kept as opened, not cast from `store`: an `as? any GuidanceStore` walked every
  /// conformance record in the binary at start (700,000 instructions, #50).
  public var guidance: (any GuidanceStore)?
  public var favourites: any FavouriteStore
  /// The to-do list; nil when the state database cannot be opened (never kept in memory:
  /// a task the user adds must not vanish at exit).
  public var todos: (any TodoStore)?
  /// Reports waiting for the data API; nil when the state database cannot be opened.
  public var reports: (any ReportQueue)?
  /// What the user should be told, once.
  public var notices: [DirectoryNotice]
  /// Where the cached contacts came from (the sample, or a data API and when), as the
  /// cache's opening read it; nil when it was filled then, or not read. The chat tells a
  /// synced directory from the sample by it without reading the cache again (#50).
  public var contactsSource: DirectorySource?

  /// The guidance tree as cached (the sample until a sync), for the offline assistant.
  public func guidanceTree() -> GuidanceTree {
    let tree = guidance?.tree() ?? .empty
    return tree.isEmpty ? SampleGuidance.tree() : tree
  }

  public static func cachePath(_ paths: AppPaths) -> String {
    paths.cacheDirectory + "/directory.sqlite"
  }

  public static func favouritesPath(_ paths: AppPaths) -> String {
    paths.stateDirectory + "/user.sqlite"
  }

  public static func open(paths: AppPaths, now: Date = Date()) -> DirectoryFiles {
    var notices: [DirectoryNotice] = []
    // One process at a time opens, migrates, repairs and fills a database:
    // two first starts at once must not both create tables or move files aside.
    try? AtomicFile.makeDirectory(paths.cacheDirectory)
    let cache = FileLock.withExclusiveLock(cachePath(paths) + ".lock") {
      openCache(at: cachePath(paths), directory: paths.cacheDirectory, now: now, notices: &notices)
    }
    var files = DirectoryFiles(
      store: cache.store, guidance: cache.guidance, favourites: NoFavourites(), notices: [],
      contactsSource: cache.source)
    do {
      try AtomicFile.makeDirectory(paths.stateDirectory)
      let state = try FileLock.withExclusiveLock(favouritesPath(paths) + ".lock") {
        try StateDatabase.open(path: favouritesPath(paths))
      }
      files.favourites = state.favourites
      files.todos = state.todos
      files.reports = state.reports
    } catch {
      notices.append(.favouritesUnavailable(detail: describe(error)))
      files.favourites = (try? SQLiteFavouriteStore.inMemory()) ?? NoFavourites()
    }
    files.notices = notices
    return files
  }

  private static func openCache(
    at path: String, directory: String, now: Date, notices: inout [DirectoryNotice]
  ) -> (store: any ContactStore, guidance: (any GuidanceStore)?, source: DirectorySource?) {
    let store: SQLiteContactStore?
    do {
      store = try openOrRebuild(at: path, directory: directory, now: now, notices: &notices)
    } catch {
      notices.append(.cacheUnavailable(detail: describe(error)))
      store = try? SQLiteContactStore.inMemory()
    }
    guard let store else { return (EmptyContactStore(), nil, nil) }
    let source = loadSampleIfEmpty(store)
    return (store, store, source)
  }

  /// The cache at `path`; a damaged one is moved aside and a new one created.
  private static func openOrRebuild(
    at path: String, directory: String, now: Date, notices: inout [DirectoryNotice]
  ) throws -> SQLiteContactStore {
    try AtomicFile.makeDirectory(directory)
    do {
      return try SQLiteContactStore.open(path: path)
    } catch .corrupt {
      let aside = path + ".corrupt-" + timestamp(now)
      guard rename(path, aside) == 0 else { throw DirectoryError.storage(detail: path) }
      unlink(path + "-wal")
      unlink(path + "-shm")
      notices.append(.rebuilt(movedTo: aside))
      return try SQLiteContactStore.open(path: path)
    }
  }

  /// The embedded sample alone, in memory (`serve --sample`): the cache is not read.
  public static func sampleStore() throws(DirectoryError) -> SQLiteContactStore {
    let store = try SQLiteContactStore.inMemory()
    loadSampleIfEmpty(store)
    return store
  }

  /// Fills an empty cache from the embedded sample, so cards work on first run, and
  /// says where the contacts it found came from (nil when it filled it, or could not read).
  @discardableResult
  static func loadSampleIfEmpty(_ store: any ContactStore) -> DirectorySource? {
    if let store = store as? SQLiteContactStore {
      // The sample is decoded only when it is written (every start used to decode it).
      // One read at every start (three reads were 0.7 million instructions, #50).
      guard let check = try? store.sampleCheck() else { return nil }
      if check.contacts == nil {
        try? store.fillIfEmpty(SampleDirectory.contacts(), source: .sample)
      } else if check.unmarkedSample {
        // A sample cached before contacts carried their `sample` mark is written again
        // with it (it is the sample still: no sync has replaced it).
        try? store.replaceContacts(SampleDirectory.contacts(), source: .sample)
      }
      if check.guides == nil {
        let guidance = SampleGuidance.tree()
        try? store.fillGuidanceIfEmpty(
          tags: guidance.tags, items: guidance.items.values.sorted { $0.id < $1.id })
      }
      return check.contacts
    } else if let status = try? store.status(), status.source == nil {
      try? store.replaceContacts(SampleDirectory.contacts(), source: .sample)
    }
    return nil
  }

  /// `20261128T133501Z`: when a damaged file was set aside (the cache's, the history's).
  static func timestamp(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
    return formatter.string(from: date)
  }

  private static func describe(_ error: any Error) -> String {
    let text =
      switch error {
      case let error as DirectoryError: error.detail
      default: "\(error)"
      }
    return TerminalSanitizer.clean(text, keepNewlines: false)
  }
}

/// The last resort when not even an in-memory database opens.
struct EmptyContactStore: ContactStore {
  func contacts(ids: [Int64]) throws(DirectoryError) -> [Contact] { [] }
  func search(
    _ query: String, language: Language, favourites: Set<Int64>, limit: Int
  ) throws(DirectoryError) -> SearchResult { SearchResult(contacts: [], total: 0) }
  func replaceContacts(_ contacts: [Contact], source: DirectorySource) throws(DirectoryError) {
    throw .storage(detail: "no database")
  }
  func status() throws(DirectoryError) -> DirectoryStatus {
    DirectoryStatus(source: nil, count: 0, lastAttempt: nil)
  }
  func recordSyncAttempt(at time: Date) throws(DirectoryError) {}
}

struct NoFavourites: FavouriteStore {
  func favourites() throws(DirectoryError) -> Set<Int64> { [] }
  func addFavourite(_ id: Int64, name: String) throws(DirectoryError) {
    throw .storage(detail: "no database")
  }
  func removeFavourite(_ id: Int64) throws(DirectoryError) -> Bool { false }
}
