import Foundation

/// One language's strings, read from `Locales/<lang>.properties`.
///
/// The format is made to be edited by translators with any text editor:
///
///     # comment
///     key = text with {placeholder}
///     prompt = "you> "            (quotes keep leading or trailing spaces)
///     count[one] = {count} file   (plural forms by CLDR category)
///     help = first line\nsecond   (\n, \t, \\ and \" are escapes)
public struct LocaleTable: Sendable, Hashable {
  /// Plain entries: key to text.
  public var entries: [String: String]
  /// Plural entries: key to category to text.
  public var plurals: [String: [PluralCategory: String]]

  public struct ParseError: Error, Hashable, CustomStringConvertible {
    public var line: Int
    public var reason: String
    public var description: String { "line \(line): \(reason)" }
  }

  public init(parsing text: String) throws(ParseError) {
    var source = text
    let parsed = source.withUTF8 { Self.parse($0) }
    (entries, plurals) = try parsed.get()
  }

  /// The lines, read by byte, with `memchr` finding each line's end, its `=` and any
  /// escape: every start of the program parses a table, and this was 14 % of the
  /// instructions of the first offline answer when each byte went through Swift's
  /// bounds-checked loops and `Substring` views (6.2 million for English).
  private static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>
  ) -> Result<([String: String], [String: [PluralCategory: String]]), ParseError> {
    var entries: [String: String] = [:]
    var plurals: [String: [PluralCategory: String]] = [:]
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return .success((entries, plurals)) }
    entries.reserveCapacity(bytes.count / 48)
    var lineStart = 0
    var lineNumber = 0
    while lineStart <= bytes.count {
      lineNumber += 1
      let lineEnd = find(UInt8(ascii: "\n"), in: base, lineStart, bytes.count) ?? bytes.count
      defer { lineStart = lineEnd + 1 }
      let (first, last) = asciiTrimmed(bytes, lineStart, lineEnd)
      if first == last || bytes[first] == UInt8(ascii: "#") { continue }
      if bytes[first] >= 0x80 || bytes[last - 1] >= 0x80 {
        let line = text(bytes, first, last)
        if line.isEmpty || line.hasPrefix("#") { continue }
      }
      guard let equals = find(UInt8(ascii: "="), in: base, first, last) else {
        return .failure(ParseError(line: lineNumber, reason: "expected 'key = text'"))
      }
      let key = text(bytes, first, equals)
      let value: String
      switch unescape(bytes, equals + 1, last, line: lineNumber) {
      case .success(let unescaped): value = unescaped
      case .failure(let error): return .failure(error)
      }
      if find(UInt8(ascii: "["), in: base, first, equals) != nil,
        let open = key.utf8.firstIndex(of: UInt8(ascii: "[")), key.utf8.last == UInt8(ascii: "]")
      {
        let name = String(key[..<open])
        let categoryName = String(key[key.index(after: open)..<key.index(before: key.endIndex)])
        guard let category = PluralCategory(rawValue: categoryName) else {
          return .failure(
            ParseError(line: lineNumber, reason: "unknown plural category '\(categoryName)'"))
        }
        guard plurals[name]?[category] == nil else {
          return .failure(ParseError(line: lineNumber, reason: "'\(key)' is defined twice"))
        }
        plurals[name, default: [:]][category] = value
      } else {
        guard !key.isEmpty,
          !key.utf8.contains(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "[") })
        else {
          return .failure(ParseError(line: lineNumber, reason: "invalid key '\(key)'"))
        }
        guard entries.updateValue(value, forKey: key) == nil else {
          return .failure(ParseError(line: lineNumber, reason: "'\(key)' is defined twice"))
        }
      }
    }
    return .success((entries, plurals))
  }

  /// Where `byte` first is in `base[start..<end]`, if it is.
  private static func find(_ byte: UInt8, in base: UnsafePointer<UInt8>, _ start: Int, _ end: Int)
    -> Int?
  {
    guard start < end, let found = memchr(base + start, Int32(byte), end - start) else {
      return nil
    }
    return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
  }

  /// `bytes[start..<end]` without ASCII white space at either end.
  private static func asciiTrimmed(
    _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
  ) -> (Int, Int) {
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
    var first = start
    var last = end
    while first < last, isSpace(bytes[first]) { first += 1 }
    while last > first, isSpace(bytes[last - 1]) { last -= 1 }
    return (first, last)
  }

  /// The text of `bytes[start..<end]` without white space at either end; by byte,
  /// unless an end is not ASCII (a no-break space, say), then by Unicode's rules.
  private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String
  {
    let (first, last) = asciiTrimmed(bytes, start, end)
    let string = String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<last]), as: UTF8.self)
    guard first < last, bytes[first] >= 0x80 || bytes[last - 1] >= 0x80 else { return string }
    return String(trimmed(Substring(string)))
  }

  /// The text without white space at either end. Swift's own `isWhitespace`: every
  /// start of the program parses a table, and Foundation's trimming went through
  /// UTF-16 for each of its 300 lines, a tenth of a one-shot search's time.
  private static func trimmed(_ text: Substring) -> Substring {
    let start = text.unicodeScalars.firstIndex { !$0.properties.isWhitespace } ?? text.endIndex
    let end =
      text.unicodeScalars[start...].lastIndex { !$0.properties.isWhitespace }
      .map { text.unicodeScalars.index(after: $0) } ?? start
    return text[start..<end]
  }

  /// The text of `bytes[start..<end]` (trimmed as `text` trims), without the quotes
  /// around it, its escapes read.
  private static func unescape(
    _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, line: Int
  ) -> Result<String, ParseError> {
    let quote = UInt8(ascii: "\"")
    var (first, last) = asciiTrimmed(bytes, start, end)
    if first < last, bytes[first] >= 0x80 || bytes[last - 1] >= 0x80 {
      // A no-break space or other Unicode white space at an end: trimmed by Unicode's rules.
      return unescape(Substring(text(bytes, first, last)), line: line)
    }
    if last - first >= 2, bytes[first] == quote, bytes[last - 1] == quote {
      first += 1
      last -= 1
    }
    // Most texts have no escape.
    guard let base = bytes.baseAddress,
      find(UInt8(ascii: "\\"), in: base, first, last) != nil
    else {
      return .success(
        String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<last]), as: UTF8.self))
    }
    return unescape(
      Substring(
        String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<last]), as: UTF8.self)),
      line: line, quoted: false)
  }

  private static func unescape(_ raw: Substring, line: Int, quoted: Bool = true)
    -> Result<String, ParseError>
  {
    var text = raw
    let quote = UInt8(ascii: "\"")
    if quoted, text.utf8.count >= 2, text.utf8.first == quote, text.utf8.last == quote {
      text = text.dropFirst().dropLast()
    }
    // Most texts have no escape.
    if !text.utf8.contains(UInt8(ascii: "\\")) { return .success(String(text)) }
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count)
    var escaping = false
    for index in text.utf8.indices {
      let byte = text.utf8[index]
      if escaping {
        switch byte {
        case UInt8(ascii: "n"): output.append(UInt8(ascii: "\n"))
        case UInt8(ascii: "t"): output.append(UInt8(ascii: "\t"))
        case UInt8(ascii: "\\"), UInt8(ascii: "\""): output.append(byte)
        default:
          let character = text[index...].prefix(1)
          return .failure(ParseError(line: line, reason: "unknown escape '\\\(character)'"))
        }
        escaping = false
      } else if byte == UInt8(ascii: "\\") {
        escaping = true
      } else {
        output.append(byte)
      }
    }
    if escaping {
      return .failure(ParseError(line: line, reason: "a line cannot end with '\\'"))
    }
    return .success(String(decoding: output, as: UTF8.self))
  }

  /// The `{name}` placeholders in a text, for checking that translations agree.
  public static func placeholders(in text: String) -> Set<String> {
    var names: Set<String> = []
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{"),
      let close = rest[open...].firstIndex(of: "}")
    {
      names.insert(String(rest[rest.index(after: open)..<close]))
      rest = rest[rest.index(after: close)...]
    }
    return names
  }
}
