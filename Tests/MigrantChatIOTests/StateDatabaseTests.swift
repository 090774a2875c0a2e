import Foundation
import GRDB
import MigrantChatCore
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

  /// Two connections (as two processes) change different fields of one task: both stay.
  @Test func twoWritersEditingOneTaskLoseNeitherChange() async throws {
    let first = try StateDatabase.open(path: path).todos
    let second = try StateDatabase.open(path: path).todos
    _ = try first.add([TodoDraft(title: "Shared")], now: now)
    await withTaskGroup(of: Void.self) { group in
      for round in 0..<50 {
        group.addTask { _ = try? first.update(id: 1, TodoChange(place: "P\(round)"), now: Date()) }
        group.addTask {
          _ = try? second.update(
            id: 1, TodoChange(due: .some(DayDate(iso: "2026-12-01"))), now: Date())
        }
        group.addTask { _ = try? second.setDone(id: 1, round % 2 == 0, now: Date()) }
      }
    }
    let task = try #require(try first.task(id: 1))
    #expect(task.place.hasPrefix("P"))
    #expect(task.due == DayDate(iso: "2026-12-01"))
    #expect(task.title == "Shared")
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
