import Foundation
import Synchronization

/// The contact directory as the chat and the `contacts` command use it.
///
/// Looks contacts up in the store, keeps favourites in their own store, and
/// syncs from the data API when one is configured: in the background at most
/// once an hour, on request, and once when a bot names an unknown id (unless
/// a sync was tried in the last minute). Concurrent requests for a sync share
/// one run.
public actor ContactDirectory {
  public static let syncInterval: Double = 3600
  public static let missingIDRetryInterval: Double = 60

  /// SQLite may wait for a lock: the directory's work runs on a queue of its own,
  /// never on the HTTP I/O thread a chat with a server runs on.
  private let executor = QueueExecutor(label: "migrant-chat.directory")
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  private let store: any ContactStore
  private let favouriteStore: any FavouriteStore
  private let sync: DirectorySync?
  private let now: @Sendable () -> Date
  private var running: Task<SyncOutcome, Never>?
  /// Set without a hop to the directory's queue: the chat sets it before its first
  /// answer, and the hop there woke two threads of libdispatch's (#50).
  private let afterSync = Mutex<(@Sendable () async -> Void)?>(nil)

  public init(
    store: any ContactStore, favourites: any FavouriteStore, sync: DirectorySync?,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.store = store
    self.favouriteStore = favourites
    self.sync = sync
    self.now = now
  }

  /// Whether a data API is configured to sync from.
  public nonisolated var syncs: Bool { sync != nil }

  /// Runs after every sync that reached the data API, e.g. to reload the guidance.
  public nonisolated func setAfterSync(_ action: @escaping @Sendable () async -> Void) {
    afterSync.withLock { $0 = action }
  }

  public func status() throws(DirectoryError) -> DirectoryStatus {
    try store.status()
  }

  // MARK: - Sync

  /// Syncs now; joins a sync already running.
  public func syncNow() async -> SyncOutcome {
    guard let sync else { return .notConfigured }
    if let running { return await running.value }
    let task = Task { await sync.run() }
    running = task
    let outcome = await task.value
    running = nil
    switch outcome {
    case .updated, .unchanged:
      let action = afterSync.withLock { $0 }
      await action?()
    default: break
    }
    return outcome
  }

  /// Syncs when the last try is older than `interval` (an hour by default).
  public func syncIfDue(interval: Double = ContactDirectory.syncInterval) async -> SyncOutcome {
    guard sync != nil else { return .notConfigured }
    if let running { return await running.value }
    if let last = try? store.status().lastAttempt, now().timeIntervalSince(last) < interval,
      now() >= last
    {
      return .notDue
    }
    return await syncNow()
  }

  // MARK: - Lookups

  /// Cards for the ids a bot sent; syncs once for ids the directory lacks.
  ///
  /// Returns the outcome of that sync when one ran, so a failure can be shown.
  public func cards(for ids: [String]) async -> (cards: ContactCards, sync: SyncOutcome?) {
    var cards = lookUp(ids)
    let missing = ids.filter { cards.found[$0] == nil }
    guard !missing.isEmpty, sync != nil else { return (cards, nil) }
    let outcome = await syncIfDue(interval: Self.missingIDRetryInterval)
    if case .notDue = outcome { return (cards, nil) }
    cards = lookUp(ids)
    return (cards, outcome)
  }

  private func lookUp(_ ids: [String]) -> ContactCards {
    let numbers = ids.compactMap { ItemsPayloadDecoder.id(.string($0)) }
    guard let contacts = try? store.contacts(ids: numbers) else { return .unresolved }
    let byID = Dictionary(contacts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var found: [String: Contact] = [:]
    for id in ids {
      if let number = ItemsPayloadDecoder.id(.string(id)), let contact = byID[number] {
        found[id] = contact
      }
    }
    return ContactCards(
      found: found, favourites: (try? favouriteStore.favourites()) ?? [], resolved: true)
  }

  public func contact(id: Int64) throws(DirectoryError) -> Contact? {
    try store.contacts(ids: [id]).first
  }

  /// The contacts the directory has of `ids`, in the order asked.
  public func contacts(ids: [Int64]) throws(DirectoryError) -> [Contact] {
    let byID = Dictionary(
      try store.contacts(ids: ids).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    return ids.compactMap { byID[$0] }
  }

  /// Search, favourites first; an empty query lists the directory.
  public func search(
    _ query: String, language: Language, limit: Int = 20
  ) throws(DirectoryError) -> SearchResult {
    try store.search(
      query, language: language, favourites: favouriteStore.favourites(), limit: limit)
  }

  /// An id to show in "for example" hints: the first contact listed; nil when empty.
  public func exampleID() -> Int64? {
    try? store.search("", language: .en, favourites: [], limit: 1).contacts.first?.id
  }

  // MARK: - Favourites

  public func favourites() throws(DirectoryError) -> Set<Int64> {
    try favouriteStore.favourites()
  }

  /// Marks a contact as a favourite; nil when the directory has no such contact.
  public func addFavourite(_ id: Int64) throws(DirectoryError) -> Contact? {
    guard let contact = try contact(id: id) else { return nil }
    try favouriteStore.addFavourite(id, name: contact.name)
    return contact
  }

  /// Returns whether the id was a favourite.
  public func removeFavourite(_ id: Int64) throws(DirectoryError) -> Bool {
    try favouriteStore.removeFavourite(id)
  }
}
