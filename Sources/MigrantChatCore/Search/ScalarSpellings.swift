/// Byte spellings of the scalars below U+0500 (ASCII, Latin with diacritics,
/// Cyrillic) in one buffer. A sync looks up every scalar of 100,000 contacts'
/// names and addresses: an array of arrays cost a retain and a release each,
/// and lookups through `withUnsafeBufferPointer` closures an exclusivity check.
///
/// Immutable once made, and made only for static tables that live as long as
/// the process: so the buffers are plain pointers, shared between threads.
final class ScalarSpellings: @unchecked Sendable {
  static let count = 0x500
  private let bytes: UnsafeMutableBufferPointer<UInt8>
  /// Where each scalar's bytes start in `bytes`; they end where the next one's start.
  private let starts: UnsafeMutableBufferPointer<Int32>
  /// False for a scalar with no spelling (what `SearchText.table` calls a separator).
  private let spelled: UnsafeMutableBufferPointer<Bool>

  /// Asks `spelling` once for every scalar value below `count`.
  init(_ spelling: (Int) -> [UInt8]?) {
    var bytes: [UInt8] = []
    var starts: [Int32] = []
    var spelled: [Bool] = []
    for value in 0..<Self.count {
      starts.append(Int32(bytes.count))
      let spelt = spelling(value)
      spelled.append(spelt != nil)
      bytes += spelt ?? []
    }
    starts.append(Int32(bytes.count))
    self.bytes = Self.copy(bytes)
    self.starts = Self.copy(starts)
    self.spelled = Self.copy(spelled)
  }

  deinit {
    bytes.deallocate()
    starts.deallocate()
    spelled.deallocate()
  }

  private static func copy<Element>(_ array: [Element]) -> UnsafeMutableBufferPointer<Element> {
    let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(array.count, 1))
    _ = buffer.initialize(from: array)
    return buffer
  }

  /// Whether the scalar `value` has a spelling here.
  func spells(_ value: Int) -> Bool {
    (0..<Self.count).contains(value) && spelled[value]
  }

  /// The bytes of the scalar `value`, nil when it has none here.
  func spelling(_ value: UInt32) -> UnsafeBufferPointer<UInt8>? {
    let index = Int(value)
    guard index < Self.count, spelled[index] else { return nil }
    return UnsafeBufferPointer(rebasing: bytes[Int(starts[index])..<Int(starts[index + 1])])
  }

  /// Appends the bytes of every scalar of `text` to `output`; false (with
  /// `output` partly written) at the first scalar that has none.
  func append(_ text: String, to output: inout [UInt8]) -> Bool {
    for scalar in text.unicodeScalars {
      guard let spelt = spelling(scalar.value) else { return false }
      output.append(contentsOf: spelt)
    }
    return true
  }
}
