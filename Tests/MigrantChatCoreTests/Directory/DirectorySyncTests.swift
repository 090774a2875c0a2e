import Foundation
import Synchronization
import Testing

@testable import MigrantChatCore

@Suite struct DirectorySyncTests {
  let store = MemoryContactStore()
  let clock = TestClock()
  let sleeps = RecordedSleeps()

  func sync(_ api: FakeDataAPI, policy: RetryPolicy = RetryPolicy()) -> DirectorySync {
    let clock = self.clock
    return DirectorySync(
      api: api, store: store, policy: policy, sleep: sleeps.sleep, now: { clock.now })
  }

  @Test func firstSyncFetchesContactsWithoutAskingWhatChanged() async throws {
    let api = FakeDataAPI { _ in .success(FakeDataAPI.items([1, 2, 3])) }
    #expect(await sync(api).run() == .updated(count: 3, skipped: 0))
    #expect(api.requests == ["/contacts/"])
    let status = try store.status()
    #expect(status.count == 3)
    #expect(status.source == .dataAPI(url: "http://data.test", syncedAt: clock.now))
    #expect(status.lastAttempt == clock.now)
  }

  @Test func noChangeSyncAsksDataVersionSinceTheLastSyncAndFetchesNothing() async throws {
    try store.replaceContacts(
      [Contact(id: 1, name: "Old")],
      source: .dataAPI(
        url: "http://data.test", syncedAt: Date(timeIntervalSince1970: 1_700_000_000)))
    let api = FakeDataAPI { path in
      path.hasPrefix("/data-version")
        ? .success(Data(#"["faq_items"]"#.utf8)) : .failure(.cancelled)
    }
    #expect(await sync(api).run() == .unchanged)
    #expect(api.requests == ["/data-version?fromTimestamp=1700000000"])
    #expect(try store.contacts(ids: [1]).first?.name == "Old")
  }

  @Test func changedSyncReplacesTheTable() async throws {
    try store.replaceContacts(
      [Contact(id: 1, name: "Old"), Contact(id: 9, name: "Gone")],
      source: .dataAPI(url: "http://data.test", syncedAt: Date(timeIntervalSince1970: 5)))
    let api = FakeDataAPI { path in
      path.hasPrefix("/data-version")
        ? .success(Data(#"["contacts", 7, null]"#.utf8)) : .success(FakeDataAPI.items([1, 2]))
    }
    #expect(await sync(api).run() == .updated(count: 2, skipped: 0))
    #expect(api.requests == ["/data-version?fromTimestamp=5", "/contacts/"])
    #expect(try store.contacts(ids: [1, 2, 9]).map(\.name).sorted() == ["Office 1", "Office 2"])
  }

  @Test func aCacheFromAnotherServerOrTheSampleIsRefetchedWhole() async throws {
    try store.replaceContacts([Contact(id: 1, name: "Sample")], source: .sample)
    let api = FakeDataAPI { _ in .success(FakeDataAPI.items([4])) }
    #expect(await sync(api).run() == .updated(count: 1, skipped: 0))
    try store.replaceContacts(
      [Contact(id: 1, name: "Other")],
      source: .dataAPI(url: "http://other.test", syncedAt: Date()))
    #expect(await sync(api).run() == .updated(count: 1, skipped: 0))
    #expect(api.requests == ["/contacts/", "/contacts/"])
  }

  @Test(arguments: [
    ("<html>oops</html>", DataAPIError.PayloadProblem.notJSON),
    (#"[{"id":1,"name":"x"}]"#, .notAnItemsObject(got: "array")),
    (#"{"items":{"id":1}}"#, .notAnItemsObject(got: "object")),
    (#"{"data":[]}"#, .notAnItemsObject(got: "object")),
  ])
  func aGarbagePayloadKeepsTheOldData(body: String, problem: DataAPIError.PayloadProblem)
    async throws
  {
    try store.replaceContacts([Contact(id: 1, name: "Kept")], source: .sample)
    let api = FakeDataAPI { _ in .success(Data(body.utf8)) }
    let outcome = await sync(api).run()
    #expect(
      outcome
        == .failed(.badPayload(server: "http://data.test", table: "contacts", problem: problem)))
    #expect(try store.contacts(ids: [1]).first?.name == "Kept")
    #expect(try store.status().source == .sample)
  }

  @Test func aDataVersionThatIsNotAListIsReported() async throws {
    try store.replaceContacts(
      [Contact(id: 1, name: "Kept")],
      source: .dataAPI(url: "http://data.test", syncedAt: Date(timeIntervalSince1970: 5)))
    let api = FakeDataAPI { _ in .success(Data(#"{"contacts":true}"#.utf8)) }
    #expect(
      await sync(api).run()
        == .failed(
          .badPayload(server: "http://data.test", table: "data-version", problem: .notATableList)))
  }

  @Test func badItemsAreSkippedAndCountedTheRestStored() async throws {
    let body = """
      {"items": [
        {"id": 1, "name": "Good"},
        {"id": "2", "name": "String id"},
        {"name": "No id"},
        {"id": 3.5, "name": "Fractional id"},
        {"id": 4, "name": "Bad phone", "phone": 420},
        {"id": 5, "name": ""},
        "not an object",
        {"id": 6, "name": "Also good", "latitude": "50.1", "longitude": 14.4}
      ]}
      """
    let api = FakeDataAPI { _ in .success(Data(body.utf8)) }
    #expect(await sync(api).run() == .updated(count: 3, skipped: 5))
    #expect(try store.contacts(ids: [1, 2, 6]).count == 3)
  }

  @Test func transientFailuresAreRetriedWithBackoffThenGiveUp() async throws {
    let api = FakeDataAPI { _ in
      .failure(.unreachable(server: "http://data.test", reason: .connectionRefused))
    }
    let outcome = await sync(api, policy: RetryPolicy(attempts: 4, baseDelay: 0.5)).run()
    #expect(
      outcome == .failed(.unreachable(server: "http://data.test", reason: .connectionRefused)))
    #expect(api.requests.count == 4)
    let pauses = sleeps.all
    #expect(pauses.count == 3)
    // Each pause lies in the upper half of its exponential step: 0.5, 1, 2 seconds.
    for (pause, step) in zip(pauses, [0.5, 1.0, 2.0]) {
      #expect(pause >= step / 2 && pause <= step)
    }
  }

  @Test func retryAfterIsHonouredAndA5xxIsRetried() async throws {
    let calls = Mutex(0)
    let api = FakeDataAPI { _ in
      let call = calls.withLock { count -> Int in
        count += 1
        return count
      }
      switch call {
      case 1:
        return .failure(
          .httpStatus(server: "http://data.test", status: 429, firstLine: "", retryAfter: 7))
      case 2:
        return .failure(
          .httpStatus(server: "http://data.test", status: 503, firstLine: "", retryAfter: nil))
      default: return .success(FakeDataAPI.items([1]))
      }
    }
    #expect(await sync(api).run() == .updated(count: 1, skipped: 0))
    #expect(sleeps.all.first == 7)
    #expect(sleeps.all.count == 2)
  }

  @Test func aRetryAfterLongerThanTheLimitGivesUpAtOnce() async {
    let api = FakeDataAPI { _ in
      .failure(
        .httpStatus(server: "http://data.test", status: 429, firstLine: "", retryAfter: 3600))
    }
    #expect(await sync(api).run().isFailure)
    #expect(api.requests.count == 1)
    #expect(sleeps.all.isEmpty)
  }

  @Test func aClientErrorIsNotRetried() async {
    let api = FakeDataAPI { _ in
      .failure(
        .httpStatus(
          server: "http://data.test", status: 404, firstLine: "Not Found", retryAfter: nil))
    }
    #expect(await sync(api).run().isFailure)
    #expect(api.requests.count == 1)
  }

  @Test func retryAfterHeaderParsing() {
    let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
    #expect(DataAPIError.retryAfterSeconds("120") == 120)
    #expect(DataAPIError.retryAfterSeconds(" 0 ") == 0)
    #expect(DataAPIError.retryAfterSeconds("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == 30)
    #expect(DataAPIError.retryAfterSeconds("-5") == nil)
    #expect(DataAPIError.retryAfterSeconds("soon") == nil)
    #expect(DataAPIError.retryAfterSeconds(nil) == nil)
  }
}

@Suite struct GuidanceSyncTests {
  let store = MemoryContactStore()
  let guidance = MemoryGuidanceStore()

  func sync(_ api: FakeDataAPI) -> DirectorySync {
    DirectorySync(api: api, store: store, guidance: guidance, policy: .once, sleep: { _ in })
  }

  static let tags = #"{"items":[{"id":1,"name":"Work"}]}"#
  static let items =
    #"{"items":[{"id":10,"parentId":null,"title":"Jobs","tags":[1]},{"title":"no id"}]}"#

  /// A server that stayed down through every try of the first table is not asked for the
  /// others (#14: 8 s of silence for three tables); progress says what is happening.
  @Test func aServerThatIsDownIsNotAskedForTheNextTables() async throws {
    let api = FakeDataAPI { _ in
      .failure(.unreachable(server: "http://data.test", reason: .connectionRefused))
    }
    let steps = Mutex<[DirectorySync.SyncProgress]>([])
    var sync = DirectorySync(
      api: api, store: store, guidance: guidance, policy: RetryPolicy(attempts: 3),
      sleep: { _ in })
    sync.progress = { step in steps.withLock { $0.append(step) } }
    let outcome = await sync.run()
    #expect(outcome.isFailure)
    #expect(api.requests == ["/contacts/", "/contacts/", "/contacts/"])
    let seen = steps.withLock { $0 }
    #expect(seen.first == .fetching(table: "contacts"))
    #expect(seen.filter { if case .retrying = $0 { true } else { false } }.count == 2)
  }

  /// A bad table (not a server down) still lets the others update.
  @Test func aBadTableDoesNotStopTheOthers() async throws {
    let api = FakeDataAPI { path in
      switch path {
      case "/contacts/": .success(Data("not json".utf8))
      case "/faq/tags/": .success(Data(Self.tags.utf8))
      default: .success(Data(Self.items.utf8))
      }
    }
    let outcome = await sync(api).run()
    #expect(outcome.isFailure)
    #expect(api.requests.count == 3)
  }

  @Test func allThreeTablesOnTheFirstSyncThenOnlyWhatChanged() async throws {
    let changed = Mutex<String>("[]")
    let api = FakeDataAPI { path in
      switch path {
      case "/contacts/": .success(FakeDataAPI.items([1]))
      case "/faq/tags/": .success(Data(Self.tags.utf8))
      case "/faq/items/?nested=0&withHtml=true": .success(Data(Self.items.utf8))
      default: .success(Data(changed.withLock { $0 }.utf8))
      }
    }
    // The guide without an id is skipped and counted with the contacts' skips.
    #expect(await sync(api).run() == .updated(count: 1, skipped: 1))
    #expect(api.requests == ["/contacts/", "/faq/tags/", "/faq/items/?nested=0&withHtml=true"])
    let tree = guidance.tree()
    #expect(tree.topics.map(\.name) == ["Work"])
    #expect(tree.guides(tag: 1).map(\.title) == ["Jobs"])

    changed.withLock { $0 = #"["faq_items"]"# }
    // Only the guides changed: an update, with the contact count as it was.
    #expect(await sync(api).run() == .updated(count: 1, skipped: 1))
    #expect(api.requests.count == 5)
    #expect(api.requests[3].hasPrefix("/data-version?fromTimestamp="))
    #expect(api.requests[4] == "/faq/items/?nested=0&withHtml=true")
    #expect(api.requests.filter { $0 == "/contacts/" }.count == 1)
  }

  @Test func aBadGuidanceTableKeepsItsOldDataAndIsReported() async throws {
    try guidance.replaceFaqItems([FaqItem(id: 5, title: "Old guide")], source: .sample)
    let api = FakeDataAPI { path in
      switch path {
      case "/contacts/": .success(FakeDataAPI.items([1, 2]))
      case "/faq/tags/": .success(Data(Self.tags.utf8))
      default: .success(Data("<html>".utf8))
      }
    }
    let outcome = await sync(api).run()
    #expect(
      outcome
        == .failed(.badPayload(server: "http://data.test", table: "faq_items", problem: .notJSON)))
    // The other tables still updated; the bad one kept its rows.
    #expect(try store.status().count == 2)
    #expect(try guidance.guidance().items.map(\.title) == ["Old guide"])
    #expect(try guidance.guidance().tags.map(\.name) == ["Work"])
  }
}
