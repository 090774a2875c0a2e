/// Wraps styled text to a width in terminal columns.
///
/// Breaks at spaces, keeps the bot's own line breaks and blank lines, and
/// splits a word wider than the line by grapheme cluster, never inside one.
/// Widths are display widths: emoji and CJK count two columns.
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
    var lines: [StyledText] = []
    for (number, source) in splitLines(text).enumerated() {
      let firstIndent = number == 0 ? indent : continuation
      lines += wrapLine(source, firstIndent: firstIndent, continuation: continuation)
    }
    return lines
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

    for (spaces, word) in words {
      let wordWidth = word.reduce(0) { $0 + DisplayWidth.of($1.character) }
      let spacing = lineHasWord ? spaces : 0
      if used + spacing + wordWidth > width, lineHasWord {
        startLine()
      }
      if lineHasWord {
        // The text's own spacing between words is kept (aligned columns stay aligned).
        line.append(String(repeating: " ", count: spaces))
        used += spaces
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

  /// Words with the number of spaces before each.
  private func split(_ glyphs: [Glyph]) -> [(spaces: Int, word: [Glyph])] {
    var words: [(spaces: Int, word: [Glyph])] = []
    var current: [Glyph] = []
    var spaces = 0
    var pendingSpaces = 0
    for glyph in glyphs {
      if glyph.character == " " {
        if !current.isEmpty {
          words.append((spaces, current))
          current = []
          pendingSpaces = 0
        }
        pendingSpaces += 1
      } else {
        if current.isEmpty { spaces = pendingSpaces }
        current.append(glyph)
      }
    }
    if !current.isEmpty { words.append((spaces, current)) }
    return words
  }
}
