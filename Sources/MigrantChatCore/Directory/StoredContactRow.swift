import Dispatch
import Foundation
import Synchronization

/// What the cache writes for one contact: the payload it is read back from, the
/// keys its name sorts by in each language, and the search keys of its names,
/// addresses and city.
///
/// Made for every contact of a sync, so they are made on every core and before
/// the store takes its write lock (a sync of 100,000 contacts spent two of its
/// five seconds here, on one core, inside the transaction).
public struct StoredContactRow: Sendable, Equatable {
  public var id: Int64
  /// `Contact.storedJSON`.
  public var payload: String
  /// `SortKey.make` of the name in each of `Language.allCases`, in that order.
  public var sortKeys: [String]
  /// `SearchText.keyText` of the names in every language, of the addresses, of the city.
  public var names: String
  public var addresses: String
  public var city: String

  public init(_ contact: Contact) {
    id = contact.id
    payload = contact.storedJSON
    sortKeys = Language.allCases.map { SortKey.make(contact.name(in: $0), language: $0) }
    names = SearchText.keyText(contact.allNames)
    addresses = SearchText.keyText(contact.allAddresses)
    city = SearchText.keyText([contact.city ?? ""])
  }

}

/// The rows of a sync's contacts, made in chunks on other threads, on every
/// core, while the store writes the chunks already made.
///
/// Making them took a sync of 100,000 contacts two of its five seconds on one
/// core, and SQLite's writing takes as long again on one core: side by side,
/// the sync takes the longer of the two.
public final class StoredContactRows: Sendable {
  private let contacts: [Contact]
  private let chunks: Mutex<[[StoredContactRow]?]>
  /// Signalled once each, when the chunk of the same index is made.
  private let made: [DispatchSemaphore]
  /// The next chunk nobody has started: chunks are taken in order, by the
  /// helper threads and by the writer itself.
  private let nextChunk = Atomic(0)
  public var count: Int { contacts.count }

  static let chunkSize = 1_000

  /// Starts making the rows of `contacts` on `helpers` threads (one for each
  /// core but one unless told).
  public init(_ contacts: [Contact], helpers: Int? = nil) {
    self.contacts = contacts
    let chunkCount = (contacts.count + Self.chunkSize - 1) / Self.chunkSize
    chunks = Mutex(Array(repeating: nil, count: chunkCount))
    made = (0..<chunkCount).map { _ in DispatchSemaphore(value: 0) }
    let helpers = min(helpers ?? ProcessInfo.processInfo.activeProcessorCount - 1, chunkCount)
    for _ in 0..<max(helpers, 0) {
      DispatchQueue.global(qos: .userInitiated).async { [self] in
        while makeNextChunk() != nil {}
      }
    }
  }

  /// Takes the next chunk nobody has started and makes it; nil when none is left.
  private func makeNextChunk() -> Int? {
    let chunk = nextChunk.wrappingAdd(1, ordering: .relaxed).oldValue
    guard chunk < made.count else { return nil }
    let range = chunk * Self.chunkSize..<min((chunk + 1) * Self.chunkSize, contacts.count)
    let rows = contacts[range].map(StoredContactRow.init)
    chunks.withLock { $0[chunk] = rows }
    made[chunk].signal()
    return chunk
  }

  /// Calls `body` with every row, in the contacts' order. A chunk nobody has
  /// started yet is made here rather than waited for, so the rows come even when
  /// no helper thread gets to run. Call once: each chunk is let go once written.
  public func forEach(_ body: (StoredContactRow) throws -> Void) rethrows {
    for chunk in made.indices {
      while nextChunk.load(ordering: .relaxed) <= chunk, makeNextChunk() != nil {}
      made[chunk].wait()
      let rows = chunks.withLock { chunks in
        defer { chunks[chunk] = [] }
        return chunks[chunk] ?? []
      }
      try rows.forEach(body)
    }
  }
}
