import Dispatch
import Foundation
import Synchronization

/// Parses a large `{"items": [...]}` table on every core: the items array's
/// elements are found by a quick scan of the bytes, parsed in chunks in
/// parallel, and the rest of the document is parsed without them.
///
/// A directory sync of 100,000 contacts spent most of a second parsing 41 MB on
/// one core while the other waited. The result is `JSONParser`'s, element for
/// element: each is parsed by it at the depth it has in the document. Anything
/// the scan does not expect (escapes in the key, broken structure, an element
/// that does not parse) returns nil, and the caller parses the whole text as
/// before, which reports the error where it is.
enum JSONItemsSplitter {
  /// Below this, one core parses the text sooner than the work is shared.
  static let minimumSize = 1 << 20

  /// The elements of the first "items" array of the top-level object, each
  /// turned into an item by `transform` (nil: left out, and counted), or nil.
  static func items<Item: Sendable>(
    of data: Data, transform: @Sendable (JSONValue) -> Item?
  ) -> (items: [Item], skipped: Int)? {
    data.withUnsafeBytes { raw -> (items: [Item], skipped: Int)? in
      let bytes = raw.bindMemory(to: UInt8.self)
      guard let (array, elements) = scan(bytes),
        case .object(let top)? = try? JSONParser.parse(bytes, skipping: array),
        top["items"] == .array([])
      else { return nil }
      let chunkSize = 2_000
      let chunkCount = (elements.count + chunkSize - 1) / chunkSize
      let parts = Mutex([(items: [Item], skipped: Int)?](repeating: nil, count: chunkCount))
      let failed = Atomic(false)
      // The buffer outlives the parallel work: concurrentPerform returns when all is done.
      nonisolated(unsafe) let shared = bytes
      DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
        var items: [Item] = []
        var skipped = 0
        for range in elements[chunk * chunkSize..<min((chunk + 1) * chunkSize, elements.count)] {
          // Elements of the items array are at depth 2: in the object, in the array.
          guard let value = try? JSONParser.parse(shared, range: range, depth: 2) else {
            failed.store(true, ordering: .relaxed)
            return
          }
          if let item = transform(value) { items.append(item) } else { skipped += 1 }
        }
        parts.withLock { $0[chunk] = (items, skipped) }
      }
      guard !failed.load(ordering: .relaxed) else { return nil }
      return parts.withLock { parts in
        (parts.flatMap { $0?.items ?? [] }, parts.reduce(0) { $0 + ($1?.skipped ?? 0) })
      }
    }
  }

  /// The byte range of the first "items" array of the top-level object and of
  /// each of its elements; nil when the text is not shaped as expected.
  static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (Range<Int>, [Range<Int>])? {
    var scanner = Scanner(bytes: bytes)
    scanner.skipWhitespace()
    guard scanner.take(UInt8(ascii: "{")) else { return nil }
    while true {
      scanner.skipWhitespace()
      guard let key = scanner.string() else { return nil }
      scanner.skipWhitespace()
      guard scanner.take(UInt8(ascii: ":")) else { return nil }
      scanner.skipWhitespace()
      if bytes[key].elementsEqual("items".utf8) {
        return scanner.elements()
      }
      guard scanner.skipValue() else { return nil }
      scanner.skipWhitespace()
      guard scanner.take(UInt8(ascii: ",")) else { return nil }
    }
  }

  /// Finds where values start and end, without reading them.
  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    mutating func skipWhitespace() {
      while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) {
        position += 1
      }
    }

    mutating func take(_ byte: UInt8) -> Bool {
      guard position < bytes.count, bytes[position] == byte else { return false }
      position += 1
      return true
    }

    /// The bytes between the quotes of a string without escapes.
    mutating func string() -> Range<Int>? {
      guard take(UInt8(ascii: "\"")) else { return nil }
      let start = position
      while position < bytes.count {
        switch bytes[position] {
        case UInt8(ascii: "\""):
          position += 1
          return start..<position - 1
        case UInt8(ascii: "\\"): return nil
        default: position += 1
        }
      }
      return nil
    }

    /// Past one value: strings with their escapes, arrays and objects to their
    /// closing bracket, anything else to the next delimiter. False when the text
    /// ends first.
    mutating func skipValue() -> Bool {
      var depth = 0
      while position < bytes.count {
        switch bytes[position] {
        case UInt8(ascii: "\""):
          position += 1
          while position < bytes.count && bytes[position] != UInt8(ascii: "\"") {
            position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
          }
          guard position < bytes.count else { return false }
          position += 1
          if depth == 0 { return true }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
          position += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          guard depth > 0 else { return true }
          depth -= 1
          position += 1
          if depth == 0 { return true }
        case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
          guard depth > 0 else { return true }
          position += 1
        default:
          position += 1
        }
      }
      return depth == 0
    }

    /// The items array at `position`: its range and its elements' ranges.
    mutating func elements() -> (Range<Int>, [Range<Int>])? {
      let start = position
      guard take(UInt8(ascii: "[")) else { return nil }
      var elements: [Range<Int>] = []
      while true {
        skipWhitespace()
        // An empty array, or a trailing comma (which JSONParser takes).
        if take(UInt8(ascii: "]")) { return (start..<position, elements) }
        let elementStart = position
        guard skipValue(), position > elementStart else { return nil }
        elements.append(elementStart..<position)
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return (start..<position, elements) }
        guard take(UInt8(ascii: ",")) else { return nil }
      }
    }
  }
}
