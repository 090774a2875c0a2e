import Dispatch
import Foundation
import Synchronization
import Testing

@testable import MigrantChatCore

/// `serve`'s read endpoints: `HEAD` wherever `GET`, and `/contacts/` built once per
/// state of the directory, off the threads that answer everything else.
@Suite struct AssistantServiceReadTests {
  let store = WatchedContactStore()

  func service() throws -> AssistantService {
    try store.memory.replaceContacts(SampleDirectory.contacts(), source: .sample)
    return AssistantService(
      tree: SampleGuidance.tree(), contacts: store, guidanceStore: nil, reports: MemoryReports(),
      version: "0.1.0", stemmer: LightStemmer())
  }

  func get(_ service: AssistantService, _ path: String, method: String = "GET") async
    -> AssistantService.Response
  {
    await service.handle(method: method, path: path, query: [:], body: Data())
  }

  /// RFC 9110 §9.3.2: HEAD is answered wherever GET is (it was 405).
  @Test func headIsAnsweredWhereverGetIs() async throws {
    let service = try service()
    for path in [
      "/version", "/contacts/", "/faq/tags/", "/faq/items", "/data-version", "/webhooks/rest/",
    ] {
      let head = await get(service, path, method: "HEAD")
      #expect(head == (await get(service, path)), "\(path)")
      #expect(head.status == 200, "\(path)")
    }
    let unknown = await get(service, "/nothing", method: "HEAD")
    #expect(unknown.status == 404)
    for path in ["/faq/reports/", "/webhooks/rest/webhook"] {
      let head = await get(service, path, method: "HEAD")
      #expect(head.status == 405 && head.allow == "POST", "\(path)")
    }
    #expect((await get(service, "/version", method: "PUT")).allow == "GET, HEAD")
  }

  /// `/contacts/` is read and serialised once, and again only when the directory
  /// changes (it was rebuilt on every request: 1.9 s each at 20,000 offices).
  @Test func contactsAreBuiltOncePerStateOfTheDirectory() async throws {
    let service = try service()
    let first = await get(service, "/contacts/")
    let second = await get(service, "/contacts")
    #expect(first.status == 200 && first == second)
    #expect(store.searches == 1)
    try store.memory.replaceContacts(
      [Contact(id: 7, name: "Synced Office")],
      source: .dataAPI(url: "http://api", syncedAt: Date(timeIntervalSince1970: 5)))
    let synced = await get(service, "/contacts/")
    #expect(store.searches == 2)
    #expect(String(decoding: synced.body, as: UTF8.self).contains("Synced Office"))
  }

  /// While `/contacts/` is being built (held here until released), more requests for
  /// it than Swift's pool has threads wait without holding one: `/version` answers.
  /// The build ran on the requests' own threads before, and with them all held,
  /// `/version` waited for the hold's guard to end it.
  @Test func versionAnswersWhileContactsAreBuilt() async throws {
    let service = try service()
    store.hold()
    let requests = ProcessInfo.processInfo.activeProcessorCount + 2
    try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<requests {
        group.addTask { await get(service, "/contacts/").status }
      }
      await store.waitUntilASearchIsHeld()
      let version = await get(service, "/version")
      #expect(version.status == 200)
      #expect(store.searchesEnded == 0, "/version waited until the held searches ended")
      store.release()
      var statuses: [Int] = []
      for try await status in group { statuses.append(status) }
      #expect(statuses == Array(repeating: 200, count: requests))
    }
    #expect(store.searches == 1)
  }
}

/// A `MemoryContactStore` that counts searches, and can hold them until released.
final class WatchedContactStore: ContactStore {
  let memory = MemoryContactStore()
  private let state = Mutex<(searches: Int, ended: Int, held: Bool)>((0, 0, false))
  private let released = DispatchSemaphore(value: 0)
  private let entered = AsyncStream<Void>.makeStream()

  var searches: Int { state.withLock { $0.searches } }
  var searchesEnded: Int { state.withLock { $0.ended } }

  func hold() { state.withLock { $0.held = true } }

  func release() {
    state.withLock { $0.held = false }
    released.signal()
  }

  func waitUntilASearchIsHeld() async {
    var signs = entered.stream.makeAsyncIterator()
    _ = await signs.next()
  }

  func search(
    _ query: String, language: Language, favourites: Set<Int64>, limit: Int
  ) throws(DirectoryError) -> SearchResult {
    let held = state.withLock { state in
      state.searches += 1
      return state.held
    }
    if held {
      entered.continuation.yield()
      // A guard only: the test releases it; if it never does, the test fails, not hangs.
      // Ten minutes: on a loaded machine `/version` once came 30 s after the hold.
      _ = released.wait(timeout: .now() + 600)
    }
    defer { state.withLock { $0.ended += 1 } }
    return try memory.search(query, language: language, favourites: favourites, limit: limit)
  }

  func contacts(ids: [Int64]) throws(DirectoryError) -> [Contact] {
    try memory.contacts(ids: ids)
  }

  func replaceContacts(_ contacts: [Contact], source: DirectorySource) throws(DirectoryError) {
    try memory.replaceContacts(contacts, source: source)
  }

  func status() throws(DirectoryError) -> DirectoryStatus { try memory.status() }

  func recordSyncAttempt(at time: Date) throws(DirectoryError) {
    try memory.recordSyncAttempt(at: time)
  }
}
