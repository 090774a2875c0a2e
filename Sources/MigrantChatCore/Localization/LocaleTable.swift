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
    for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let lineNumber = offset + 1
      let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
      if line.isEmpty || line.hasPrefix("#") { continue }
      guard let equals = line.firstIndex(of: "=") else {
        throw ParseError(line: lineNumber, reason: "expected 'key = text'")
      }
      let key = line[..<equals].trimmingCharacters(in: .whitespaces)
      let value = try Self.unescape(
        line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces), line: lineNumber)
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

  private static func unescape(_ raw: String, line: Int) throws(ParseError) -> String {
    var text = Substring(raw)
    if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
      text = text.dropFirst().dropLast()
    }
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
