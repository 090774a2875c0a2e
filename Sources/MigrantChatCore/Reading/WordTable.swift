/// One language's words and how common each is, as `Tools/wordfreq` makes them:
/// looked up in place (a binary search over blocks of 16 front-coded words), so
/// the program pays nothing for the tables until a line is read.
///
/// Words are bytes (`WordTable.code`): ASCII letters, `'` and `-` as themselves,
/// Cyrillic а..я as 0x80..0x9F and ё є і ї ґ as 0xA0..0xA4. An entry is [shared]
/// [suffix…] [zipf]: `shared` (< 0x20) leading bytes of the entry before, then
/// bytes ≥ 0x27, then the Zipf frequency as `round((zipf - 1) * 4)` (< 0x20).
/// After the entries: each block's offset (u32), the number of blocks and of
/// entries (u32 each), and "MCW1"; all little-endian.
public final class WordTable: @unchecked Sendable {
  // Sendable: the bytes are never written after `init` (the program's read-only data,
  // or a copy this object owns and frees).
  private let bytes: UnsafeRawBufferPointer
  private let owned: Bool
  private let blockCount: Int
  private let blocksAt: Int
  /// How many words the table holds.
  public let count: Int

  /// A table over bytes that live as long as the program (the built-in ones); nil
  /// when they are not a table.
  public convenience init?(static bytes: UnsafeRawBufferPointer) {
    self.init(bytes: bytes, owned: false)
  }

  /// A table made from words and their Zipf frequencies (tests, a bot's own words).
  public init(words: [String: Double]) {
    let encoded = Self.encode(words)
    let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: encoded.count, alignment: 4)
    storage.copyBytes(from: encoded)
    bytes = UnsafeRawBufferPointer(storage)
    owned = true
    let size = encoded.count
    blockCount = Int(Self.u32(bytes, at: size - 12))
    count = Int(Self.u32(bytes, at: size - 8))
    blocksAt = size - 12 - blockCount * 4
  }

  private init?(bytes: UnsafeRawBufferPointer, owned: Bool) {
    let size = bytes.count
    guard size >= 12, bytes[size - 4] == 0x4D, bytes[size - 3] == 0x43,
      bytes[size - 2] == 0x57, bytes[size - 1] == 0x31
    else {
      if owned { bytes.deallocate() }
      return nil
    }
    let blocks = Int(Self.u32(bytes, at: size - 12))
    let entries = Int(Self.u32(bytes, at: size - 8))
    let index = size - 12 - blocks * 4
    guard index >= 0, blocks == (entries + 15) / 16 else {
      if owned { bytes.deallocate() }
      return nil
    }
    self.bytes = bytes
    self.owned = owned
    self.blockCount = blocks
    self.blocksAt = index
    self.count = entries
  }

  deinit {
    if owned { bytes.deallocate() }
  }

  private static func u32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
    UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
      | UInt32(bytes[offset + 3]) << 24
  }

  // MARK: Looking up

  /// The Zipf frequency of `key` (encoded with `code`), nil when the table lacks it.
  public func zipf(key: [UInt8]) -> Double? {
    guard let found = lowerBound(key), found.word == key else { return nil }
    return Double(found.zipf) / 4 + 1
  }

  /// The Zipf frequency of a word (lowercase), nil when the table lacks it.
  public func zipf(_ word: String) -> Double? {
    guard let key = Self.key(word) else { return nil }
    return zipf(key: key)
  }

  /// How common `key` is as a form of a word the table holds only in other forms:
  /// a word of five letters or more whose stem (all but its last letter or two) the
  /// table has with an ending at most two letters longer ("посвідка" from
  /// "посвідки"), a little rarer than that form. Nil when there is none.
  public func inflectedZipf(key: [UInt8]) -> Double? {
    guard key.count >= 5 else { return nil }
    var best: Double?
    for cut in key.count >= 7 ? [1, 2] : [1] {
      let stem = Array(key.dropLast(cut))
      for (word, zipf) in words(startingWith: stem, limit: 48)
      where word.count <= key.count + 2 && word.count >= key.count - 1 && word != key {
        best = max(best ?? 0, zipf - Self.inflectionCost)
      }
    }
    return best
  }

  /// What a form read from another costs, in Zipf.
  public static let inflectionCost = 1.5

  /// Whether some word of the table starts with `prefix` (or is it).
  public func hasPrefix(_ prefix: [UInt8]) -> Bool {
    guard let found = lowerBound(prefix) else { return false }
    return found.word.count >= prefix.count && found.word.starts(with: prefix)
  }

  /// The first entry not below `key`, nil when every word is below it.
  private func lowerBound(_ key: [UInt8]) -> (word: [UInt8], zipf: UInt8)? {
    var found: (word: [UInt8], zipf: UInt8)?
    scan(from: key) { word, zipf in
      found = (word, zipf)
      return false
    }
    return found
  }

  /// The words starting with `prefix` (at most `limit`, in order) and their Zipf frequencies.
  public func words(startingWith prefix: [UInt8], limit: Int) -> [(key: [UInt8], zipf: Double)] {
    var found: [(key: [UInt8], zipf: Double)] = []
    scan(from: prefix) { word, zipf in
      guard word.starts(with: prefix), found.count < limit else { return false }
      found.append((word, Double(zipf) / 4 + 1))
      return true
    }
    return found
  }

  /// Calls `body` with each entry from the first not below `key`, in order, while it
  /// returns true.
  private func scan(from key: [UInt8], _ body: ([UInt8], UInt8) -> Bool) {
    guard blockCount > 0 else { return }
    // The last block whose first word is not above `key`.
    var low = 0
    var high = blockCount - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if compareFirst(ofBlock: middle, with: key) <= 0 { low = middle } else { high = middle - 1 }
    }
    var offset = Int(Self.u32(bytes, at: blocksAt + low * 4))
    var word: [UInt8] = []
    word.reserveCapacity(32)
    var started = false
    while offset < blocksAt {
      let shared = Int(bytes[offset])
      offset += 1
      word.removeSubrange(min(shared, word.count)...)
      while offset < blocksAt, bytes[offset] >= 0x20 {
        word.append(bytes[offset])
        offset += 1
      }
      guard offset < blocksAt else { return }
      let zipf = bytes[offset]
      offset += 1
      if !started {
        guard !word.lexicographicallyPrecedes(key) else { continue }
        started = true
      }
      if !body(word, zipf) { return }
    }
  }

  /// The order of block `block`'s first word against `key`: -1, 0 or 1.
  private func compareFirst(ofBlock block: Int, with key: [UInt8]) -> Int {
    var offset = Int(Self.u32(bytes, at: blocksAt + block * 4)) + 1
    var index = 0
    while offset < blocksAt, bytes[offset] >= 0x20 {
      guard index < key.count else { return 1 }
      let byte = bytes[offset]
      if byte != key[index] { return byte < key[index] ? -1 : 1 }
      offset += 1
      index += 1
    }
    return index < key.count ? -1 : 0
  }

  // MARK: The byte code

  /// The byte of one character, nil for what the tables do not hold.
  public static func code(_ scalar: Unicode.Scalar) -> UInt8? {
    switch scalar.value {
    case 0x61...0x7A, 0x27, 0x2D: return UInt8(scalar.value)
    case 0x430...0x44F: return UInt8(0x80 + scalar.value - 0x430)
    case 0x451: return 0xA0  // ё
    case 0x454: return 0xA1  // є
    case 0x456: return 0xA2  // і
    case 0x457: return 0xA3  // ї
    case 0x491: return 0xA4  // ґ
    case 0x2019, 0x2BC: return 0x27  // ’ ʼ as '
    default: return nil
    }
  }

  /// The character of one byte of the code.
  public static func character(_ byte: UInt8) -> Character {
    switch byte {
    case 0x80...0x9F: Character(Unicode.Scalar(UInt16(0x430) + UInt16(byte) - 0x80) ?? "?")
    case 0xA0: "ё"
    case 0xA1: "є"
    case 0xA2: "і"
    case 0xA3: "ї"
    case 0xA4: "ґ"
    default: Character(Unicode.Scalar(byte))
    }
  }

  /// `word` in the code, nil when it has a character the tables do not hold.
  public static func key(_ word: String) -> [UInt8]? {
    var key: [UInt8] = []
    key.reserveCapacity(word.unicodeScalars.count)
    for scalar in word.unicodeScalars {
      guard let byte = code(scalar) else { return nil }
      key.append(byte)
    }
    return key
  }

  /// The word a key spells.
  public static func word(_ key: [UInt8]) -> String {
    String(key.map(character(_:)))
  }

  /// The table's bytes for `words` (their keys; words that cannot be keyed are left out).
  static func encode(_ words: [String: Double]) -> [UInt8] {
    var best: [[UInt8]: Double] = [:]
    for (word, zipf) in words {
      guard let key = key(word), !key.isEmpty, key.count < 0x80 else { continue }
      best[key] = max(best[key] ?? zipf, zipf)
    }
    let entries = best.sorted { $0.key.lexicographicallyPrecedes($1.key) }
    var out: [UInt8] = []
    var offsets: [Int] = []
    var previous: [UInt8] = []
    for (index, entry) in entries.enumerated() {
      var shared = 0
      if index % 16 == 0 {
        offsets.append(out.count)
      } else {
        let limit = min(entry.key.count, previous.count, 0x1F)
        while shared < limit && entry.key[shared] == previous[shared] { shared += 1 }
      }
      out.append(UInt8(shared))
      out += entry.key[shared...]
      out.append(UInt8(max(0, min(31, ((entry.value - 1) * 4).rounded()))))
      previous = entry.key
    }
    func append(_ value: Int) {
      let number = UInt32(value)
      out += [
        UInt8(number & 0xFF), UInt8(number >> 8 & 0xFF), UInt8(number >> 16 & 0xFF),
        UInt8(number >> 24),
      ]
    }
    for offset in offsets { append(offset) }
    append(offsets.count)
    append(entries.count)
    out += Array("MCW1".utf8)
    return out
  }
}
