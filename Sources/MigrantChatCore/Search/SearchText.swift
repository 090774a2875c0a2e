import Foundation

/// The forms text is searched in: every search (contacts, the offline
/// assistant's guides) goes through here, on the indexed text and on the query.
///
/// `fold` is lowercase without diacritics ("Mečová" → "mecova"). `key` goes
/// further, to one Latin spelling of how a word sounds in Czech, so that the
/// Cyrillic and Latin spellings of a name meet: "Брно", "Brno" → "brno";
/// "Градец", "Hradec" → "hradec" (Czech h is Russian and Ukrainian г);
/// "Йиглава", "Їглава", "Jihlava" → "jihlava"; "Оломоуць" → "olomouc".
/// Soft signs are dropped (Děčín/Дечин), Ukrainian и and і and Czech y are all
/// i, a doubled letter is one ("immigration" and "imigration"), w is v.
public enum SearchText {
  public static func fold(_ text: String) -> String {
    // Latin and Cyrillic text (every name in the directory) folds one scalar at a
    // time from a table made once by Foundation: Foundation's folding of each name
    // cost a sync of 100,000 contacts seconds.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    guard foldTable.append(text, to: &bytes) else { return foundationFold(text) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `foundationFold` of every scalar below U+0500, as UTF-8.
  static let foldTable = ScalarSpellings { value in
    // Combining marks go (Foundation removes them from a letter they follow).
    guard !(0x300...0x36F).contains(value), !(0x483...0x489).contains(value) else {
      return [UInt8]()
    }
    return Array(foldedScalars[value].utf8)
  }

  /// `foundationFold` of each scalar below U+0500 on its own, asked of Foundation in
  /// one call (a call for each cost every start of the program two milliseconds):
  /// the scalars between newlines, which fold to themselves and join with nothing.
  /// Control characters (a newline among them) and combining marks (which would
  /// join the newline before them) are folded one at a time.
  static let foldedScalars: [String] = {
    let scalars = (0..<ScalarSpellings.count).compactMap { Unicode.Scalar(UInt32($0)) }
    let printable = scalars.filter { scalar in
      scalar.value >= 0x20 && !(0x7F..<0xA0).contains(scalar.value)
        && !(0x300...0x36F).contains(scalar.value) && !(0x483...0x489).contains(scalar.value)
    }
    let folded = foundationFold(printable.map { String(Character($0)) }.joined(separator: "\n"))
      .utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    let together =
      folded.count == printable.count
      ? Dictionary(
        uniqueKeysWithValues: zip(
          printable.map(\.value), folded.map { String(decoding: $0, as: UTF8.self) }))
      : [:]
    return scalars.map { together[$0.value] ?? foundationFold(String(Character($0))) }
  }()

  static func foundationFold(_ text: String) -> String {
    text.folding(
      options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil
    )
    .precomposedStringWithCanonicalMapping
  }

  /// The search keys of a text's words, in order (see the type's summary).
  public static func keys(_ text: String) -> [String] {
    var bytes: [UInt8] = []
    appendKeys(text, to: &bytes)
    return bytes.split(separator: space).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The keys of all the texts' words, separated by spaces: the text a sync
  /// indexes for every contact, written in one buffer.
  public static func keyText(_ texts: [String]) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(texts.reduce(0) { $0 + $1.utf8.count + 1 })
    for text in texts { appendKeys(text, to: &bytes) }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static let space = UInt8(ascii: " ")

  /// The text with its combining marks composed (a decomposed й or ї is the letter),
  /// when it has any: the first look is at the UTF-8 bytes marks start with.
  static func composed(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0xCC || $0 == 0xCD }),
      text.unicodeScalars.contains(where: { (0x300...0x36F).contains($0.value) })
    else { return text }
    return text.precomposedStringWithCanonicalMapping
  }

  /// Appends the keys of `text` to `output`, a space before each key when
  /// `output` is not empty.
  static func appendKeys(_ text: String, to output: inout [UInt8]) {
    var writer = KeyWriter()
    swap(&writer.output, &output)
    defer { swap(&writer.output, &output) }
    for scalar in composed(text).unicodeScalars {
      if let bytes = table.spelling(scalar.value) {
        for byte in bytes { writer.append(byte) }
      } else if Int(scalar.value) >= ScalarSpellings.count, let other = other(scalar) {
        for byte in other.utf8 { writer.append(byte) }
      } else {
        writer.separate()
      }
    }
  }

  /// Writes keys byte by byte, for `appendKeys`.
  private struct KeyWriter {
    var output: [UInt8] = []
    private var inKey = false
    private var last: UInt8 = 0
    private var run = 0

    mutating func append(_ byte: UInt8) {
      if !inKey {
        if !output.isEmpty { output.append(space) }
        inKey = true
      }
      // A doubled letter is one; digits are kept as they are ("1000"), and so are
      // longer runs ("zzzz" is not "z", which would start half the vocabulary) and
      // the bytes of other scripts' letters (a repeated UTF-8 byte is not a letter).
      run = byte == last ? run + 1 : 1
      last = byte
      if run == 2 && (0x61...0x7A).contains(byte) { return }
      output.append(byte)
    }

    mutating func separate() {
      inKey = false
      last = 0
      run = 0
    }
  }

  /// The key of one word (its keys joined, for words with an apostrophe or a hyphen).
  public static func key(_ word: String) -> String {
    keys(word).joined()
  }

  /// The words of a text as `keys` splits it, unchanged, for what needs the
  /// word itself (stemming, showing it).
  public static func words(_ text: String) -> [String] {
    var words: [String] = []
    var current = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      let value = Int(scalar.value)
      let separates =
        value < ScalarSpellings.count ? !table.spells(value) : other(scalar) == nil
      if separates {
        if !current.isEmpty { words.append(String(current)) }
        current = String.UnicodeScalarView()
      } else {
        current.append(scalar)
      }
    }
    if !current.isEmpty { words.append(String(current)) }
    return words
  }

  /// The spelling of every scalar below U+0500 (ASCII, Latin with diacritics,
  /// Cyrillic): its bytes in the key alphabet, empty for signs that are not
  /// spelled (apostrophes inside words, soft signs), nil for what separates words.
  static let table = ScalarSpellings { value in
    guard let scalar = Unicode.Scalar(UInt32(value)) else { return nil }
    return spelling(scalar).map { Array($0.utf8) }
  }

  static func spelling(_ scalar: Unicode.Scalar) -> String? {
    let value = scalar.value
    switch value {
    case 0x30...0x39: return String(Character(scalar))
    case 0x61...0x7A: return latin(scalar)
    case 0x41...0x5A: return latin(Unicode.Scalar(UInt8(value + 0x20)))
    case 0x27: return ""  // an apostrophe inside a word: "Зв'язатися"
    case 0x300...0x36F: return ""  // combining marks
    case 0x483...0x489: return ""  // Cyrillic combining marks
    case 0xC0..<0x250:
      let character = Character(scalar)
      guard character.isLetter else { return nil }
      // Letters that are not a base letter with a mark: as they are usually spelled
      // without it (Łódź is lodz, Øresund oresund, Æ ae).
      let folded = foldedScalars[Int(value)]
      if let plain = plainLatin[folded] { return plain }
      let ascii = folded.unicodeScalars.filter { $0.value < 0x80 }
      return ascii.isEmpty ? folded : ascii.map { latin($0) }.joined()
    case 0x400...0x4FF:
      return cyrillic[lowercaseCyrillic(value)] ?? other(scalar)
    default: return other(scalar)
    }
  }

  private static let plainLatin: [String: String] = [
    "ß": "ss", "ł": "l", "ø": "o", "đ": "d", "ð": "d", "æ": "ae", "œ": "oe", "þ": "th",
    "ı": "i", "ħ": "h", "ŧ": "t", "ŋ": "n", "ƒ": "f", "ĸ": "k", "ŀ": "l",
  ]

  /// The lowercase of a Russian or Ukrainian capital letter (other scalars as they are).
  static func lowercaseCyrillic(_ value: UInt32) -> UInt32 {
    switch value {
    case 0x410...0x42F: value + 0x20
    case 0x400...0x40F: value + 0x50
    case 0x490: 0x491
    default: value
    }
  }

  private static func latin(_ letter: Unicode.Scalar) -> String {
    switch letter {
    case "y": "i"
    case "w": "v"
    case "q": "k"
    default: String(Character(letter))
    }
  }

  /// Letters of other scripts, as they fold; apostrophes of other shapes (’ ʼ ʻ)
  /// are not spelled; nil for what is not a letter or digit.
  private static func other(_ scalar: Unicode.Scalar) -> String? {
    switch scalar.value {
    case 0x2BC, 0x2019, 0x2BB: return ""
    case 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F: return ""  // combining marks
    default: break
    }
    let character = Character(scalar)
    guard character.isLetter || character.isNumber else { return nil }
    return fold(String(character))
  }

  /// Russian and Ukrainian letters as Czech spells their sounds, without diacritics.
  private static let cyrillic: [UInt32: String] = [
    0x430: "a", 0x431: "b", 0x432: "v", 0x433: "h", 0x491: "g", 0x434: "d", 0x435: "e",
    0x451: "e", 0x454: "je", 0x436: "z", 0x437: "z", 0x438: "i", 0x456: "i", 0x457: "ji",
    0x439: "j", 0x43A: "k", 0x43B: "l", 0x43C: "m", 0x43D: "n", 0x43E: "o", 0x43F: "p",
    0x440: "r", 0x441: "s", 0x442: "t", 0x443: "u", 0x444: "f", 0x445: "ch", 0x446: "c",
    0x447: "c", 0x448: "s", 0x449: "sc", 0x44A: "", 0x44B: "i", 0x44C: "", 0x44D: "e",
    0x44E: "ju", 0x44F: "ja", 0x45E: "u",
  ]
}
