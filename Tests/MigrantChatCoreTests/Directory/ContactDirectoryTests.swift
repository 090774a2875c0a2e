import Foundation
import Synchronization
import Testing

@testable import MigrantChatCore

@Suite struct ContactDirectoryTests {
  /// `replay` against a server runs its conversations on the HTTP I/O thread; the
  /// directory's SQLite work (which may wait for a lock) runs on its own queue.
  @Test func theDirectoryNeverWorksOnItsCallersIOThread() async throws {
    let directory = ContactDirectory(
      store: MemoryContactStore(), favourites: MemoryFavouriteStore(), sync: nil)
    let io = IOProbe.Executor()
    let before = IOProbe.hits.withLock { $0.count }
    let hitsOnIO = await withTaskExecutorPreference(io) { () async -> Int in
      _ = try? await directory.contacts(ids: [1])
      _ = try? await directory.search("office", language: .en)
      // The probe itself works: a store called from this task directly is seen.
      _ = try? MemoryContactStore().contacts(ids: [1])
      return IOProbe.hits.withLock { $0.count } - before
    }
    #expect(hitsOnIO == 1, "only the direct call: \(IOProbe.hits.withLock { $0 })")
  }

  let store = MemoryContactStore()
  let clock = TestClock()

  func directory(_ api: FakeDataAPI?) -> ContactDirectory {
    let clock = self.clock
    let sync = api.map {
      DirectorySync(
        api: $0, store: store, policy: .once, sleep: { _ in }, now: { clock.now })
    }
    return ContactDirectory(
      store: store, favourites: MemoryFavouriteStore(), sync: sync, now: { clock.now })
  }

  @Test func backgroundSyncRunsAtMostOnceAnHour() async {
    let api = FakeDataAPI { _ in .success(FakeDataAPI.items([1])) }
    let directory = directory(api)
    #expect(await directory.syncIfDue() == .updated(count: 1, skipped: 0))
    clock.advance(59 * 60)
    #expect(await directory.syncIfDue() == .notDue)
    clock.advance(2 * 60)
    #expect(await directory.syncIfDue() != .notDue)
    // Asking always syncs.
    #expect(await directory.syncNow() != .notDue)
    #expect(api.requests.filter { $0 == "/contacts/" || $0.hasPrefix("/data-version") }.count == 3)
  }

  @Test func withoutADataAPIThereIsNoSync() async {
    #expect(await directory(nil).syncNow() == .notConfigured)
    #expect(await directory(nil).syncIfDue() == .notConfigured)
  }

  @Test func anUnknownIDTriggersOneSyncAMinute() async throws {
    try store.replaceContacts([Contact(id: 1, name: "Known")], source: .sample)
    let api = FakeDataAPI { _ in .success(FakeDataAPI.items([1, 2])) }
    let directory = directory(api)
    let (cards, outcome) = await directory.cards(for: ["1", "2"])
    #expect(outcome == .updated(count: 2, skipped: 0))
    #expect(cards.found.keys.sorted() == ["1", "2"])

    // Still missing: no second sync within the minute.
    let (again, noSync) = await directory.cards(for: ["999999"])
    #expect(noSync == nil)
    #expect(again.found.isEmpty && again.resolved)
    #expect(api.requests.count == 1)
    clock.advance(61)
    _ = await directory.cards(for: ["999999"])
    #expect(api.requests.count == 2)
  }

  @Test func knownIDsNeedNoSyncAndOddIDsAreJustMissing() async throws {
    try store.replaceContacts([Contact(id: 138503, name: "Centre")], source: .sample)
    let api = FakeDataAPI { _ in .failure(.cancelled) }
    let directory = directory(api)
    let (cards, outcome) = await directory.cards(for: ["138503", " 138503 "])
    #expect(outcome == nil)
    #expect(cards.found.count == 2)
    #expect(api.requests.isEmpty)
    let (odd, _) = await directory.cards(for: ["abc", "1.5", "-"])
    #expect(odd.found.isEmpty && odd.resolved)
  }

  @Test func concurrentSyncRequestsShareOneRun() async {
    let api = FakeDataAPI { _ in
      Thread.sleep(forTimeInterval: 0.05)
      return .success(FakeDataAPI.items([1]))
    }
    let directory = directory(api)
    async let first = directory.syncNow()
    async let second = directory.syncNow()
    let outcomes = await [first, second]
    #expect(outcomes.allSatisfy { $0 == .updated(count: 1, skipped: 0) })
    #expect(api.requests == ["/contacts/"])
  }

  @Test func favouritesNeedAKnownContact() async throws {
    try store.replaceContacts([Contact(id: 5, name: "Five")], source: .sample)
    let directory = directory(nil)
    #expect(try await directory.addFavourite(5)?.name == "Five")
    #expect(try await directory.addFavourite(6) == nil)
    #expect(try await directory.favourites() == [5])
    #expect(try await directory.removeFavourite(5))
    #expect(try await !directory.removeFavourite(5))
  }

  @Test func theSampleIsMarkedAndCoversTheIssuesSearches() throws {
    let sample = SampleDirectory.contacts()
    #expect(sample.count >= 12)
    let json =
      try JSONSerialization.jsonObject(with: SampleDirectory.contactsPayload) as? [String: Any]
    #expect(json?["sample"] as? Bool == true)
    #expect((json?["notice"] as? String)?.contains("SAMPLE") == true)
    for contact in sample {
      for language in Language.allCases {
        #expect(contact.localized[language]?.name?.isEmpty == false, "\(contact.id) \(language)")
      }
    }
    #expect(sample.contains { $0.address?.contains("Mečová") == true })
    #expect(sample.contains { $0.city == "Letohrad" })
  }
}
