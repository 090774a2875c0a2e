import Foundation
import MigrantChatCore
import TestSupport
import Testing

@testable import MigrantChatIO

/// The in-memory search index finds what FTS5 finds (it answers while a large
/// index is built), and more: typos, words that match nothing left out.
@Suite struct SearchIndexTests {
  let home = TemporaryDirectory()

  static let cities = ["Praha", "Brno", "Ostrava", "Plzeň", "České Budějovice", "Ústí nad Labem"]
  static let streets = ["Mečová", "Polní", "Masarykova", "Žižkova", "Nádražní"]
  static let kinds = [
    ("Integration Centre", "Интеграционный центр", "Інтеграційний центр"),
    ("Labour Office", "Бюро по труду", "Бюро праці"),
    ("Residence Office", "Отдел пребывания", "Відділ перебування"),
  ]

  static func generated(_ count: Int) -> [Contact] {
    (1...count).map { id in
      let city = cities[id % cities.count]
      let kind = kinds[id % kinds.count]
      var contact = Contact(
        id: Int64(id), name: "\(kind.0) \(city) \(id)",
        localized: [
          .ru: Contact.LocalizedAttributes(name: "\(kind.1) \(id)"),
          .uk: Contact.LocalizedAttributes(name: "\(kind.2) \(id)"),
        ])
      contact.city = city
      contact.address = "\(streets[(id / 7) % streets.count]) \(id % 90 + 1), \(city)"
      return contact
    }
  }

  static let queries = [
    "b", "br", "brn", "brno", "pra", "ceske", "české bud", "mecova", "žiž", "centre", "centre br",
    "labour 1", "12", "office pl", "бюро", "бю", "центр", "інтегр", "відділ", "xyz", "brno zzz",
    "usti nad", "o", "of",
  ]

  /// Queries whose words are all short (no typos) and all in the data: both find the same.
  static let sameInBoth: Set<String> = [
    "b", "br", "brn", "brno", "pra", "žiž", "labour 1", "12", "бюро", "бю", "центр", "usti nad",
    "o", "of", "xyz",
  ]

  @Test(arguments: [Language.en, .ru, .uk])
  func theIndexFindsWhatFTSFinds(language: Language) throws {
    let store = try SQLiteContactStore.open(path: home.path + "/directory.sqlite")
    try store.replaceContacts(Self.generated(3000), source: .sample)
    let favourites: Set<Int64> = [5, 77, 1234, 2999]
    for query in Self.queries {
      let fts = try store.searchFTS(
        query, language: language, favourites: favourites, limit: 5000)
      let index = try store.search(query, language: language, favourites: favourites, limit: 5000)
      let found = Set(index.contacts.map(\.id))
      #expect(Set(fts.contacts.map(\.id)).isSubset(of: found), "\(query) \(language)")
      #expect(index.total >= fts.total, "\(query) \(language)")
      if Self.sameInBoth.contains(query) {
        #expect(index.total == fts.total, "\(query) \(language)")
        #expect(found == Set(fts.contacts.map(\.id)), "\(query) \(language)")
      }
      // Favourites come first in both.
      for result in [fts, index] {
        let ids = result.contacts.map(\.id)
        let firstOther = ids.firstIndex { !favourites.contains($0) } ?? ids.count
        #expect(ids[firstOther...].allSatisfy { !favourites.contains($0) }, "\(query)")
      }
      for limit in [0, 1, 20] {
        let limited = try store.search(
          query, language: language, favourites: favourites, limit: limit)
        // The same order whatever the limit (a city query lists all its offices anyway).
        let ids = limited.contacts.map(\.id)
        #expect(limited.total == index.total)
        #expect(ids == Array(index.contacts.map(\.id).prefix(ids.count)), "\(query) \(limit)")
        #expect(ids.count >= min(limit, index.total), "\(query) \(limit)")
      }
    }
    #expect(try store.searchIndex() != nil)
    // "brno" names a city: every office there, beyond the limit.
    let brno = try store.search("brno", language: language, favourites: [], limit: 1)
    #expect(brno.total == 500 && brno.contacts.count == 100, "up to 100 of a city's offices")
  }

  @Test func aNewTableIsIndexedAgain() throws {
    let store = try SQLiteContactStore.open(path: home.path + "/directory.sqlite")
    try store.replaceContacts(Self.generated(100), source: .sample)
    #expect(try store.search("brno", language: .en, favourites: [], limit: 5).total > 0)
    var renamed = Contact(id: 1, name: "Only Office")
    renamed.city = "Zlín"
    try store.replaceContacts([renamed], source: .sample)
    #expect(try store.search("brno", language: .en, favourites: [], limit: 5).total == 0)
    #expect(
      try store.search("zli", language: .en, favourites: [], limit: 5).contacts.map(\.id) == [1])
  }

  /// Another process's sync is noticed too: the generation is in the file.
  @Test func aSyncByAnotherConnectionIsNoticed() throws {
    let path = home.path + "/directory.sqlite"
    let reader = try SQLiteContactStore.open(path: path)
    let writer = try SQLiteContactStore.open(path: path)
    try writer.replaceContacts(Self.generated(50), source: .sample)
    let before = try reader.search("ostrava", language: .en, favourites: [], limit: 50)
    #expect(before.total > 0 && before.contacts.contains { $0.id == 8 })
    try writer.replaceContacts([Contact(id: 8, name: "Ostrava Nová")], source: .sample)
    // The same id with a new name: the decoded rows of the last generation are not reused.
    let after = try reader.search("ostrava", language: .en, favourites: [], limit: 50)
    #expect(after.total == 1 && after.contacts.first?.name == "Ostrava Nová")
  }

  /// A large directory: FTS5 answers until the index, built on another thread, is ready.
  @Test func aLargeDirectoryIsIndexedInTheBackground() throws {
    let store = try SQLiteContactStore.open(path: home.path + "/directory.sqlite")
    store.buildIndexInBackground(above: 100)
    try store.replaceContacts(Self.generated(2000), source: .sample)
    let first = try store.search("brno", language: .en, favourites: [], limit: 20)
    var index: ContactSearchIndex?
    for _ in 0..<500 where index == nil {
      index = try store.searchIndex()
      if index == nil { Thread.sleep(forTimeInterval: 0.01) }
    }
    #expect(index?.count == 2000)
    let later = try store.search("brno", language: .en, favourites: [], limit: 20)
    #expect(later.total == first.total)
    #expect(Set(first.contacts).isSubset(of: Set(later.contacts)))
    #expect(later.contacts.count == min(later.total, 100), "a city query lists its offices")
  }

  /// A build that fails is not retried on every search: FTS5 answers for that table
  /// generation, and a new generation (a sync) tries again. Both sizes: built on the
  /// first search, and on another thread.
  @Test(arguments: [false, true])
  func aFailedIndexBuildIsTriedOncePerGeneration(inBackground: Bool) throws {
    let store = try SQLiteContactStore.open(path: home.path + "/directory.sqlite")
    if inBackground { store.buildIndexInBackground(above: 10) }
    try store.replaceContacts(Self.generated(50), source: .sample)
    store.readIndexRows { () throws(DirectoryError) -> [ContactSearchIndex.Row] in
      throw .storage(detail: "planted")
    }
    let expected = try store.searchFTS("ostrava", language: .en, favourites: [], limit: 20)
    for _ in 0..<20 {
      #expect(try store.search("ostrava", language: .en, favourites: [], limit: 20) == expected)
      Thread.sleep(forTimeInterval: 0.005)
    }
    #expect(store.indexBuilds == 1)
    try store.replaceContacts(Self.generated(60), source: .sample)
    _ = try store.search("ostrava", language: .en, favourites: [], limit: 20)
    #expect(store.indexBuilds == 2)
  }
}
