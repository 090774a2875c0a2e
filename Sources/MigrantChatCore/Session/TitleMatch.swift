import Foundation

/// How a typed line is compared with button titles: the way people type them.
///
/// Case, punctuation and spacing do not count ("yes employed" is "Yes,
/// employed"), `ё` is `е` ("жилье" is "Жильё"), and every apostrophe is alike
/// (’ ʼ ' ` for "Зв'язатися"). A line that is one edit from a title (two from
/// nine letters on) is close: the chat asks "Did you mean …?" instead of
/// sending it.
enum TitleMatch {
  /// The comparable form of a title or a typed line.
  static func key(_ text: String) -> String {
    // ASCII needs no normalization (Foundation's is costly on every turn).
    let composed =
      text.utf8.allSatisfy { $0 < 0x80 } ? text : text.precomposedStringWithCanonicalMapping
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
    let left = Array(a)
    let right = Array(b)
    guard abs(left.count - right.count) <= limit else { return nil }
    var previous = Array(0...right.count)
    for (i, x) in left.enumerated() {
      var current = [i + 1] + Array(repeating: 0, count: right.count)
      for (j, y) in right.enumerated() {
        current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
      }
      if current.min() ?? 0 > limit { return nil }
      previous = current
    }
    let result = previous[right.count]
    return result <= limit ? result : nil
  }

  /// A number typed as people write one: `2`, `2.`, `[2]`, `(2)`, `2)`, `#2`.
  static func number(_ text: String) -> Int? {
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
