/// The accessible mode (#47), for screen readers and braille displays.
///
/// A screen reader speaks every character the terminal is sent, line by line: a
/// line written and erased (`\r`, `ESC[K`) is read twice, an escape sequence is
/// read as its characters under `TERM=dumb`, and a glyph is read by its Unicode
/// name ("almost equal to", "middle dot"). In this mode nothing is redrawn or
/// erased, no escape sequence is sent, and glyphs are words.
public enum Accessibility {
  /// On with `--accessible`, `ACCESSIBLE` set to anything but `0`, `false`, `no` or
  /// `off` (the convention gh and charm's huh follow), `accessible: true` in
  /// config.yaml, and by itself under `TERM=dumb`. The nearer setting wins:
  /// `ACCESSIBLE=0` turns it off under `TERM=dumb` (escape sequences stay off there).
  public static func enabled(flag: Bool, config: Bool?, environment: [String: String]) -> Bool {
    if flag { return true }
    if let value = environment["ACCESSIBLE"], !value.isEmpty {
      return !["0", "false", "no", "off"].contains(value.lowercased())
    }
    if let config { return config }
    return environment["TERM"] == "dumb"
  }

  /// Whether escape sequences (colour, erasing a line, readline's redraws) may be
  /// sent: never under `TERM=dumb`, whatever was asked, and never in accessible mode.
  public static func escapesAllowed(accessible: Bool, environment: [String: String]) -> Bool {
    !accessible && environment["TERM"] != "dumb"
  }

  /// `text` as it should be heard: the glyphs this program writes (and a bot may
  /// send) as words or plain punctuation, braille cells left out. Line breaks and
  /// everything else are kept; applying it twice changes nothing.
  public static func spoken(_ text: String, l10n: Localizer) -> String {
    guard text.unicodeScalars.contains(where: needsWords) else {
      return text
    }
    let characters = Array(text)
    var output = ""
    var index = 0
    func previous() -> Character? { output.last }
    func next(after position: Int) -> Character? {
      position + 1 < characters.count ? characters[position + 1] : nil
    }
    while index < characters.count {
      let character = characters[index]
      switch character {
      case "≈":
        output += l10n(.a11yAbout) + " "
        if next(after: index) == " " { index += 1 }
      case "★":
        // Decoration in a bot's text ("choose ★ a topic"); the program's own favourite
        // mark is a word already in this mode (`Renderer.accessible`).
        if next(after: index) == " " && (previous() == " " || previous() == nil) { index += 1 }
      case "→":
        // "Visa → extension": a step, heard as a pause, not as "to".
        index = separator(at: index, in: characters, output: &output)
      case "~":
        // "~ 1 000 Kč", "~2 km": about; a tilde inside a word (an address) stays.
        if previous() == nil || previous() == " " || previous() == "\n" {
          output += l10n(.a11yAbout) + " "
          if next(after: index) == " " { index += 1 }
        } else {
          output.append(character)
        }
      case "•":
        // A bullet: the indent before it is kept, "  • Name" reads "  Name".
        if next(after: index) == " " { index += 1 }
      case "·":
        index = separator(at: index, in: characters, output: &output)
      case "–", "—":
        // A range, with nothing around the dash: "9–17", "Пн–Пт".
        if let before = previous(), let after = next(after: index),
          before.isLetter || before.isNumber, after.isLetter || after.isNumber
        {
          output += " " + l10n(.a11yTo) + " "
        } else {
          index = separator(at: index, in: characters, output: &output)
        }
      case "…":
        output += previous() == nil || previous() == " " ? "" : "."
      default:
        if let scalar = character.unicodeScalars.first, (0x2800...0x28FF).contains(scalar.value) {
          break  // braille cells: a drawing, not text
        }
        output.append(character)
      }
      index += 1
    }
    return output
  }

  private static func needsWords(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "≈", "★", "→", "•", "·", "–", "—", "…", "~": true
    default: (0x2800...0x28FF).contains(scalar.value)
    }
  }

  /// A separator glyph at `index` as a pause: a comma between two parts of a line,
  /// nothing at either end of it; the spaces around it go. The index of the last
  /// character used.
  private static func separator(at index: Int, in characters: [Character], output: inout String)
    -> Int
  {
    trimTrailingSpaces(&output)
    var skip = index + 1
    while skip < characters.count && characters[skip] == " " { skip += 1 }
    let atLineStart = output.isEmpty || output.last == "\n"
    let atLineEnd = skip >= characters.count || characters[skip] == "\n"
    if !atLineStart && !atLineEnd { output += ", " }
    return skip - 1
  }

  private static func trimTrailingSpaces(_ text: inout String) {
    while text.last == " " { text.removeLast() }
  }

  /// Opening hours as they are heard: a hyphen between two times or two day names is
  /// "to" ("Пн-Чт 09:00-17:00" is "Пн до Чт 09:00 до 17:00"); espeak reads it as nothing.
  public static func spokenHours(_ text: String, l10n: Localizer) -> String {
    let characters = Array(text)
    var output = ""
    for (index, character) in characters.enumerated() {
      guard character == "-", index > 0, index + 1 < characters.count else {
        output.append(character)
        continue
      }
      let before = characters[index - 1]
      let after = characters[index + 1]
      // Day names are short ("Пн", "Mon"); a longer word with a hyphen stays as it is.
      let dayBefore = characters[..<index].reversed().prefix { $0.isLetter }.count
      let dayAfter = characters[(index + 1)...].prefix { $0.isLetter }.count
      if (before.isNumber && after.isNumber)
        || (before.isLetter && after.isLetter && dayBefore <= 3 && dayAfter <= 3)
      {
        output += " " + l10n(.a11yTo) + " "
      } else {
        output.append(character)
      }
    }
    return output
  }

  /// `text` without what a terminal acts on rather than shows: escape sequences
  /// (CSI, OSC and two-character ones), a carriage return not followed by a line
  /// feed, and backspaces. The last guard before the bytes leave, in accessible
  /// mode and under `TERM=dumb`.
  public static func withoutEscapes(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x1B || $0 == 0x0D || $0 == 0x08 || $0 == 0x9B })
    else { return text }
    let scalars = Array(text.unicodeScalars)
    var output = String.UnicodeScalarView()
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      switch scalar.value {
      case 0x1B, 0x9B:
        index = endOfEscape(scalars, from: index)
        continue
      case 0x0D:
        if index + 1 < scalars.count && scalars[index + 1] == "\n" { output.append(scalar) }
      case 0x08:
        break
      default:
        output.append(scalar)
      }
      index += 1
    }
    return String(output)
  }

  /// The index after the escape sequence starting at `start` (ECMA-48).
  private static func endOfEscape(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
    var index = start + 1
    let csi = scalars[start].value == 0x9B
    if !csi {
      guard index < scalars.count else { return index }
      let kind = scalars[index]
      index += 1
      switch kind {
      case "[":
        break  // CSI, below
      case "]", "P", "X", "^", "_":
        // OSC, DCS, SOS, PM, APC: up to BEL or ST (ESC \).
        while index < scalars.count {
          if scalars[index].value == 0x07 { return index + 1 }
          if scalars[index].value == 0x1B {
            return index + 1 < scalars.count && scalars[index + 1] == "\\" ? index + 2 : index + 1
          }
          index += 1
        }
        return index
      default:
        // ESC followed by intermediates (0x20-0x2F) and one final character.
        var position = index - 1
        while position < scalars.count && (0x20...0x2F).contains(scalars[position].value) {
          position += 1
        }
        return min(position + 1, scalars.count)
      }
    }
    // Parameters and intermediates, then one final character (0x40-0x7E).
    while index < scalars.count && (0x20...0x3F).contains(scalars[index].value) { index += 1 }
    return min(index + 1, scalars.count)
  }
}
