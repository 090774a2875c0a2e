import Foundation
import GRDB
import MigrantChatCore
import TestSupport
import Testing

@testable import MigrantChatIO

/// A cache written by an earlier version opens, and is searched, with this one's schema.
@Suite struct ContactStoreMigrationTests {
  let home = TemporaryDirectory()
  var path: String { home.path + "/directory.sqlite" }

  @Test func aCacheWithTheOldSearchTableGetsTheNewOne() throws {
    var contact = Contact(id: 7, name: "Integration Centre Brno")
    contact.city = "Brno"
    contact.address = "Mečová 5"
    do {
      // The cache as version 5 left it: positions and column sizes in the FTS5 index.
      let queue = try DatabaseQueue(path: path)
      try SQLiteContactStore.migrator.migrate(queue, upTo: "v5-search-keys")
      try queue.write { db in
        let row = StoredContactRow(contact)
        try db.execute(
          sql: "INSERT INTO contact VALUES (?, ?, ?, ?, ?)",
          arguments: [row.id, row.payload] + StatementArguments(row.sortKeys))
        try db.execute(
          sql: "INSERT INTO contact_search (rowid, names, address, city) VALUES (?, ?, ?, ?)",
          arguments: [row.id, row.names, row.addresses, row.city])
        try SQLiteContactStore.setMeta(db, "source", "sample")
      }
    }
    let store = try SQLiteContactStore.open(path: path)
    let schema = try store.reading { db in
      try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'contact_search'")
    }
    #expect(schema?.contains("detail = none") == true)
    for query in ["brno", "брно", "mecova", "integr"] {
      let found = try store.searchFTS(query, language: .en, favourites: [], limit: 5)
      #expect(found.contacts.map(\.id) == [7], "\(query)")
    }
    // A sync after it writes the same kind of table again.
    try store.replaceContacts([contact], source: .sample)
    #expect(try store.searchFTS("Брно", language: .ru, favourites: [], limit: 5).total == 1)
  }

  static let guides: [FaqItem] = {
    var guide = FaqItem(id: 10, title: "Employee card", text: "<p>Apply at the ministry.</p>")
    guide.tags = [1, 2, 99]
    let answer = FaqItem(id: 11, parentID: 10, title: "Yes", text: "Go to the office.")
    var untagged = FaqItem(id: 12, title: "Other")
    untagged.tags = []
    return [guide, answer, untagged]
  }()

  /// A cache from before the outline columns gets them from its payloads: its guides
  /// hang where they did, under the same topics, without a sync.
  @Test func aCacheWithoutTheOutlineColumnsGetsThemFromItsPayloads() throws {
    do {
      let queue = try DatabaseQueue(path: path)
      try SQLiteContactStore.migrator.migrate(queue, upTo: "v6-search-table-of-keys")
      try queue.write { db in
        for item in Self.guides {
          try db.execute(
            sql: "INSERT INTO faq_item (id, payload) VALUES (?, ?)",
            arguments: [item.id, String(decoding: try JSONEncoder().encode(item), as: UTF8.self)])
        }
        try db.execute(
          sql: "INSERT INTO faq_tag (id, payload) VALUES (1, ?)",
          arguments: [
            String(
              decoding: try JSONEncoder().encode(FaqTag(id: 1, name: "Work", order: 1)),
              as: UTF8.self)
          ])
        try SQLiteContactStore.setMeta(db, "faq_items.source", "https://data.test")
      }
    }
    let store = try SQLiteContactStore.open(path: path)
    let (tags, outline, isSample) = try store.guidanceOutline()
    #expect(tags.map(\.id) == [1])
    #expect(outline == Self.guides.map(FaqOutline.init))
    #expect(!isSample)
    let tree = store.tree()
    #expect(tree.topics.map(\.id) == [1])
    #expect(tree.hasUntaggedGuides)
    #expect(tree.guides(tag: 1).map(\.title) == ["Employee card"])
    #expect(tree.answers(of: Self.guides[0]).map(\.id) == [11])
  }

  /// What a sync writes, the outline reads back; the payload is the whole guide.
  @Test func theOutlineIsWrittenWithEachGuide() throws {
    let store = try SQLiteContactStore.open(path: path)
    try store.replaceFaqItems(Self.guides, source: .sample)
    let (_, outline, isSample) = try store.guidanceOutline()
    #expect(outline == Self.guides.map(FaqOutline.init))
    #expect(isSample)
    #expect(try store.guidance().items == Self.guides)
    #expect(SQLiteContactStore.ids(inJSONArray: "[1,2,3]") == [1, 2, 3])
    #expect(SQLiteContactStore.ids(inJSONArray: "not json").isEmpty)
    #expect(SQLiteContactStore.ids(inJSONArray: #"[1.5,"x",4]"#) == [4])
  }
}

/// Search results' decoded contacts: the recently used stay, memory stays bounded.
@Suite struct RowCacheTests {
  @Test func recentlyUsedContactsStayAndTheCacheStaysBounded() {
    var cache = SQLiteContactStore.RowCache()
    let half = SQLiteContactStore.RowCache.limit / 2
    // A hot contact, used again and again while many others pass through.
    cache.keep(Contact(id: -1, name: "Hot"))
    for id in 0..<Int64(half * 5) {
      cache.keep(Contact(id: id, name: "Office \(id)"))
      if id % 1_000 == 0 { #expect(cache.take(-1)?.name == "Hot", "after \(id)") }
      #expect(cache.count <= SQLiteContactStore.RowCache.limit)
    }
    #expect(cache.take(-1)?.name == "Hot")
    // The oldest of the others are gone, the latest are there.
    #expect(cache.take(0) == nil)
    #expect(cache.take(Int64(half * 5 - 1))?.name == "Office \(half * 5 - 1)")
  }
}
