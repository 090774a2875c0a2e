import Dispatch
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
  private let chunks: Mutex<[[StoredContactRow]?]>
  /// Signalled once each, when the chunk of the same index is made.
  private let made: [DispatchSemaphore]
  public let count: Int

  static let chunkSize = 1_000

  /// Starts making the rows of `contacts`.
  public init(_ contacts: [Contact]) {
    let chunkCount = (contacts.count + Self.chunkSize - 1) / Self.chunkSize
    count = contacts.count
    chunks = Mutex(Array(repeating: nil, count: chunkCount))
    made = (0..<chunkCount).map { _ in DispatchSemaphore(value: 0) }
    DispatchQueue.global(qos: .userInitiated).async { [self] in
      // Iterations are handed out in order: the first chunks are made first.
      DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
        let range = chunk * Self.chunkSize..<min((chunk + 1) * Self.chunkSize, contacts.count)
        let rows = contacts[range].map(StoredContactRow.init)
        chunks.withLock { $0[chunk] = rows }
        made[chunk].signal()
      }
    }
  }

  /// Calls `body` with every row, in the contacts' order, waiting for chunks
  /// not made yet. Call once: each chunk is let go once it is written.
  public func forEach(_ body: (StoredContactRow) throws -> Void) rethrows {
    for chunk in made.indices {
      made[chunk].wait()
      let rows = chunks.withLock { chunks in
        defer { chunks[chunk] = [] }
        return chunks[chunk] ?? []
      }
      try rows.forEach(body)
    }
  }
}
