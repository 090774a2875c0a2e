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
  public var policy: RetryPolicy
  public var sleep: @Sendable (Double) async throws -> Void
  public var now: @Sendable () -> Date

  public init(
    api: any DataAPI, store: any ContactStore, policy: RetryPolicy = RetryPolicy(),
    sleep: @escaping @Sendable (Double) async throws -> Void = { seconds in
      try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
    },
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.api = api
    self.store = store
    self.policy = policy
    self.sleep = sleep
    self.now = now
  }

  public func run() async -> SyncOutcome {
    let started = now()
    do {
      let status = try store.status()
      try store.recordSyncAttempt(at: started)
      if case .dataAPI(let url, let syncedAt) = status.source, url == api.baseURL {
        let since = Int(syncedAt.timeIntervalSince1970)
        let changed = try await fetchChangedTables(since: since)
        guard changed.contains(Self.table) else { return .unchanged }
      }
      let body = try await fetch("/contacts/")
      return try await Self.offThePool { [api, store] () throws -> SyncOutcome in
        let payload: ItemsPayload<Contact>
        do throws(ItemsPayloadFailure) {
          payload = try ItemsPayloadDecoder.contacts(body)
        } catch {
          throw DataAPIError.badPayload(
            server: api.baseURL, table: Self.table, problem: Self.problem(error))
        }
        try store.replaceContacts(
          payload.items, source: .dataAPI(url: api.baseURL, syncedAt: started))
        return .updated(count: payload.items.count, skipped: payload.skipped)
      }
    } catch let error as DataAPIError {
      return .failed(error)
    } catch let error as DirectoryError {
      return .storageFailed(error)
    } catch {
      return .failed(.cancelled)
    }
  }

  /// The names in `/data-version`'s array; anything that is not a string is ignored.
  private func fetchChangedTables(since: Int) async throws(DataAPIError) -> Set<String> {
    let body = try await fetch("/data-version?fromTimestamp=\(since)")
    guard case .array(let names)? = try? BotReplyDecoder.parse(body) else {
      throw .badPayload(
        server: api.baseURL, table: "data-version", problem: .notATableList)
    }
    return Set(names.compactMap(\.stringValue))
  }

  /// GETs with retries on transient failures.
  private func fetch(_ path: String) async throws(DataAPIError) -> Data {
    var attempt = 1
    while true {
      do {
        return try await api.get(path)
      } catch {
        guard
          let pause = policy.delay(after: attempt, error: error, jitter: Double.random(in: 0..<1))
        else { throw error }
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
