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
    entries = [:]
    plurals = [:]
    // By UTF-8 code unit, not by Character: every start of the program parses a table,
    // and grapheme breaking over the whole file cost a tenth of a start's samples.
    for (offset, rawBytes) in text.utf8.split(
      separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false
    ).enumerated() {
      let lineNumber = offset + 1
      let line = Self.trimmed(Substring(rawBytes))
      if line.isEmpty || line.utf8.first == UInt8(ascii: "#") { continue }
      guard let equals = line.utf8.firstIndex(of: UInt8(ascii: "=")) else {
        throw ParseError(line: lineNumber, reason: "expected 'key = text'")
      }
      let key = String(Self.trimmed(line[..<equals]))
      let value = try Self.unescape(
        Self.trimmed(line[line.index(after: equals)...]), line: lineNumber)
      if let open = key.firstIndex(of: "["), key.hasSuffix("]") {
        let name = String(key[..<open])
        let categoryName = String(key[key.index(after: open)..<key.index(before: key.endIndex)])
        guard let category = PluralCategory(rawValue: categoryName) else {
          throw ParseError(line: lineNumber, reason: "unknown plural category '\(categoryName)'")
        }
        guard plurals[name]?[category] == nil else {
          throw ParseError(line: lineNumber, reason: "'\(key)' is defined twice")
        }
        plurals[name, default: [:]][category] = value
      } else {
        guard !key.isEmpty, !key.contains(where: { $0 == " " || $0 == "[" }) else {
          throw ParseError(line: lineNumber, reason: "invalid key '\(key)'")
        }
        guard entries[key] == nil else {
          throw ParseError(line: lineNumber, reason: "'\(key)' is defined twice")
        }
        entries[key] = value
      }
    }
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

  private static func unescape(_ raw: Substring, line: Int) throws(ParseError) -> String {
    var text = raw
    let quote = UInt8(ascii: "\"")
    if text.utf8.count >= 2, text.utf8.first == quote, text.utf8.last == quote {
      text = text.dropFirst().dropLast()
    }
    // Most texts have no escape.
    if !text.utf8.contains(UInt8(ascii: "\\")) { return String(text) }
    var output = ""
    var escaping = false
    for character in text {
      if escaping {
        switch character {
        case "n": output.append("\n")
        case "t": output.append("\t")
        case "\\": output.append("\\")
        case "\"": output.append("\"")
        default: throw ParseError(line: line, reason: "unknown escape '\\\(character)'")
        }
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else {
        output.append(character)
      }
    }
    if escaping { throw ParseError(line: line, reason: "a line cannot end with '\\'") }
    return output
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
