import Foundation
import GRDB
import MigrantChatCore
import Synchronization

/// Reports from `POST /faq/reports/`, in `$XDG_STATE_HOME/migrant-chat/reports.sqlite`.
///
/// Mode 0600, WAL, a 30 s busy timeout: the settings of the project's other
/// databases (`SQLiteSettings`). Each report is one SQLite transaction, so it is
/// stored whole or not at all, and its number is an `AUTOINCREMENT` key: two
/// `serve` sharing the state folder never give one number twice, and a number is
/// never given again once its report is dropped. Past `maxReports` the oldest
/// are dropped (what the old file's rotation bounded).
///
/// Every database call (opening it, waiting for another process's lock, writing)
/// runs on this store's own serial queue, never on the event loops or Swift's
/// cooperative pool: a locked database delays only the reports waiting for it,
/// never `/version` or the webhook. The database is opened on the first report, so
/// start-up reads nothing; a failed open is tried again with the next report.
public final class ReceivedReportStore: ReportSink {
  public let path: String
  public let maxReports: Int
  /// The queue every database call runs on.
  private let queue = DispatchQueue(label: "migrant-chat.serve.reports")
  /// Set on `queue` only; the mutex makes that checkable.
  private let database = Mutex<(any DatabaseWriter)?>(nil)

  /// At most 4 KiB a description: 50,000 reports stay under about 200 MiB.
  public static let defaultMaxReports = 50_000

  public init(path: String, maxReports: Int = ReceivedReportStore.defaultMaxReports) {
    self.path = path
    self.maxReports = max(1, maxReports)
  }

  /// The reports file of the earlier versions, imported once (see `importLegacyFile`).
  public var legacyPath: String {
    (path as NSString).deletingLastPathComponent + "/reports.jsonl"
  }

  public func record(itemID: Int64, description: String) async throws -> Int {
    let received = Date()
    return try await withCheckedThrowingContinuation { continuation in
      queue.async {
        continuation.resume(
          with: Result { try self.insert(itemID: itemID, description: description, at: received) })
      }
    }
  }

  /// The stored reports, oldest first (for tests and tools; runs on the caller's thread).
  public func all() throws -> [ReceivedReport] {
    try queue.sync {
      try opened().read { db in
        try Row.fetchAll(
          db, sql: "SELECT id, item_id, description, received_at FROM report ORDER BY id"
        ).map { row in
          ReceivedReport(
            id: row["id"], itemID: row["item_id"], description: row["description"],
            receivedAt: (row["received_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
        }
      }
    }
  }

  private func insert(itemID: Int64, description: String, at time: Date) throws -> Int {
    dispatchPrecondition(condition: .onQueue(queue))
    let database = try opened()
    return try database.write { db in
      try db.execute(
        sql: "INSERT INTO report (item_id, description, received_at) VALUES (?, ?, ?)",
        arguments: [itemID, description, time.timeIntervalSince1970])
      let id = db.lastInsertedRowID
      try db.execute(sql: "DELETE FROM report WHERE id <= ?", arguments: [id - Int64(maxReports)])
      return Int(id)
    }
  }

  /// The database, opened (and its table made) the first time.
  private func opened() throws -> any DatabaseWriter {
    dispatchPrecondition(condition: .onQueue(queue))
    if let database = database.withLock({ $0 }) { return database }
    try AtomicFile.makeDirectory((path as NSString).deletingLastPathComponent)
    let legacy = legacyPath
    let opened = try SQLiteSettings.open(path: path) { database in
      try database.writeWithoutTransaction { db in
        // Immediate: of two `serve` opening a new file at once, one makes the table
        // (and imports the old file), and the other then finds it made.
        try db.inTransaction(.immediate) {
          try Self.makeTable(db, importing: legacy)
          return .commit
        }
      }
      return database
    }
    database.withLock { $0 = opened }
    return opened
  }

  private static func makeTable(_ db: Database, importing legacy: String) throws {
    guard try !db.tableExists("report") else { return }
    try db.execute(
      sql: """
        CREATE TABLE report (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          item_id INTEGER NOT NULL,
          description TEXT NOT NULL,
          received_at REAL
        )
        """)
    try importLegacyFile(legacy, into: db)
  }
}

/// A report `serve` received.
public struct ReceivedReport: Sendable, Hashable {
  public var id: Int64
  public var itemID: Int64
  public var description: String
  /// Nil for a report imported from a line without a time.
  public var receivedAt: Date?
}
