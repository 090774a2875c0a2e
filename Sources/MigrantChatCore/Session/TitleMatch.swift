import Foundation

/// How a typed line is compared with button titles: the way people type them.
///
/// Case, punctuation and spacing do not count ("yes employed" is "Yes,
/// employed"), `ё` is `е` ("жилье" is "Жильё"), and every apostrophe is alike
/// (’ ʼ ' ` for "Зв'язатися"). A line that is one edit from a title (two from
/// nine letters on) is close: the chat asks "Did you mean …?" instead of
/// sending it.
public enum TitleMatch {
  /// The button whose title a typed line is (as the chat compares them), if any: what the
  /// chat sent its payload for.
  public static func button(titled line: String, among buttons: [Button]) -> Button? {
    let typed = key(line)
    return buttons.first { key($0.title) == typed }
  }

  /// The comparable form of a title or a typed line.
  static func key(_ text: String) -> String {
    text.utf8.allSatisfy({ $0 < 0x80 }) ? asciiKey(text) : unicodeKey(text)
  }

  /// `key` of any text, scalar by scalar with Unicode's properties.
  static func unicodeKey(_ text: String) -> String {
    let composed = text.precomposedStringWithCanonicalMapping
    var key = ""
    var pendingSpace = false
    for scalar in composed.lowercased().unicodeScalars {
      if apostrophes.contains(scalar) { continue }
      let properties = scalar.properties
      if properties.isWhitespace || isPunctuationOrSymbol(properties.generalCategory) {
        pendingSpace = !key.isEmpty
        continue
      }
      if pendingSpace {
        key.append(" ")
        pendingSpace = false
      }
      switch scalar {
      case "ё": key.append("е")
      default: key.unicodeScalars.append(scalar)
      }
    }
    return key
  }

  /// `key` of ASCII text, byte by byte: every ASCII sign is punctuation or a
  /// symbol, and needs neither normalization nor a Unicode property lookup
  /// (the chat and `replay` compare every title on every turn).
  static func asciiKey(_ text: String) -> String {
    var key: [UInt8] = []
    key.reserveCapacity(text.utf8.count)
    var pendingSpace = false
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "'"), UInt8(ascii: "`"):
        continue
      case 0x09...0x0D, 0x20, 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E:
        pendingSpace = !key.isEmpty
        continue
      default:
        if pendingSpace {
          key.append(0x20)
          pendingSpace = false
        }
        key.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
      }
    }
    return String(decoding: key, as: UTF8.self)
  }

  /// The apostrophes people type for one another: ' ’ ʼ ` ‘ ′ ʹ.
  static let apostrophes: Set<Unicode.Scalar> = [
    "'", "\u{2019}", "\u{02BC}", "`", "\u{2018}", "\u{2032}", "\u{02B9}",
  ]

  private static func isPunctuationOrSymbol(_ category: Unicode.GeneralCategory) -> Bool {
    switch category {
    case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
      .initialPunctuation, .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol,
      .modifierSymbol, .otherSymbol:
      true
    default: false
    }
  }

  /// Whether every word of `key` (small words aside) is a word of `title` or a
  /// form of one: the same word; its start, from four letters ("find" for
  /// "finding"); or the same but for the last two letters at most, from four
  /// ("жилье" for "жилья", "школа" for "школу"). Keys as `key` makes them.
  static func names(_ key: String, title: String) -> Bool {
    let titleWords = title.split(separator: " ").map { Array($0) }
    let words = key.split(separator: " ").map { Array($0) }.filter { $0.count >= 3 }
    guard !words.isEmpty else { return false }
    return words.allSatisfy { word in
      titleWords.contains { titleWord in
        if word == titleWord { return true }
        guard word.count >= 4 else { return false }
        let common = zip(word, titleWord).prefix { $0 == $1 }.count
        return common == word.count
          || (common >= 4 && max(word.count, titleWord.count) - common <= 2)
      }
    }
  }

  /// Edits a typed line may be from a title to be called close: none under four
  /// letters, one from four, two from nine (as search engines people like do).
  static func allowedEdits(_ key: String) -> Int {
    switch key.count {
    case ..<4: 0
    case ..<9: 1
    default: 2
    }
  }

  /// The Levenshtein distance of two keys, or nil when it is over `limit`.
  static func distance(_ a: String, _ b: String, limit: Int) -> Int? {
    // Keys of ASCII titles compare as bytes; others as characters.
    if a.utf8.allSatisfy({ $0 < 0x80 }) && b.utf8.allSatisfy({ $0 < 0x80 }) {
      return distance(Array(a.utf8), Array(b.utf8), limit: limit)
    }
    return distance(Array(a), Array(b), limit: limit)
  }

  static func distance<Element: Equatable>(
    _ left: [Element], _ right: [Element], limit: Int
  ) -> Int? {
    guard abs(left.count - right.count) <= limit else { return nil }
    // Two rows of the table, reused.
    var previous = Array(0...right.count)
    var current = Array(repeating: 0, count: right.count + 1)
    for (i, x) in left.enumerated() {
      current[0] = i + 1
      var rowMinimum = current[0]
      for (j, y) in right.enumerated() {
        current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
        rowMinimum = min(rowMinimum, current[j + 1])
      }
      if rowMinimum > limit { return nil }
      swap(&previous, &current)
    }
    let result = previous[right.count]
    return result <= limit ? result : nil
  }

  /// A number typed as people write one: `2`, `2.`, `[2]`, `(2)`, `2)`, `#2`.
  static func number(_ text: String) -> Int? {
    // `№2`, as Russian and Ukrainian write "number 2".
    let text = text.hasPrefix("№") ? String(text.dropFirst()).trimmingWhitespace() : text
    guard text.count <= 8, text.allSatisfy(\.isASCII) else { return nil }
    var digits = Substring(text)
    for (open, close) in [("[", "]"), ("(", ")"), ("#", ""), ("", "."), ("", ")")]
    where digits.hasPrefix(open) && digits.hasSuffix(close)
      && digits.count > open.count + close.count
    {
      digits = digits.dropFirst(open.count).dropLast(close.count)
      break
    }
    let trimmed = digits.trimmingCharacters(in: .whitespaces)
    let unsigned = trimmed.hasPrefix("-") ? trimmed.dropFirst() : Substring(trimmed)
    guard !unsigned.isEmpty, unsigned.allSatisfy(\.isNumber) else { return nil }
    return Int(trimmed)
  }
}
