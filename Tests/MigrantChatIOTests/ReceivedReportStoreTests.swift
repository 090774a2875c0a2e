import Foundation
import GRDB
import MigrantChatCore
import Synchronization
import TestSupport
import Testing

@testable import MigrantChatIO

/// `serve`'s reports database: numbered by SQLite, shared by processes, the old file
/// imported once.
@Suite struct ReceivedReportStoreTests {
  let directory = TemporaryDirectory()
  var path: String { directory.path + "/reports.sqlite" }

  /// Two stores on one file (as two `serve`) at once: every number once.
  @Test func twoStoresNeverGiveOneNumberTwice() async throws {
    let stores = [ReceivedReportStore(path: path), ReceivedReportStore(path: path)]
    let numbers = try await withThrowingTaskGroup(of: [Int].self) { group in
      for store in stores {
        group.addTask {
          var numbers: [Int] = []
          for _ in 0..<100 { numbers.append(try await store.record(itemID: 10, description: "d")) }
          return numbers
        }
      }
      return try await group.reduce([], +)
    }
    #expect(numbers.sorted() == Array(1...200))
    #expect(try stores[0].all().count == 200)
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  /// Past `maxReports` the oldest go; numbers are never given again.
  @Test func theOldestGoPastTheLimit() async throws {
    let store = ReceivedReportStore(path: path, maxReports: 3)
    for number in 1...5 {
      #expect(try await store.record(itemID: 10, description: "r\(number)") == number)
    }
    #expect(try store.all().map(\.id) == [3, 4, 5])
    #expect(try store.all().map(\.description) == ["r3", "r4", "r5"])
  }

  /// The earlier versions' `reports.jsonl` (and `.1`) are imported once, numbers kept
  /// (a torn or damaged line skipped), and numbering goes on after the highest; the
  /// files are left as they were.
  @Test func theOldFileIsImportedOnce() async throws {
    let legacy = directory.path + "/reports.jsonl"
    let old = #"{"id":3,"itemId":1,"description":"rotated","time":"2025-01-02T03:04:05Z"}"# + "\n"
    let current =
      #"{"description":"kept","id":41,"itemId":20,"time":"2025-02-01T00:00:00Z"}"# + "\n"
      + "not json\n" + #"{"id":7,"itemId":1}"# + "\n" + #"{"description":"torn wri"#
    try old.write(toFile: legacy + ".1", atomically: true, encoding: .utf8)
    try current.write(toFile: legacy, atomically: true, encoding: .utf8)
    let store = ReceivedReportStore(path: path)
    #expect(store.legacyPath == legacy)
    #expect(try await store.record(itemID: 10, description: "new") == 42)
    let all = try store.all()
    #expect(all.map(\.id) == [3, 41, 42])
    #expect(all[1].description == "kept" && all[1].itemID == 20)
    #expect(all[0].receivedAt == Date(timeIntervalSince1970: 1_735_787_045))
    // A second store (another `serve`, a restart) does not import it again.
    try (current + "\n" + #"{"id":90,"itemId":1,"description":"later"}"# + "\n")
      .write(toFile: legacy, atomically: true, encoding: .utf8)
    let restarted = ReceivedReportStore(path: path)
    #expect(try await restarted.record(itemID: 10, description: "after") == 43)
    #expect(try restarted.all().count == 4)
    #expect(FileManager.default.fileExists(atPath: legacy + ".1"))
  }

  /// A database held by another connection (another process, a slow disk) makes the
  /// report wait on the store's own queue, and the report is stored once it is free.
  @Test func aHeldDatabaseDelaysTheReportUntilItIsFree() async throws {
    let store = ReceivedReportStore(path: path)
    #expect(try await store.record(itemID: 10, description: "first") == 1)
    let holder = try DatabaseLockHolder(path: path)
    let waiting = Task { try await store.record(itemID: 10, description: "second") }
    try holder.release()
    #expect(try await waiting.value == 2)
  }
}

/// Another connection holding `BEGIN EXCLUSIVE` on a database, as another process would.
final class DatabaseLockHolder: Sendable {
  private let queue: DatabaseQueue

  init(path: String) throws {
    var configuration = Configuration()
    // The point: a transaction held open across calls, as another process holds it.
    configuration.allowsUnsafeTransactions = true
    queue = try DatabaseQueue(path: path, configuration: configuration)
    try queue.writeWithoutTransaction { try $0.execute(sql: "BEGIN EXCLUSIVE") }
  }

  func release() throws {
    try queue.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
  }
}
