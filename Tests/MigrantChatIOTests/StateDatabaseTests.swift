import Foundation
import GRDB
import MigrantChatCore
import Synchronization
import TestSupport
import Testing

@testable import MigrantChatIO

@Suite struct StateDatabaseTests {
  let directory = TemporaryDirectory()
  var path: String { directory.path + "/user.sqlite" }
  let now = Date(timeIntervalSince1970: 1_795_000_000)

  /// A state database from before the to-do list (favourites only) keeps its favourites
  /// and gains the new tables.
  @Test func anOlderDatabaseIsMigratedWithItsFavourites() throws {
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
          INSERT INTO grdb_migrations VALUES ('v1');
          CREATE TABLE favourite (contact_id INTEGER PRIMARY KEY, name TEXT NOT NULL,
            added_at REAL NOT NULL);
          INSERT INTO favourite VALUES (138503, 'Centre', 0);
          """)
    }
    try queue.close()
    let state = try StateDatabase.open(path: path)
    #expect(try state.favourites.favourites() == [138503])
    #expect(try state.todos.tasks().isEmpty)
    #expect(try state.reports.pending().isEmpty)
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  /// GRDB's migrator runs only when a migration is missing (#50): a database with every
  /// one (and one of a newer version's) is not looked at by it, one lacking one is migrated.
  @Test func theMigratorRunsOnlyWhenAMigrationIsMissing() throws {
    let statements = Mutex<[String]>([])
    var configuration = Configuration()
    configuration.prepareDatabase { db in
      db.trace { event in statements.withLock { $0.append("\(event)") } }
    }
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE a (x)") }
    func migratorRan() -> Bool {
      statements.withLock {
        $0.contains { $0.contains("CREATE TABLE IF NOT EXISTS grdb_migrations") }
      }
    }
    // A new file: migrated.
    try SQLiteSettings.migrate(migrator, queue)
    #expect(migratorRan())
    #expect(try queue.read { try $0.tableExists("a") })
    // Every migration applied, and one of a newer version: not looked at again.
    try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v9-newer')") }
    statements.withLock { $0 = [] }
    try SQLiteSettings.migrate(migrator, queue)
    #expect(!migratorRan())
    // A migration missing: migrated, the newer one's mark kept.
    migrator.registerMigration("v2") { db in try db.execute(sql: "CREATE TABLE b (x)") }
    try SQLiteSettings.migrate(migrator, queue)
    #expect(migratorRan())
    #expect(try queue.read { try $0.tableExists("b") })
    let applied = try queue.read {
      try String.fetchSet($0, sql: "SELECT identifier FROM grdb_migrations")
    }
    #expect(applied == ["v1", "v2", "v9-newer"])
  }

  /// The chat's reminder reads the due dates of the open tasks alone: the same as every
  /// task read and filtered.
  @Test func theOpenTasksDueDatesAreReadAlone() throws {
    let todos = try StateDatabase.open(path: path).todos
    #expect(try todos.openDueDates().isEmpty)
    let drafts = [
      TodoDraft(title: "Late", due: DayDate(iso: "2026-11-01")),
      TodoDraft(title: "No date"),
      TodoDraft(title: "Done", due: DayDate(iso: "2026-11-02")),
      TodoDraft(title: "Soon", due: DayDate(iso: "2026-12-03")),
    ]
    _ = try todos.add(drafts, now: now)
    _ = try todos.setDone(id: 3, true, now: now)
    let dates = try todos.openDueDates()
    #expect(dates.map(\.iso) == ["2026-11-01", "2026-12-03"])
    #expect(dates == (try todos.tasks().filter { !$0.isDone }.compactMap(\.due)))
  }

  @Test func tasksAreAddedChangedCompletedAndRemoved() throws {
    let todos = try StateDatabase.open(path: path).todos
    let steps = [
      TodoDraft(title: "Book", contacts: [1, 2], guideID: 10, guideTitle: "Card", stepID: 13),
      TodoDraft(title: "Fingerprints", guideID: 10, guideTitle: "Card", stepID: 14),
    ]
    #expect(try todos.add(steps, now: now).map(\.id) == [1, 2])
    // The same steps again: not added twice while open.
    #expect(try todos.add(steps, now: now).isEmpty)
    let own = try todos.add([TodoDraft(title: "Mine", due: DayDate(iso: "2026-12-01"))], now: now)
    #expect(own.first?.id == 3)
    let changed = try todos.update(id: 3, TodoChange(place: "Brno", due: .some(nil)), now: now)
    #expect(changed?.place == "Brno" && changed?.due == nil && changed?.title == "Mine")
    #expect(try todos.setDone(id: 1, true, now: now)?.completedAt == now)
    let later = now.addingTimeInterval(60)
    #expect(try todos.setDone(id: 1, true, now: later)?.completedAt == now, "first completion kept")
    #expect(try todos.setDone(id: 1, false, now: later)?.isDone == false)
    #expect(try todos.task(id: 1)?.contacts == [1, 2])
    #expect(try todos.remove(id: 3))
    #expect(try !todos.remove(id: 3))
    // A removed task's number is never given again.
    #expect(try todos.add([TodoDraft(title: "Next")], now: now).first?.id == 4)
    #expect(try todos.update(id: 99, TodoChange(title: "x"), now: now) == nil)
    #expect(try todos.setDone(id: 99, true, now: now) == nil)
  }

  /// Two connections (as two processes) change different fields of one task at the
  /// same moment, round after round: after each round the task holds both new values.
  /// A store that rewrote whole rows from an earlier read would put back the other
  /// writer's older value; every round writes new values, and every error counts.
  @Test func twoWritersEditingOneTaskLoseNeitherChange() throws {
    let first = try StateDatabase.open(path: path).todos
    let second = try StateDatabase.open(path: path).todos
    _ = try first.add([TodoDraft(title: "Shared")], now: now)
    let start = try #require(DayDate(iso: "2026-12-01"))
    let errors = Mutex<[String]>([])
    var lost: [Int] = []
    for round in 0..<30 {
      DispatchQueue.concurrentPerform(iterations: 3) { writer in
        do {
          switch writer {
          case 0: _ = try first.update(id: 1, TodoChange(place: "P\(round)"), now: now)
          case 1:
            _ = try second.update(
              id: 1, TodoChange(due: .some(start.adding(days: round))), now: now)
          default: _ = try second.setDone(id: 1, round % 2 == 1, now: now)
          }
        } catch {
          errors.withLock { $0.append("\(error)") }
        }
      }
      let task = try #require(try first.task(id: 1))
      if task.place != "P\(round)" || task.due != start.adding(days: round)
        || task.isDone != (round % 2 == 1) || task.title != "Shared"
      {
        lost.append(round)
      }
    }
    #expect(errors.withLock { $0 }.isEmpty)
    #expect(lost.isEmpty, "rounds that lost a change: \(lost)")
  }

  @Test func theReportQueueKeepsReportsUntilRemoved() throws {
    let reports = try StateDatabase.open(path: path).reports
    let report = try reports.enqueue(itemID: 30, text: "Wrong deposit", now: now)
    try reports.markFailed(id: report.id, error: "HTTP 400", refused: true)
    // Another process opening the file sees it.
    let again = try StateDatabase.open(path: path).reports.pending()
    #expect(again.map(\.text) == ["Wrong deposit"])
    #expect(again.first?.refused == true && again.first?.attempts == 1)
    #expect(try reports.remove(id: report.id))
    #expect(try reports.pending().isEmpty)
  }

  /// Two processes (two connections) flush the same queue while a third sends a new
  /// report: each report reaches the API once. Without claims every flush posted
  /// every row it had read.
  @Test func twoSendersPostEachReportOnce() async throws {
    let first = try StateDatabase.open(path: path).reports
    let second = try StateDatabase.open(path: path).reports
    for number in 1...6 { _ = try first.enqueue(itemID: Int64(number), text: "r", now: now) }
    let api = SlowReportAPI()
    async let one = ReportDesk(queue: first, api: api).flush()
    async let two = ReportDesk(queue: second, api: api).flush()
    async let three = ReportDesk(queue: second, api: api).submit(itemID: 7, text: "new")
    let (sentByOne, sentByTwo, submitted) = await (one, two, three)
    #expect(submitted == .sent(itemID: 7))
    #expect(sentByOne.count + sentByTwo.count == 6)
    #expect(api.posted.withLock { $0 }.sorted() == Array(1...7))
    #expect(try first.pending().isEmpty)
  }

  /// A claim holds until it is released or grows older than the timeout.
  @Test func aClaimIsOneSendersUntilReleasedOrStale() throws {
    let reports = try StateDatabase.open(path: path).reports
    let report = try reports.enqueue(itemID: 1, text: "r", now: now, claimedBy: "a")
    #expect(try !reports.claim(id: report.id, by: "b", now: now + 10, staleAfter: 600))
    #expect(try !reports.claim(id: report.id, by: "a", now: now + 10, staleAfter: 600))
    // The sender died: after the timeout, another takes it.
    #expect(try reports.claim(id: report.id, by: "b", now: now + 601, staleAfter: 600))
    #expect(try !reports.claim(id: report.id, by: "c", now: now + 602, staleAfter: 600))
    // A failed try frees it at once.
    try reports.markFailed(id: report.id, error: "down", refused: false)
    #expect(try reports.claim(id: report.id, by: "c", now: now + 603, staleAfter: 600))
    // A claim from a clock that was set back is not held forever.
    #expect(try reports.claim(id: report.id, by: "d", now: now - 10_000, staleAfter: 600))
    #expect(try !reports.claim(id: 99, by: "e", now: now, staleAfter: 600))
  }

  /// A full disk: the insert fails with SQLite's own words and the queue is as it was.
  @Test func aFullDiskIsAClearErrorAndChangesNothing() async throws {
    let queue = try DatabaseQueue(path: path)
    let state = try StateDatabase(database: queue)
    _ = try state.reports.enqueue(itemID: 1, text: "first", now: now)
    let pages = try await queue.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") } ?? 1
    try await queue.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA max_page_count = \(pages)")
    }
    let big = String(repeating: "Wrong. ", count: 5_000)
    #expect(throws: DirectoryError.self) {
      _ = try state.reports.enqueue(itemID: 2, text: big, now: now)
    }
    do {
      _ = try state.reports.enqueue(itemID: 2, text: big, now: now)
    } catch {
      #expect(error.detail.contains("full"))
    }
    #expect(try state.reports.pending().map(\.text) == ["first"])
    // The desk gives the text back when neither the queue nor the API can take it.
    let outcome = await ReportDesk(queue: state.reports, api: nil).submit(itemID: 2, text: big)
    guard case .notSaved(2, let text, let detail) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(text == big && detail.contains("full"))
  }
}

/// A data API that takes a while to answer 201 and notes each report's item id.
private final class SlowReportAPI: ReportAPI {
  let baseURL = "http://api.test"
  let posted = Mutex<[Int]>([])

  func post(_ path: String, json body: Data) async throws(DataAPIError) -> (
    status: Int, firstLine: String
  ) {
    let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
    posted.withLock { $0.append(object?["itemId"] as? Int ?? -1) }
    try? await Task.sleep(for: .milliseconds(30))
    return (201, "")
  }
}
