import Foundation

/// What a sync did. In every case but `updated`, the old data is still there.
public enum SyncOutcome: Sendable, Hashable {
  case updated(count: Int, skipped: Int)
  /// The data API says the contacts did not change since the last sync.
  case unchanged
  /// Not asked for, and the last try was less than an hour ago.
  case notDue
  case notConfigured
  case failed(DataAPIError)
  case storageFailed(DirectoryError)

  public var isFailure: Bool {
    switch self {
    case .failed, .storageFailed: true
    default: false
    }
  }
}

/// One sync of the contact table from the data API (contract §2).
///
/// Asks `/data-version` what changed since the last successful sync (or
/// fetches everything when there was none, or it came from another server),
/// then replaces the table in one transaction. A payload that is not an items
/// table changes nothing; single bad items are skipped and counted.
public struct DirectorySync: Sendable {
  public static let table = "contacts"

  public var api: any DataAPI
  public var store: any ContactStore
  /// The guidance tables, synced with the contacts when given.
  public var guidance: (any GuidanceStore)?
  public var policy: RetryPolicy
  public var sleep: @Sendable (Double) async throws -> Void
  public var now: @Sendable () -> Date
  /// Told what the sync is doing, for a progress line on a terminal (`contacts sync`).
  public var progress: (@Sendable (SyncProgress) -> Void)?

  /// A step of a sync, as a progress line shows it.
  public enum SyncProgress: Sendable, Hashable {
    /// Fetching one table (`contacts`, `faq_tags`, `faq_items`).
    case fetching(table: String)
    /// The last try failed with something worth another; the next comes after `seconds`.
    case retrying(table: String, attempt: Int, seconds: Double)
  }

  public init(
    api: any DataAPI, store: any ContactStore, guidance: (any GuidanceStore)? = nil,
    policy: RetryPolicy = RetryPolicy(),
    sleep: @escaping @Sendable (Double) async throws -> Void = { seconds in
      try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
    },
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.api = api
    self.store = store
    self.guidance = guidance
    self.policy = policy
    self.sleep = sleep
    self.now = now
  }

  public func run() async -> SyncOutcome {
    let started = now()
    do {
      let status = try store.status()
      try store.recordSyncAttempt(at: started)
      var tables = [Self.table] + (guidance == nil ? [] : Self.guidanceTables)
      var sources = [status.source]
      if let guidance {
        for table in Self.guidanceTables { sources.append(try guidance.guidanceSource(table)) }
      }
      let syncedAt = sources.map { source -> Date? in
        if case .dataAPI(let url, let time)? = source, url == api.baseURL { return time }
        return nil
      }
      // Ask what changed only when every table came from this server; else fetch them all.
      if syncedAt.allSatisfy({ $0 != nil }), let since = syncedAt.compactMap({ $0 }).min() {
        let changed = try await fetchChangedTables(since: Int(since.timeIntervalSince1970))
        tables = tables.filter(changed.contains)
      }
      var updatedTables = 0
      var contactCount = status.count
      var skipped = 0
      var failure: (any Error)?
      // Each table all or nothing: a bad one keeps its old data, the others still update.
      // A server that stayed down through every try of one table is not asked for the
      // next ones: they would only take as long again to fail the same way.
      for table in tables {
        do {
          progress?(.fetching(table: table))
          let body = try await fetch(Self.path(table), table: table)
          let stored = try await Self.offThePool { [self] in
            try self.apply(table: table, body: body, syncedAt: started)
          }
          updatedTables += 1
          skipped += stored.skipped
          if table == Self.table { contactCount = stored.count }
        } catch {
          failure = failure ?? error
          if let error = error as? DataAPIError, error.isTransient || error == .cancelled { break }
        }
      }
      if let failure { throw failure }
      return updatedTables == 0 ? .unchanged : .updated(count: contactCount, skipped: skipped)
    } catch let error as DataAPIError {
      return .failed(error)
    } catch let error as DirectoryError {
      return .storageFailed(error)
    } catch {
      return .failed(.cancelled)
    }
  }

  public static let guidanceTables = ["faq_tags", "faq_items"]

  static func path(_ table: String) -> String {
    switch table {
    case "faq_tags": "/faq/tags/"
    case "faq_items": "/faq/items/?nested=0&withHtml=true"
    default: "/contacts/"
    }
  }

  /// Decodes and stores one table; returns how many items were stored and skipped.
  private func apply(
    table: String, body: Data, syncedAt: Date
  ) throws -> (count: Int, skipped: Int) {
    let source = DirectorySource.dataAPI(url: api.baseURL, syncedAt: syncedAt)
    func decoded<Item>(
      _ decode: (Data) throws(ItemsPayloadFailure) -> ItemsPayload<Item>
    ) throws -> ItemsPayload<Item> {
      do { return try decode(body) } catch {
        throw DataAPIError.badPayload(
          server: api.baseURL, table: table, problem: Self.problem(error))
      }
    }
    switch table {
    case "faq_tags":
      let payload = try decoded(ItemsPayloadDecoder.faqTags)
      try guidance?.replaceFaqTags(payload.items, source: source)
      return (payload.items.count, payload.skipped)
    case "faq_items":
      let payload = try decoded(ItemsPayloadDecoder.faqItems)
      try guidance?.replaceFaqItems(payload.items, source: source)
      return (payload.items.count, payload.skipped)
    default:
      let payload = try decoded(ItemsPayloadDecoder.contacts)
      try store.replaceContacts(payload.items, source: source)
      return (payload.items.count, payload.skipped)
    }
  }

  /// The names in `/data-version`'s array; anything that is not a string is ignored.
  private func fetchChangedTables(since: Int) async throws(DataAPIError) -> Set<String> {
    let body = try await fetch("/data-version?fromTimestamp=\(since)", table: "data-version")
    guard case .array(let names)? = try? BotReplyDecoder.parse(body) else {
      throw .badPayload(
        server: api.baseURL, table: "data-version", problem: .notATableList)
    }
    return Set(names.compactMap(\.stringValue))
  }

  /// GETs with retries on transient failures.
  private func fetch(_ path: String, table: String) async throws(DataAPIError) -> Data {
    var attempt = 1
    while true {
      do {
        return try await api.get(path)
      } catch {
        guard
          let pause = policy.delay(after: attempt, error: error, jitter: Double.random(in: 0..<1))
        else { throw error }
        progress?(.retrying(table: table, attempt: attempt, seconds: pause))
        do { try await sleep(pause) } catch { throw .cancelled }
        attempt += 1
      }
    }
  }

  /// Runs blocking work (decoding a large table, a long SQLite transaction that
  /// may wait for another process) on a Dispatch thread, so the few threads of
  /// Swift's concurrency pool stay free for the conversation.
  private static func offThePool<T: Sendable>(
    _ work: @escaping @Sendable () throws -> T
  ) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global(qos: .utility).async {
        continuation.resume(with: Result { try work() })
      }
    }
  }

  private static func problem(_ failure: ItemsPayloadFailure) -> DataAPIError.PayloadProblem {
    switch failure {
    case .notJSON: .notJSON
    case .notAnItemsObject(let got): .notAnItemsObject(got: got)
    }
  }
}
