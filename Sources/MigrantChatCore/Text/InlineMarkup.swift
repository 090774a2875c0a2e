import Foundation

/// The Markdown-ish markup bots put in text: `**bold**` and `[title](url)`.
///
/// Anything else is shown as it is. Unclosed markup stays literal, so a stray
/// `**` or `[` never swallows the rest of a message. The terminal shows the spans
/// styled (`parse`); the Markdown export writes them back as Markdown (`markdown`).
public enum InlineMarkup {
  /// A piece of marked-up text.
  public enum Span: Sendable, Hashable {
    case plain(String)
    case bold(String)
    case link(title: String, url: String)
  }

  /// `text` cut into its spans, in order; plain text between them is one span.
  public static func spans(_ text: String) -> [Span] {
    var spans: [Span] = []
    var plain = ""
    var rest = Substring(text)
    func flush() {
      if !plain.isEmpty { spans.append(.plain(plain)) }
      plain = ""
    }
    while let first = rest.first {
      if rest.hasPrefix("**"), let close = rest.dropFirst(2).range(of: "**"),
        close.lowerBound > rest.index(rest.startIndex, offsetBy: 2)
      {
        flush()
        spans.append(
          .bold(String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close.lowerBound])))
        rest = rest[close.upperBound...]
      } else if first == "[", let link = parseLink(rest) {
        flush()
        spans.append(.link(title: link.title, url: link.url))
        rest = rest[link.end...]
      } else {
        plain.append(first)
        rest = rest.dropFirst()
      }
    }
    flush()
    return spans
  }

  /// As the terminal shows it: bold, and a link as its title with the address after it.
  public static func parse(_ text: String) -> StyledText {
    var result = StyledText()
    for span in spans(text) {
      switch span {
      case .plain(let text): result.append(text)
      case .bold(let text): result.append(text, style: .bold)
      case .link(let title, let url):
        if title.isEmpty || title == url {
          result.append(url, style: .link)
        } else {
          result.append(title + " (")
          result.append(url, style: .link)
          result.append(")")
        }
      }
    }
    return result
  }

  /// As Markdown, for a shared export: bold stays bold and an `http(s)` link stays a
  /// link; everything else is escaped by `escape` (so no HTML, heading or other
  /// markup comes from a server), and a link to anything but `http(s)` is its title
  /// and address as text.
  public static func markdown(_ text: String, escape: (String) -> String) -> String {
    spans(text).map { span in
      switch span {
      case .plain(let text): return escape(text)
      case .bold(let text): return "**" + escape(text) + "**"
      case .link(let title, let url):
        let lowered = url.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://") else {
          return escape(title.isEmpty || title == url ? url : title + " (" + url + ")")
        }
        // The address with the signs that would end it escaped (`)`, `<`, `>`, spaces).
        let address = url.replacingOccurrences(of: "\\", with: "%5C")
          .replacingOccurrences(of: "(", with: "%28").replacingOccurrences(of: ")", with: "%29")
          .replacingOccurrences(of: "<", with: "%3C").replacingOccurrences(of: ">", with: "%3E")
        return "[" + escape(title.isEmpty ? url : title) + "](" + address + ")"
      }
    }.joined()
  }

  private static func parseLink(
    _ text: Substring
  ) -> (title: String, url: String, end: Substring.Index)? {
    guard let titleEnd = text.range(of: "]("),
      !text[text.index(after: text.startIndex)..<titleEnd.lowerBound].contains("\n"),
      let urlEnd = text[titleEnd.upperBound...].firstIndex(of: ")")
    else { return nil }
    let url = text[titleEnd.upperBound..<urlEnd]
    guard !url.isEmpty, !url.contains(where: \.isWhitespace) else { return nil }
    let title = text[text.index(after: text.startIndex)..<titleEnd.lowerBound]
    return (String(title), String(url), text.index(after: urlEnd))
  }
}
