import Foundation

/// A JSON parser (RFC 8259) straight to `JSONValue`, over the raw bytes.
///
/// Foundation's `JSONDecoder` reaches `JSONValue` through `Decodable`, trying
/// each type in turn and building an error with a coding path for every miss:
/// most of a turn's decoding time, and 9 MB/s on a big directory sync. This
/// reads each byte once.
///
/// Liberal where it costs nothing, accepting all that Foundation's decoder
/// accepts (the `json` fuzz target checks it): invalid UTF-8 and lone
/// surrogates in a string become U+FFFD; raw control characters in strings,
/// unknown or broken escapes (`\w` is `w`, `\u12G4` is `u12G4`), a trailing comma and leading zeros are
/// taken; a repeated key keeps its first value. Strict where it matters: anything else that is not JSON is refused
/// (also the trailing NUL Foundation ignores), and so is nesting deeper than
/// `maxDepth`, so no input can exhaust the stack.
public struct JSONParser: ~Copyable {
  public struct Failure: Error, Sendable, Hashable {
    /// Byte offset where the text stopped being JSON.
    public var offset: Int
  }

  /// As deep as Foundation's parser goes.
  public static let maxDepth = 512

  public static func parse(_ data: Data) throws(Failure) -> JSONValue {
    let result = data.withUnsafeBytes { raw -> Result<JSONValue, Failure> in
      Result { () throws(Failure) -> JSONValue in
        try parse(buffer: raw.bindMemory(to: UInt8.self))
      }
    }
    return try result.get()
  }

  public static func parse(_ text: String) throws(Failure) -> JSONValue {
    try parse(Data(utf8Of: text))
  }

  private static func parse(buffer: UnsafeBufferPointer<UInt8>) throws(Failure) -> JSONValue {
    var parser = JSONParser(buffer)
    parser.skipWhitespace()
    let value = try parser.value(depth: 0)
    parser.skipWhitespace()
    guard parser.position == buffer.count else { throw Failure(offset: parser.position) }
    return value
  }

  /// The value in `range` of `buffer`, parsed as it would be at `depth` in the whole
  /// text (for a document parsed in parts, `JSONItemsSplitter`).
  static func parse(
    _ buffer: UnsafeBufferPointer<UInt8>, range: Range<Int>, depth: Int
  ) throws(Failure) -> JSONValue {
    var parser = JSONParser(UnsafeBufferPointer(rebasing: buffer[range]))
    let value = try parser.value(depth: depth)
    guard parser.position == range.count else { throw Failure(offset: parser.position) }
    return value
  }

  /// The whole text, with the value that starts at `skipped.lowerBound` read as an
  /// empty array and its bytes not read at all (parsed apart, in parallel).
  static func parse(
    _ buffer: UnsafeBufferPointer<UInt8>, skipping skipped: Range<Int>
  ) throws(Failure) -> JSONValue {
    var parser = JSONParser(buffer)
    parser.skipped = skipped
    parser.skipWhitespace()
    let value = try parser.value(depth: 0)
    parser.skipWhitespace()
    guard parser.position == buffer.count else { throw Failure(offset: parser.position) }
    return value
  }

  private let bytes: UnsafeBufferPointer<UInt8>
  private var position = 0
  private var skipped: Range<Int>?

  private init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  private var failure: Failure { Failure(offset: position) }

  private func peek() -> UInt8? {
    position < bytes.count ? bytes[position] : nil
  }

  private mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x0A, 0x0D, 0x09: position += 1
      default: return
      }
    }
  }

  private mutating func expect(_ literal: StaticString) throws(Failure) {
    let count = literal.utf8CodeUnitCount
    guard position + count <= bytes.count else { throw failure }
    for index in 0..<count where bytes[position + index] != literal.utf8Start[index] {
      throw failure
    }
    position += count
  }

  private mutating func value(depth: Int) throws(Failure) -> JSONValue {
    guard let byte = peek() else { throw failure }
    if let skipped, position == skipped.lowerBound {
      position = skipped.upperBound
      return .array([])
    }
    switch byte {
    case UInt8(ascii: "{"): return try object(depth: depth + 1)
    case UInt8(ascii: "["): return try array(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"):
      try expect("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expect("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expect("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return .number(try number())
    default:
      throw failure
    }
  }

  private mutating func object(depth: Int) throws(Failure) -> JSONValue {
    guard depth <= Self.maxDepth else { throw failure }
    position += 1  // {
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if peek() == UInt8(ascii: "}") {
      position += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      if peek() == UInt8(ascii: "}") {  // after a trailing comma
        position += 1
        return .object(members)
      }
      guard peek() == UInt8(ascii: "\"") else { throw failure }
      let key = try string()
      skipWhitespace()
      guard peek() == UInt8(ascii: ":") else { throw failure }
      position += 1
      skipWhitespace()
      let member = try value(depth: depth)
      // The first of repeated keys wins, as with Foundation's decoder.
      if members[key] == nil { members[key] = member }
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","): position += 1
      case UInt8(ascii: "}"):
        position += 1
        return .object(members)
      default: throw failure
      }
    }
  }

  private mutating func array(depth: Int) throws(Failure) -> JSONValue {
    guard depth <= Self.maxDepth else { throw failure }
    position += 1  // [
    var elements: [JSONValue] = []
    skipWhitespace()
    if peek() == UInt8(ascii: "]") {
      position += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      if peek() == UInt8(ascii: "]") {  // after a trailing comma
        position += 1
        return .array(elements)
      }
      elements.append(try value(depth: depth))
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","): position += 1
      case UInt8(ascii: "]"):
        position += 1
        return .array(elements)
      default: throw failure
      }
    }
  }

  private mutating func string() throws(Failure) -> String {
    position += 1  // opening quote
    let start = position
    // The common case: no escapes, so the bytes are the string.
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        let text = String(
          decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        position += 1
        return text
      }
      if byte == UInt8(ascii: "\\") { break }
      position += 1
    }
    var utf8 = Array(bytes[start..<position])
    while position < bytes.count {
      let byte = bytes[position]
      position += 1
      switch byte {
      case UInt8(ascii: "\""):
        return String(decoding: utf8, as: UTF8.self)
      case UInt8(ascii: "\\"):
        try escape(into: &utf8)
      default:
        utf8.append(byte)
      }
    }
    throw failure
  }

  private mutating func escape(into utf8: inout [UInt8]) throws(Failure) {
    guard let byte = peek() else { throw failure }
    position += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
    case UInt8(ascii: "b"): utf8.append(0x08)
    case UInt8(ascii: "f"): utf8.append(0x0C)
    case UInt8(ascii: "n"): utf8.append(0x0A)
    case UInt8(ascii: "r"): utf8.append(0x0D)
    case UInt8(ascii: "t"): utf8.append(0x09)
    case UInt8(ascii: "u"):
      let start = position
      guard var scalar = try? hex4() else {
        // Not four hex digits: the "u" stands for itself, like an unknown escape.
        position = start
        utf8.append(byte)
        return
      }
      if (0xD800..<0xDC00).contains(scalar), bytes.count - position >= 6,
        bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
      {
        let save = position
        position += 2
        if let low = try? hex4(), (0xDC00..<0xE000).contains(low) {
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else {
          position = save  // a high surrogate alone; the next escape stands by itself
        }
      }
      let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
      utf8.append(contentsOf: Array(String(character).utf8))
    default:
      // An unknown escape ("\w") stands for its character.
      utf8.append(byte)
    }
  }

  private mutating func hex4() throws(Failure) -> UInt32 {
    guard position + 4 <= bytes.count else { throw failure }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[position]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw failure
      }
      value = value << 4 | UInt32(digit)
      position += 1
    }
    return value
  }

  private mutating func number() throws(Failure) -> Double {
    let start = position
    if peek() == UInt8(ascii: "-") { position += 1 }
    // int: digits; leading zeros are taken ("068" is 68), as Foundation's decoder does.
    guard let first = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
      throw failure
    }
    var integer: UInt64 = 0
    var digits = 0
    while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
      if integer == 0 && byte == UInt8(ascii: "0") {
        position += 1  // a leading zero adds no digit
        continue
      }
      if digits < 18 { integer = integer * 10 + UInt64(byte - UInt8(ascii: "0")) }
      digits += 1
      position += 1
    }
    var isInteger = true
    if peek() == UInt8(ascii: ".") {
      isInteger = false
      position += 1
      guard try skipDigits() > 0 else { throw failure }
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      isInteger = false
      position += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
      guard try skipDigits() > 0 else { throw failure }
    }
    if isInteger && digits <= 15 {
      let value = Double(integer)
      return bytes[start] == UInt8(ascii: "-") ? -value : value
    }
    let text = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    guard let value = Double(text) else { throw Failure(offset: start) }
    return value
  }

  private mutating func skipDigits() throws(Failure) -> Int {
    var count = 0
    while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
      position += 1
      count += 1
    }
    return count
  }
}
