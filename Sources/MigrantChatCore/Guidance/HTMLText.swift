import Foundation

/// The guidance API's HTML as the bots' Markdown-ish text.
///
/// `p` and `br` become line breaks, `b`/`strong` become `**bold**`, `a href`
/// becomes `[title](url)`, `ul`/`ol`/`li` become `• item` and `1. item` lines,
/// entities are decoded; `i`/`em` and every other tag are dropped (their text
/// kept), and the contents of `script`, `style` and comments are dropped
/// whole. Nothing is ever shown as a raw tag. The output is still untrusted
/// text: the renderer sanitizes it like anything else from a server.
public enum HTMLText {
  public static func markup(_ html: String) -> String {
    var converter = Converter()
    converter.run(html)
    return converter.finish()
  }

  /// Text only, without markup: for search.
  public static func plain(_ html: String) -> String {
    var converter = Converter()
    converter.plain = true
    converter.run(html)
    return converter.finish()
  }

  private struct Converter {
    var plain = false
    var output = ""
    var lists: [(ordered: Bool, count: Int)] = []
    var linkStart: String.Index?
    var linkURL: String?
    /// Inside script or style: text is dropped until the closing tag.
    var skipping: String?

    mutating func run(_ html: String) {
      var rest = Substring(html)
      while !rest.isEmpty {
        if rest.hasPrefix("<!--") {
          if let end = rest.range(of: "-->") {
            rest = rest[end.upperBound...]
          } else {
            rest = ""
          }
          continue
        }
        if rest.first == "<", let close = rest.firstIndex(of: ">") {
          let inside = rest[rest.index(after: rest.startIndex)..<close]
          if inside.first.map({ $0.isLetter || $0 == "/" || $0 == "!" || $0 == "?" }) == true {
            handle(tag: inside)
            rest = rest[rest.index(after: close)...]
            continue
          }
        }
        let next = rest.dropFirst().firstIndex(of: "<") ?? rest.endIndex
        if skipping == nil { text(String(rest[..<next])) }
        rest = rest[next...]
      }
    }

    mutating func finish() -> String {
      // Collapse runs of blank lines and trim.
      var lines: [String] = []
      for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
        let trimmed = line.trimmingWhitespace()
        if trimmed.isEmpty, lines.last?.isEmpty ?? true { continue }
        lines.append(trimmed)
      }
      while lines.last?.isEmpty == true { lines.removeLast() }
      return lines.joined(separator: "\n")
    }

    private mutating func text(_ raw: String) {
      let decoded = HTMLEntities.decode(raw)
      // HTML whitespace: runs collapse to one space.
      var collapsed = ""
      var lastWasSpace = output.last.map { $0 == " " || $0 == "\n" } ?? true
      for character in decoded {
        if character.isWhitespace {
          if !lastWasSpace { collapsed.append(" ") }
          lastWasSpace = true
        } else {
          collapsed.append(character)
          lastWasSpace = false
        }
      }
      output += collapsed
    }

    private mutating func newline(blank: Bool = false) {
      while output.last == " " { output.removeLast() }
      if output.isEmpty { return }
      if !output.hasSuffix("\n") { output += "\n" }
      if blank && !output.hasSuffix("\n\n") { output += "\n" }
    }

    private mutating func handle(tag inside: Substring) {
      let closing = inside.first == "/"
      let body = closing ? inside.dropFirst() : inside
      let name = body.prefix { $0.isLetter || $0.isNumber }.lowercased()
      if let skipped = skipping {
        if closing && name == skipped { skipping = nil }
        return
      }
      switch (name, closing) {
      case ("script", false), ("style", false):
        if !body.hasSuffix("/") { skipping = name }
      case ("p", _), ("div", _), ("h1", _), ("h2", _), ("h3", _), ("h4", _), ("table", _):
        newline(blank: true)
      case ("br", _), ("tr", _):
        newline()
      case ("b", _), ("strong", _):
        if !plain { output += "**" }
      case ("ul", false), ("ol", false):
        newline()
        lists.append((ordered: name == "ol", count: 0))
      case ("ul", true), ("ol", true):
        if !lists.isEmpty { lists.removeLast() }
        newline(blank: lists.isEmpty)
      case ("li", false):
        newline()
        let depth = String(repeating: "  ", count: max(lists.count - 1, 0))
        if var list = lists.popLast() {
          list.count += 1
          output += depth + (list.ordered ? "\(list.count). " : "• ")
          lists.append(list)
        } else {
          output += "• "
        }
      case ("a", false):
        linkURL = attribute("href", in: body)
        linkStart = output.endIndex
      case ("a", true):
        guard let start = linkStart, let url = linkURL, !plain else {
          linkStart = nil
          return
        }
        let title = output[start...].trimmingWhitespace()
        output.removeSubrange(start...)
        let safeTitle = title.replacingOccurrences(of: "]", with: ")")
        output += title.isEmpty || title == url ? "[\(url)](\(url))" : "[\(safeTitle)](\(url))"
        linkStart = nil
        linkURL = nil
      default:
        break
      }
    }

    /// An attribute's value, quoted or not; only http, https and mailto links are kept.
    private func attribute(_ name: String, in tag: Substring) -> String? {
      guard let range = tag.range(of: name + "=", options: .caseInsensitive) else { return nil }
      var value = tag[range.upperBound...]
      let quote = value.first
      if quote == "\"" || quote == "'" {
        value = value.dropFirst()
        value = value.prefix { $0 != quote }
      } else {
        value = value.prefix { !$0.isWhitespace && $0 != ">" }
      }
      let url = HTMLEntities.decode(String(value)).trimmingWhitespace()
      let scheme = url.lowercased()
      guard
        scheme.hasPrefix("http://") || scheme.hasPrefix("https://") || scheme.hasPrefix("mailto:"),
        !url.contains(where: { $0 == ")" || $0 == " " })
      else { return nil }
      return url
    }
  }
}

/// HTML character references: the named ones guidance text uses, and numeric ones.
enum HTMLEntities {
  static let named: [String: String] = [
    "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "ndash": "–",
    "mdash": "—", "hellip": "…", "laquo": "«", "raquo": "»", "bdquo": "„", "ldquo": "“",
    "rdquo": "”", "lsquo": "‘", "rsquo": "’", "copy": "©", "euro": "€", "times": "×",
  ]

  static func decode(_ text: String) -> String {
    guard text.contains("&") else { return text }
    var result = ""
    var rest = Substring(text)
    while let ampersand = rest.firstIndex(of: "&") {
      result += rest[..<ampersand]
      let after = rest[rest.index(after: ampersand)...]
      if let semicolon = after.prefix(12).firstIndex(of: ";"),
        let decoded = decode(entity: after[..<semicolon])
      {
        result += decoded
        rest = after[after.index(after: semicolon)...]
      } else {
        result += "&"
        rest = after
      }
    }
    return result + rest
  }

  private static func decode(entity: Substring) -> String? {
    if entity.hasPrefix("#") {
      let digits = entity.dropFirst()
      let value =
        digits.first == "x" || digits.first == "X"
        ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
      // NUL and surrogates become U+FFFD rather than disappearing silently.
      guard let value else { return nil }
      return String(Unicode.Scalar(value).map(Character.init) ?? "\u{FFFD}")
        .replacingOccurrences(of: "\u{0}", with: "\u{FFFD}")
    }
    return named[entity.lowercased()]
  }
}
