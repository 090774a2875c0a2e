import Foundation
import Synchronization

/// `GET /contacts/`'s answer, built once for each state of the directory.
///
/// At 20,000 offices reading and serialising the whole directory takes about two
/// seconds; rebuilt on every request, four at once held the threads that answer
/// everything else (`/version` waited 7.6 s). It is built again only when the
/// directory changes (another source, or another number of offices: a sync in any
/// process). The check and the build run on this cache's own serial queue, never on
/// Swift's cooperative pool, so requests that come while it is built wait for that
/// one build, and nothing else waits at all.
final class ContactsPayloadCache: Sendable {
  /// What tells one state of the directory from another.
  struct Version: Hashable {
    var source: DirectorySource?
    var count: Int
  }

  private let queue = DispatchQueue(label: "migrant-chat.serve.contacts")
  private let built = Mutex<(version: Version, body: Data)?>(nil)

  /// The contract's `{"items": [...]}` for every office, by id.
  func body(of store: any ContactStore) async throws -> Data {
    try await withCheckedThrowingContinuation { continuation in
      queue.async {
        continuation.resume(with: Result { try self.current(store) })
      }
    }
  }

  private func current(_ store: any ContactStore) throws -> Data {
    dispatchPrecondition(condition: .onQueue(queue))
    let status = try store.status()
    let version = Version(source: status.source, count: status.count)
    if let built = built.withLock({ $0 }), built.version == version { return built.body }
    let all = try store.search("", language: .en, favourites: [], limit: Int.max)
    let body = DataAPIPayload.contacts(all.contacts.sorted { $0.id < $1.id })
    built.withLock { $0 = (version, body) }
    return body
  }
}
