import Foundation

/// The Markdown-ish markup bots put in text: `**bold**` and `[title](url)`.
///
/// Anything else is shown as it is. Unclosed markup stays literal, so a stray
/// `**` or `[` never swallows the rest of a message.
public enum InlineMarkup {
  public static func parse(_ text: String) -> StyledText {
    var result = StyledText()
    var plain = ""
    var rest = Substring(text)
    while let first = rest.first {
      if rest.hasPrefix("**"), let close = rest.dropFirst(2).range(of: "**"),
        close.lowerBound > rest.index(rest.startIndex, offsetBy: 2)
      {
        result.append(plain)
        plain = ""
        result.append(
          String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close.lowerBound]), style: .bold)
        rest = rest[close.upperBound...]
      } else if first == "[", let link = parseLink(rest) {
        result.append(plain)
        plain = ""
        if link.title.isEmpty || link.title == link.url {
          result.append(link.url, style: .link)
        } else {
          result.append(link.title + " (")
          result.append(link.url, style: .link)
          result.append(")")
        }
        rest = rest[link.end...]
      } else {
        plain.append(first)
        rest = rest.dropFirst()
      }
    }
    result.append(plain)
    return result
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
