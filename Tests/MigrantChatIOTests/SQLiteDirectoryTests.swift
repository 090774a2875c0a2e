import Foundation
import MigrantChatCore
import Synchronization
import TestSupport
import Testing

@testable import MigrantChatIO

@Suite struct SQLiteContactStoreTests {
  let home = TemporaryDirectory()
  var path: String { home.path + "/directory.sqlite" }

  static func contact(
    _ id: Int64, _ name: String, city: String? = nil, address: String? = nil,
    ru: String? = nil, uk: String? = nil
  ) -> Contact {
    var contact = Contact(
      id: id, name: name,
      localized: [
        .ru: Contact.LocalizedAttributes(name: ru), .uk: Contact.LocalizedAttributes(name: uk),
      ])
    contact.city = city
    contact.address = address
    return contact
  }

  static let offices = [
    contact(
      1, "Centre for Foreigners", city: "Brno", address: "Mečová 5, 602 00 Brno",
      ru: "Центр для иностранцев", uk: "Центр для іноземців"),
    contact(
      2, "Labour Office", city: "Brno", address: "Polní 37", ru: "Бюро по труду",
      uk: "Бюро праці"),
    contact(3, "Family Centre", city: "Letohrad", address: "Komenského 1"),
    contact(
      4, "Integration Centre", city: "Plzeň", address: "Americká 29",
      ru: "Интеграционный центр", uk: "Інтеграційний центр"),
    contact(5, "Advice Office", city: "Ústí nad Labem", address: "Velká Hradební 8"),
  ]

  func filledStore() throws -> SQLiteContactStore {
    let store = try SQLiteContactStore.open(path: path)
    try store.replaceContacts(Self.offices, source: .sample)
    return store
  }

  func ids(
    _ store: SQLiteContactStore, _ query: String, language: Language = .en,
    favourites: Set<Int64> = []
  ) throws -> [Int64] {
    try store.search(query, language: language, favourites: favourites, limit: 50).contacts.map(
      \.id)
  }

  @Test func searchIgnoresCaseAndDiacritics() throws {
    let store = try filledStore()
    #expect(try ids(store, "mecova") == [1])
    #expect(try ids(store, "MEČOVÁ") == [1])
    #expect(try ids(store, "plzen") == [4])
    #expect(try ids(store, "usti") == [5])
  }

  @Test func searchCoversCityAndAddressNotJustNames() throws {
    let store = try filledStore()
    #expect(try ids(store, "brno") == [1, 2])
    #expect(try ids(store, "polni") == [2])
    #expect(try ids(store, "letohrad") == [3])
  }

  @Test func prefixesMatchAndEveryWordThatMatchesMust() throws {
    let store = try filledStore()
    #expect(try ids(store, "leto") == [3])
    #expect(try ids(store, "cent") == [1, 3, 4])
    #expect(try ids(store, "cent brno") == [1])
    // A word the directory does not have at all is left out, the others must match.
    #expect(try ids(store, "centre zzz") == [1, 3, 4])
    #expect(try ids(store, "zzz qqq").isEmpty)
  }

  @Test func cyrillicNamesInEveryLanguageAreFound() throws {
    let store = try filledStore()
    #expect(try ids(store, "бюро") == [2])
    // Cyrillic "центр" is the whole word in 1's and 4's Russian names, and the start
    // of 3's English "Centre": whole words first.
    #expect(try ids(store, "ЦЕНТР") == [1, 4, 3])
    #expect(try ids(store, "інтегр") == [4])
    // Then by the name in the asked language.
    #expect(try ids(store, "центр", language: .ru) == [4, 1, 3])
  }

  @Test func favouritesComeFirstThenByName() throws {
    let store = try filledStore()
    #expect(try ids(store, "") == [5, 1, 3, 4, 2])
    #expect(try ids(store, "", favourites: [4, 2]) == [4, 2, 5, 1, 3])
    #expect(try ids(store, "brno", favourites: [2]) == [2, 1])
  }

  @Test func oddQueriesAreJustWords() throws {
    let store = try filledStore()
    for query in ["\"", "*", "AND", "NEAR(", "brno OR", "'; DROP TABLE contact; --", "^", ":"] {
      _ = try ids(store, query)
    }
    #expect(try ids(store, "brno\" OR \"x") == ids(store, "brno"))
    #expect(try ids(store, "centre* foreign") == [1])
  }

  @Test func limitAndTotal() throws {
    let store = try filledStore()
    let result = try store.search("", language: .en, favourites: [], limit: 2)
    #expect(result.contacts.count == 2)
    #expect(result.total == 5)
  }

  @Test func replaceIsWholeAndRecordsTheSource() throws {
    let store = try filledStore()
    #expect(try store.status().source == .sample)
    let synced = Date(timeIntervalSince1970: 1_790_000_000)
    try store.replaceContacts(
      [Self.contact(9, "New")], source: .dataAPI(url: "http://d.test", syncedAt: synced))
    #expect(try store.contacts(ids: [1, 9]).map(\.id) == [9])
    #expect(try ids(store, "brno").isEmpty)
    let status = try store.status()
    #expect(status.count == 1)
    #expect(status.source == .dataAPI(url: "http://d.test", syncedAt: synced))
    try store.recordSyncAttempt(at: synced)
    #expect(try store.status().lastAttempt == synced)
  }

  @Test func contactsRoundTripEveryField() throws {
    var full = Self.contact(7, "Full", city: "Zlín", address: "Street 1", ru: "Полный")
    full.description = "d"
    full.phone = "+420 1"
    full.email = "e@x.example"
    full.web = "https://x.example"
    full.facebook = "https://fb.example/x"
    full.openingHours = "Mo"
    full.latitude = 49.2
    full.longitude = 17.6
    full.color = "#E91E63"
    full.order = 3
    let store = try SQLiteContactStore.open(path: path)
    try store.replaceContacts([full], source: .sample)
    #expect(try store.contacts(ids: [7]) == [full])
  }

  @Test func dataSurvivesReopening() throws {
    _ = try filledStore()
    let reopened = try SQLiteContactStore.open(path: path)
    #expect(try reopened.status().count == 5)
  }

  func logSize() -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? -1
  }

  /// A process exits with its connection open, so its writes stay in the log; the
  /// next open copies them into the database and empties the log (#50).
  @Test func theLogAnEarlierRunLeftIsEmptiedAtOpen() throws {
    let earlier = try filledStore()
    #expect(logSize() > 0)
    let next = try SQLiteContactStore.open(path: path)
    #expect(logSize() == 0)
    #expect(try next.status().count == 5)
    #expect(try earlier.status().count == 5)
  }

  /// A log another connection is reading is left for a later start: the open does
  /// not fail (nor wait out the 30 s busy timeout: the checkpoint's is 0).
  @Test func aLogInUseIsLeftAndTheOpenGoesOn() throws {
    let earlier = try filledStore()
    let size = logSize()
    try earlier.database.read { db in
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM contact") == 5)
      let next = try SQLiteContactStore.open(path: path)
      #expect(try next.status().count == 5)
    }
    #expect(logSize() == size)
  }

  @Test func twoConnectionsWritingAtOnceNeverSeeALockedDatabase() throws {
    let first = try SQLiteContactStore.open(path: path)
    let second = try SQLiteContactStore.open(path: path)
    let many = (1...20_000).map { Self.contact(Int64($0), "Office \($0)", city: "Brno") }
    // Dispatch threads, not tasks: SQLite blocks while it waits for the other writer,
    // and blocking the concurrency pool would stall the other suites running meanwhile.
    let failures = Mutex<[any Error]>([])
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      let store = index == 0 ? first : second
      do {
        for round in 0..<3 {
          try store.replaceContacts(
            Array(many.prefix(10_000 + index * 5_000 + round)),
            source: .dataAPI(url: "http://d.test", syncedAt: Date()))
          _ = try store.search("office", language: .en, favourites: [], limit: 5)
        }
      } catch {
        failures.withLock { $0.append(error) }
      }
    }
    #expect(failures.withLock { $0.isEmpty }, "\(failures.withLock { $0 })")
    let count = try first.status().count
    #expect(count == 10_002 || count == 15_002)
  }
}

@Suite struct DirectoryFilesTests {
  let home = TemporaryDirectory()
  var paths: AppPaths { AppPaths(environment: home.environment()) }

  @Test func aNewCacheStartsWithTheSample() throws {
    let files = DirectoryFiles.open(paths: paths)
    #expect(files.notices.isEmpty)
    let status = try files.store.status()
    #expect(status.source == .sample)
    #expect(status.count == SampleDirectory.contacts().count)
    #expect(FileManager.default.fileExists(atPath: DirectoryFiles.cachePath(paths)))
  }

  /// A sample cached before contacts carried their mark is marked at the next start;
  /// a marked sample and a synced directory are left as they are.
  @Test func anUnmarkedSampleIsMarkedAndOthersAreLeftAlone() throws {
    let store = try SQLiteContactStore.inMemory()
    let unmarked = SampleDirectory.contacts().map { contact in
      var old = contact
      old.sample = false
      return old
    }
    try store.replaceContacts(unmarked, source: .sample)
    #expect(DirectoryFiles.loadSampleIfEmpty(store) == .sample)
    let ids = unmarked.map(\.id)
    #expect(try store.contacts(ids: ids).allSatisfy(\.isSample))
    #expect(try store.anyContact()?.isSample == true)

    let synced = try SQLiteContactStore.inMemory()
    let source = DirectorySource.dataAPI(url: "http://x", syncedAt: Date(timeIntervalSince1970: 1))
    try synced.replaceContacts(unmarked, source: source)
    #expect(DirectoryFiles.loadSampleIfEmpty(synced) == source)
    #expect(try synced.contacts(ids: ids).allSatisfy { !$0.isSample })
    #expect(try synced.status().source == source)

    let empty = try SQLiteContactStore.inMemory()
    #expect(try empty.anyContact() == nil)
    // Filled now: where the contacts came from is left to a read of the cache.
    #expect(DirectoryFiles.loadSampleIfEmpty(empty) == nil)
    #expect(try empty.status().count == unmarked.count)
    #expect(try empty.anyContact()?.isSample == true)
  }

  /// The source the cache's opening found is what the cache says (the chat reads it
  /// from there, not from the cache again): unknown on the first start, which fills it.
  @Test func theOpeningTellsWhereTheContactsCameFrom() throws {
    #expect(DirectoryFiles.open(paths: paths).contactsSource == nil)
    let second = DirectoryFiles.open(paths: paths)
    #expect(second.contactsSource == .sample)
    #expect(try second.store.status().source == .sample)
    let source = DirectorySource.dataAPI(url: "http://x", syncedAt: Date(timeIntervalSince1970: 5))
    try second.store.replaceContacts(SampleDirectory.contacts(), source: source)
    #expect(DirectoryFiles.open(paths: paths).contactsSource == source)
  }

  @Test func aCorruptCacheIsMovedAsideAndRebuiltFavouritesIntact() throws {
    let first = DirectoryFiles.open(paths: paths)
    try first.favourites.addFavourite(138503, name: "Centre")
    let cache = DirectoryFiles.cachePath(paths)
    let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    try garbage.write(to: URL(fileURLWithPath: cache))
    unlink(cache + "-wal")
    unlink(cache + "-shm")

    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let second = DirectoryFiles.open(paths: paths, now: now)
    guard case .rebuilt(let aside)? = second.notices.first else {
      Issue.record("not rebuilt: \(second.notices)")
      return
    }
    #expect(aside.hasPrefix(cache + ".corrupt-"))
    #expect(FileManager.default.contents(atPath: aside) == garbage)
    #expect(try second.store.status().source == .sample)
    #expect(try second.favourites.favourites() == [138503])
    // Told once: the next start is quiet.
    #expect(DirectoryFiles.open(paths: paths).notices.isEmpty)
  }

  @Test func wipingTheCacheKeepsFavourites() throws {
    let first = DirectoryFiles.open(paths: paths)
    try first.favourites.addFavourite(138504, name: "Labour")
    try FileManager.default.removeItem(atPath: paths.cacheDirectory)
    let second = DirectoryFiles.open(paths: paths)
    #expect(try second.favourites.favourites() == [138504])
    #expect(try second.store.status().source == .sample)
  }

  @Test func anUnwritableCacheDirectoryFallsBackToMemory() throws {
    // A file where the cache directory should be: it cannot be created.
    try FileManager.default.createDirectory(
      atPath: (paths.cacheDirectory as NSString).deletingLastPathComponent,
      withIntermediateDirectories: true)
    try Data("x".utf8).write(to: URL(fileURLWithPath: paths.cacheDirectory))
    let files = DirectoryFiles.open(paths: paths)
    guard case .cacheUnavailable? = files.notices.first else {
      Issue.record("\(files.notices)")
      return
    }
    #expect(try files.store.status().source == .sample)
    #expect(try files.store.contacts(ids: [138503]).count == 1)
  }

  @Test func theFavouritesFileIsPrivate() throws {
    let files = DirectoryFiles.open(paths: paths)
    try files.favourites.addFavourite(138503, name: "Centre")
    let attributes = try FileManager.default.attributesOfItem(atPath: paths.stateDirectory)
    #expect((attributes[.posixPermissions] as? Int) == 0o700)
    // With its write-ahead log and shared memory, which hold the same data.
    let path = DirectoryFiles.favouritesPath(paths)
    for file in [path, path + "-wal", path + "-shm"] {
      let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions]
      #expect((mode as? Int) == 0o600, "\(file)")
    }
  }
}
