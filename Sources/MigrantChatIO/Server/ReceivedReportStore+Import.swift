import Foundation
import GRDB
import MigrantChatCore

extension ReceivedReportStore {
  /// Copies the reports of the earlier versions' `reports.jsonl` (and its rotated
  /// `reports.jsonl.1`) into a new database, numbers kept.
  ///
  /// Run once, in the transaction that makes the table, so numbering goes on after
  /// the highest old number and no number a client was given is given again. Lines
  /// that are not a report (a torn last line, a hand edit) are skipped. The files are
  /// left as they were, and never read or written again.
  static func importLegacyFile(_ path: String, into db: Database) throws {
    for file in [path + ".1", path] {
      guard let data = FileManager.default.contents(atPath: file) else { continue }
      for line in data.split(separator: UInt8(ascii: "\n")) {
        guard let report = legacyReport(Data(line)) else { continue }
        try db.execute(
          sql: """
            INSERT OR IGNORE INTO report (id, item_id, description, received_at)
            VALUES (?, ?, ?, ?)
            """,
          arguments: [
            report.id, report.itemID, report.description,
            report.receivedAt?.timeIntervalSince1970,
          ])
      }
    }
  }

  /// One line of the old file: `{"id", "itemId", "description", "time"}`.
  static func legacyReport(_ line: Data) -> ReceivedReport? {
    guard let object = try? JSONParser.parse(line),
      let id = wholeNumber(object["id"]), id > 0,
      let itemID = wholeNumber(object["itemId"]),
      case .string(let description)? = object["description"]
    else { return nil }
    let time = object["time"]?.stringValue.flatMap { ISO8601DateFormatter().date(from: $0) }
    return ReceivedReport(id: id, itemID: itemID, description: description, receivedAt: time)
  }

  private static func wholeNumber(_ value: JSONValue?) -> Int64? {
    guard case .number(let number)? = value, abs(number) < 1e15, number == number.rounded()
    else { return nil }
    return Int64(number)
  }
}
