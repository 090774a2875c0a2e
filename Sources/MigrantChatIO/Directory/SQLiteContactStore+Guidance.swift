import Foundation
import GRDB
import MigrantChatCore

/// The guidance tables, beside the contacts in the same cache file.
extension SQLiteContactStore: GuidanceStore {
  public func guidance() throws(DirectoryError) -> (tags: [FaqTag], items: [FaqItem]) {
    try reading { db in
      // Read by hand (`FaqItem.stored`): this is before the offline assistant's first answer.
      let tags = try String.fetchAll(db, sql: "SELECT payload FROM faq_tag ORDER BY id")
        .compactMap(FaqTag.stored)
      let items = try String.fetchAll(db, sql: "SELECT payload FROM faq_item ORDER BY id")
        .compactMap(FaqItem.stored)
      return (tags, items)
    }
  }

  /// The tags, and the guides' outlines from their own columns (no payload parsed).
  public func guidanceOutline() throws(DirectoryError) -> (
    tags: [FaqTag], outline: [FaqOutline], isSample: Bool
  ) {
    try reading { db in
      let tags = try String.fetchAll(db, sql: "SELECT payload FROM faq_tag ORDER BY id")
        .compactMap(FaqTag.stored)
      var outline: [FaqOutline] = []
      let rows = try Row.fetchCursor(
        db, sql: "SELECT id, parent_id, tags FROM faq_item ORDER BY id")
      while let row = try rows.next() {
        outline.append(
          FaqOutline(id: row[0], parentID: row[1], tags: Self.ids(inJSONArray: row[2])))
      }
      let sample = Self.source(of: "faq_items", in: try Self.meta(db))?.isSample == true
      return (tags, outline, sample)
    }
  }

  /// `[1,2]` as written by `insert`; anything else is no ids.
  static func ids(inJSONArray text: String) -> [Int64] {
    guard case .array(let values)? = try? JSONParser.parse(text) else { return [] }
    return values.compactMap { value in
      guard case .number(let number) = value else { return nil }
      return Int64(exactly: number)
    }
  }

  public func replaceFaqTags(_ tags: [FaqTag], source: DirectorySource) throws(DirectoryError) {
    try replace(table: "faq_tag", meta: "faq_tags", rows: tags.map { ($0.id, $0) }, source: source)
  }

  public func replaceFaqItems(_ items: [FaqItem], source: DirectorySource) throws(DirectoryError) {
    try writing { db in try Self.insert(items, source: source, into: db) }
  }

  public func guidanceSource(_ table: String) throws(DirectoryError) -> DirectorySource? {
    try reading { db in Self.source(of: table, in: try Self.meta(db)) }
  }

  /// Fills the guidance tables from the sample when they were never filled.
  public func fillGuidanceIfEmpty(tags: [FaqTag], items: [FaqItem]) throws(DirectoryError) {
    try writing { db in
      let meta = try Self.meta(db)
      if Self.source(of: "faq_tags", in: meta) == nil {
        try Self.insert(
          table: "faq_tag", meta: "faq_tags", rows: tags.map { ($0.id, $0) }, source: .sample,
          into: db)
      }
      if Self.source(of: "faq_items", in: meta) == nil {
        try Self.insert(items, source: .sample, into: db)
      }
    }
  }

  private func replace<Row: Encodable>(
    table: String, meta: String, rows: [(Int64, Row)], source: DirectorySource
  ) throws(DirectoryError) {
    try writing { db in
      try Self.insert(table: table, meta: meta, rows: rows, source: source, into: db)
    }
  }

  /// The table names come from this file, never from input.
  private static func insert<Row: Encodable>(
    table: String, meta: String, rows: [(Int64, Row)], source: DirectorySource, into db: Database
  ) throws {
    try db.execute(sql: "DELETE FROM \(table)")
    let statement = try db.makeStatement(
      sql: "INSERT OR REPLACE INTO \(table) (id, payload) VALUES (?, ?)")
    let encoder = JSONEncoder()
    for (id, row) in rows {
      try statement.execute(arguments: [
        id, String(decoding: try encoder.encode(row), as: UTF8.self),
      ])
    }
    try setSource(source, of: meta, in: db)
  }

  /// The guides, with where each hangs in its own columns (`guidanceOutline`).
  private static func insert(
    _ items: [FaqItem], source: DirectorySource, into db: Database
  ) throws {
    try db.execute(sql: "DELETE FROM faq_item")
    let statement = try db.makeStatement(
      sql: "INSERT OR REPLACE INTO faq_item (id, payload, parent_id, tags) VALUES (?, ?, ?, ?)")
    let encoder = JSONEncoder()
    for item in items {
      try statement.execute(arguments: [
        item.id, String(decoding: try encoder.encode(item), as: UTF8.self), item.parentID,
        "[" + item.tags.map(String.init).joined(separator: ",") + "]",
      ])
    }
    try setSource(source, of: "faq_items", in: db)
  }
}
