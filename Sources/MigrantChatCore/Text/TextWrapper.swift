/// Wraps styled text to a width in terminal columns.
///
/// Breaks at spaces, keeps the bot's own line breaks and blank lines, and
/// splits a word wider than the line by grapheme cluster, never inside one.
/// A link (`scheme://…`) is never split: one longer than the line stands
/// alone on its own line, whole, so it can be clicked and copied (the
/// terminal folds it for the eye). Widths are display widths: emoji and CJK
/// count two columns.
public struct TextWrapper: Sendable {
  public var width: Int

  public init(width: Int) {
    self.width = max(width, 10)
  }

  /// Lines of `text`, the first starting with `indent`, the rest with `hangingIndent`.
  public func wrap(
    _ text: StyledText, indent: String = "", hangingIndent: String? = nil
  ) -> [StyledText] {
    let continuation = hangingIndent ?? indent
    if fitsOnOneLine(text, indent: indent) { return [StyledText(indent) + text] }
    var lines: [StyledText] = []
    for (number, source) in splitLines(text).enumerated() {
      let firstIndent = number == 0 ? indent : continuation
      lines += wrapLine(source, firstIndent: firstIndent, continuation: continuation)
    }
    return lines
  }

  /// True when wrapping would give back the text as it is after `indent`: one
  /// line, narrow enough, with no trailing spaces and no deep leading ones.
  /// Most card fields and short messages; it spares the glyph-by-glyph path.
  private func fitsOnOneLine(_ text: StyledText, indent: String) -> Bool {
    var used = DisplayWidth.of(indent)
    for run in text.runs {
      if run.text.utf8.contains(UInt8(ascii: "\n")) || run.text.utf8.contains(UInt8(ascii: "\r")) {
        return false
      }
      used += DisplayWidth.of(run.text)
      if used > width { return false }
    }
    let plain = text.plainText
    let leading = plain.utf8.prefix { $0 == UInt8(ascii: " ") }.count
    return plain.utf8.last != UInt8(ascii: " ") && leading <= width / 2
  }

  private typealias Glyph = (character: Character, style: TextStyle)

  private func splitLines(_ text: StyledText) -> [[Glyph]] {
    var lines: [[Glyph]] = [[]]
    for run in text.runs {
      for character in run.text {
        if character == "\n" || character == "\r\n" {
          lines.append([])
        } else {
          lines[lines.count - 1].append((character, run.style))
        }
      }
    }
    return lines
  }

  private func wrapLine(
    _ glyphs: [Glyph], firstIndent: String, continuation: String
  ) -> [StyledText] {
    // Leading spaces are the bot's own indentation: keep them on every wrapped line.
    let leading = glyphs.prefix { $0.character == " " }.count
    let ownIndent = String(repeating: " ", count: min(leading, width / 2))
    let words = split(Array(glyphs.dropFirst(leading)))
    var lines: [StyledText] = []
    var line = StyledText(firstIndent + ownIndent)
    var used = DisplayWidth.of(firstIndent + ownIndent)
    var lineHasWord = false
    let nextIndent = continuation + ownIndent
    let nextIndentWidth = DisplayWidth.of(nextIndent)

    func startLine() {
      lines.append(line)
      line = StyledText(nextIndent)
      used = nextIndentWidth
      lineHasWord = false
    }

    for (spaces, spaceStyle, word) in words {
      let wordWidth = word.reduce(0) { $0 + DisplayWidth.of($1.character) }
      let spacing = lineHasWord ? spaces : 0
      if used + spacing + wordWidth > width, lineHasWord {
        startLine()
      }
      if lineHasWord {
        // The text's own spacing between words is kept (aligned columns stay aligned).
        line.append(String(repeating: " ", count: spaces), style: spaceStyle)
        used += spaces
      }
      if used + wordWidth <= width {
        // It fits: appended a run of one style at a time.
        var start = word.startIndex
        while start < word.endIndex {
          let style = word[start].style
          let end = word[start...].firstIndex { $0.style != style } ?? word.endIndex
          line.append(String(word[start..<end].map(\.character)), style: style)
          start = end
        }
        used += wordWidth
        lineHasWord = true
        continue
      }
      if Self.isLink(word) {
        // A link is kept whole, alone on its line (after the indent) when it is too long.
        if lineHasWord || used > nextIndentWidth { startLine() }
        line.append(String(word.map(\.character)), style: word.first?.style ?? .plain)
        used += wordWidth
        lineHasWord = true
        continue
      }
      // A word wider than a whole line is split by grapheme cluster.
      for glyph in word {
        let glyphWidth = DisplayWidth.of(glyph.character)
        if used + glyphWidth > width, used > nextIndentWidth || lineHasWord {
          startLine()
        }
        line.append(String(glyph.character), style: glyph.style)
        used += glyphWidth
        lineHasWord = true
      }
    }
    lines.append(line)
    return lines
  }

  /// `http://…`, `https://…` and the like, with or without surrounding punctuation.
  private static func isLink(_ word: [Glyph]) -> Bool {
    guard word.count > 8 else { return false }
    let text = String(word.map(\.character))
    guard let separator = text.range(of: "://") else { return false }
    let scheme = text[..<separator.lowerBound].drop { !$0.isLetter }
    return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0 == "+" || $0 == "." }
  }

  /// Words with the number of spaces before each, and the style of those spaces.
  private func split(_ glyphs: [Glyph]) -> [(spaces: Int, spaceStyle: TextStyle, word: [Glyph])] {
    var words: [(spaces: Int, spaceStyle: TextStyle, word: [Glyph])] = []
    var current: [Glyph] = []
    var spaces = 0
    var spaceStyle = TextStyle.plain
    var pendingSpaces = 0
    var pendingStyle = TextStyle.plain
    for glyph in glyphs {
      if glyph.character == " " {
        if !current.isEmpty {
          words.append((spaces, spaceStyle, current))
          current = []
          pendingSpaces = 0
        }
        pendingSpaces += 1
        pendingStyle = glyph.style
      } else {
        if current.isEmpty {
          spaces = pendingSpaces
          spaceStyle = pendingStyle
        }
        current.append(glyph)
      }
    }
    if !current.isEmpty { words.append((spaces, spaceStyle, current)) }
    return words
  }
}
