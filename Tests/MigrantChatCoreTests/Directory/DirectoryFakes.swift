import Foundation
import Synchronization

@testable import MigrantChatCore

/// A data API that answers from a script and records what was asked.
final class FakeDataAPI: DataAPI {
  let baseURL: String
  private let script: @Sendable (String) -> Result<Data, DataAPIError>
  private let asked = Mutex<[String]>([])

  init(
    baseURL: String = "http://data.test",
    _ script: @escaping @Sendable (String) -> Result<Data, DataAPIError>
  ) {
    self.baseURL = baseURL
    self.script = script
  }

  var requests: [String] { asked.withLock { $0 } }

  func get(_ path: String) async throws(DataAPIError) -> Data {
    asked.withLock { $0.append(path) }
    return try script(path).get()
  }

  /// `{"items": [...]}` with contacts named "Office <id>".
  static func items(_ ids: [Int]) -> Data {
    Data(
      (#"{"items":["# + ids.map { #"{"id":\#($0),"name":"Office \#($0)"}"# }.joined(separator: ",")
        + "]}").utf8)
  }
}

/// A contact store in memory, with the same all-or-nothing replace.
final class MemoryContactStore: ContactStore {
  private struct State {
    var contacts: [Int64: Contact] = [:]
    var source: DirectorySource?
    var lastAttempt: Date?
  }
  private let state = Mutex(State())

  func contacts(ids: [Int64]) throws(DirectoryError) -> [Contact] {
    IOProbe.note("contacts")
    return state.withLock { state in ids.compactMap { state.contacts[$0] } }
  }

  func search(
    _ query: String, language: Language, favourites: Set<Int64>, limit: Int
  ) throws(DirectoryError) -> SearchResult {
    IOProbe.note("search")
    let terms = SearchText.keys(query)
    let all = state.withLock { Array($0.contacts.values) }
    let matches = all.filter { contact in
      let words = SearchText.keys(contact.allNames.joined(separator: " "))
      return terms.allSatisfy { term in words.contains { $0.hasPrefix(term) } }
    }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    return SearchResult(contacts: Array(matches.prefix(limit)), total: matches.count)
  }

  func replaceContacts(_ contacts: [Contact], source: DirectorySource) throws(DirectoryError) {
    state.withLock {
      $0.contacts = Dictionary(contacts.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
      $0.source = source
    }
  }

  func status() throws(DirectoryError) -> DirectoryStatus {
    state.withLock {
      DirectoryStatus(source: $0.source, count: $0.contacts.count, lastAttempt: $0.lastAttempt)
    }
  }

  func recordSyncAttempt(at time: Date) throws(DirectoryError) {
    state.withLock { $0.lastAttempt = time }
  }
}

final class MemoryFavouriteStore: FavouriteStore {
  private let ids = Mutex(Set<Int64>())

  func favourites() throws(DirectoryError) -> Set<Int64> { ids.withLock { $0 } }

  func addFavourite(_ id: Int64, name: String) throws(DirectoryError) {
    _ = ids.withLock { $0.insert(id) }
  }

  func removeFavourite(_ id: Int64) throws(DirectoryError) -> Bool {
    ids.withLock { $0.remove(id) != nil }
  }
}

/// A clock the test moves by hand.
final class TestClock: Sendable {
  private let time = Mutex(Date(timeIntervalSince1970: 1_790_000_000))
  var now: Date { time.withLock { $0 } }
  func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
}

/// Records the pauses a sync asks for, without waiting.
final class RecordedSleeps: Sendable {
  private let pauses = Mutex<[Double]>([])
  var all: [Double] { pauses.withLock { $0 } }
  var sleep: @Sendable (Double) async throws -> Void {
    { [self] seconds in self.pauses.withLock { $0.append(seconds) } }
  }
}

final class MemoryGuidanceStore: GuidanceStore {
  private struct State {
    var tags: [FaqTag] = []
    var items: [FaqItem] = []
    var sources: [String: DirectorySource] = [:]
  }
  private let state = Mutex(State())

  func guidance() throws(DirectoryError) -> (tags: [FaqTag], items: [FaqItem]) {
    state.withLock { ($0.tags, $0.items) }
  }

  func replaceFaqTags(_ tags: [FaqTag], source: DirectorySource) throws(DirectoryError) {
    state.withLock {
      $0.tags = tags
      $0.sources["faq_tags"] = source
    }
  }

  func replaceFaqItems(_ items: [FaqItem], source: DirectorySource) throws(DirectoryError) {
    state.withLock {
      $0.items = items
      $0.sources["faq_items"] = source
    }
  }

  func guidanceSource(_ table: String) throws(DirectoryError) -> DirectorySource? {
    state.withLock { $0.sources[table] }
  }
}

/// A guidance store that counts how often the guides themselves are read.
final class CountingGuidanceStore: GuidanceStore {
  private let store = MemoryGuidanceStore()
  private let count = Mutex(0)
  var reads: Int { count.withLock { $0 } }

  func guidance() throws(DirectoryError) -> (tags: [FaqTag], items: [FaqItem]) {
    count.withLock { $0 += 1 }
    return try store.guidance()
  }

  func guidanceOutline() throws(DirectoryError) -> (
    tags: [FaqTag], outline: [FaqOutline], isSample: Bool
  ) {
    let (tags, items) = try store.guidance()
    return (tags, items.map(FaqOutline.init), true)
  }

  func replaceFaqTags(_ tags: [FaqTag], source: DirectorySource) throws(DirectoryError) {
    try store.replaceFaqTags(tags, source: source)
  }

  func replaceFaqItems(_ items: [FaqItem], source: DirectorySource) throws(DirectoryError) {
    try store.replaceFaqItems(items, source: source)
  }

  func guidanceSource(_ table: String) throws(DirectoryError) -> DirectorySource? {
    try store.guidanceSource(table)
  }
}
