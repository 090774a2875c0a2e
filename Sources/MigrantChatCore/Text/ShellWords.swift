/// A chat command's arguments split into words as a shell splits them, so chat
/// commands take the same words as the command line.
///
/// `"…"` and `'…'` group words and are removed; a backslash keeps the next
/// character (outside single quotes). Liberties a shell does not take, for
/// people typing prose: the quotes their keyboards and autocorrect make (`«…»`,
/// `“…”`, `„…“`) group words too; an apostrophe between two letters is a letter
/// (`Зв'язатися`, `don't`); a quote that is never closed is kept as typed
/// rather than refused; a word starting with a dash that autocorrect made of
/// `--` (`—due`, `–due`) is that option.
public enum ShellWords {
  public static func split(_ text: String) -> [String] {
    let characters = Array(text)
    var words: [String] = []
    var word = ""
    var inWord = false
    var index = 0
    while index < characters.count {
      let character = characters[index]
      if character.isWhitespace {
        if inWord { words.append(word) }
        word = ""
        inWord = false
        index += 1
        continue
      }
      if character == "\\", index + 1 < characters.count {
        word.append(characters[index + 1])
        inWord = true
        index += 2
        continue
      }
      if let closer = typographic[character],
        let close = characters[(index + 1)...].firstIndex(where: { closer.contains($0) })
      {
        word += String(characters[(index + 1)..<close])
        inWord = true
        index = close + 1
        continue
      }
      if character == "\"" || character == "'",
        !isApostrophe(characters, at: index),
        let close = closing(character, in: characters, after: index)
      {
        word += quoted(characters, from: index + 1, to: close, double: character == "\"")
        inWord = true
        index = close + 1
        continue
      }
      if !inWord, character == "—" || character == "–", index + 1 < characters.count,
        characters[index + 1].isLetter
      {
        word = "--"
        inWord = true
        index += 1
        continue
      }
      word.append(character)
      inWord = true
      index += 1
    }
    if inWord { words.append(word) }
    return words
  }

  /// Typographic opening quotes and the quotes that close them.
  private static let typographic: [Character: Set<Character>] = [
    "«": ["»"], "“": ["”"], "„": ["“", "”"],
  ]

  /// `'` with a letter on both sides: part of a word, not a quote.
  private static func isApostrophe(_ characters: [Character], at index: Int) -> Bool {
    characters[index] == "'" && index > 0 && index + 1 < characters.count
      && characters[index - 1].isLetter && characters[index + 1].isLetter
  }

  /// Where the quote opened at `open` closes; nil when it never does.
  private static func closing(_ quote: Character, in characters: [Character], after open: Int)
    -> Int?
  {
    var index = open + 1
    while index < characters.count {
      if quote == "\"" && characters[index] == "\\" {
        index += 2
        continue
      }
      if characters[index] == quote && !(quote == "'" && isApostrophe(characters, at: index)) {
        return index
      }
      index += 1
    }
    return nil
  }

  /// The text between two quotes; in double quotes `\"` and `\\` are the character.
  private static func quoted(_ characters: [Character], from start: Int, to end: Int, double: Bool)
    -> String
  {
    guard double else { return String(characters[start..<end]) }
    var text = ""
    var index = start
    while index < end {
      if characters[index] == "\\", index + 1 < end, "\"\\".contains(characters[index + 1]) {
        text.append(characters[index + 1])
        index += 2
      } else {
        text.append(characters[index])
        index += 1
      }
    }
    return text
  }
}
