import Foundation

/// The key names are sorted by, in each language's own alphabet.
///
/// Byte order of folded text puts Ukrainian `і`, `ї`, `є`, `ґ` after `я`
/// ("Інтеграційний" after "Центр"). Here each letter of the language's
/// alphabet becomes one private-use character in alphabet order, so keys
/// compare correctly as plain strings (in SQLite and in the search index):
/// Ukrainian а б в г ґ д е є ж з и і ї й к … ь ю я, Russian а б в г д е ё ж з
/// и й к … ъ ы ь э ю я (ё sorted with е, as dictionaries do). Other letters are
/// folded as search folds them (case and diacritics), and come before Cyrillic.
/// Computed for every contact of a sync inside its transaction, so it is cheap:
/// text with no Cyrillic is folded once, and runs of other characters together.
public enum SortKey {
  static let ukrainian = positions("абвгґдеєжзиіїйклмнопрстуфхцчшщьюя")
  static let russian = positions("абвгдежзийклмнопрстуфхцчшщъыьэюя", extra: ["ё": "е"])

  /// Lowercase Cyrillic scalar → its private-use place in the alphabet.
  private static func positions(
    _ alphabet: String, extra: [Unicode.Scalar: Unicode.Scalar] = [:]
  ) -> [UInt32: Unicode.Scalar] {
    var table: [UInt32: Unicode.Scalar] = [:]
    for (offset, letter) in alphabet.unicodeScalars.enumerated() {
      if let scalar = Unicode.Scalar(0xE000 + offset) { table[letter.value] = scalar }
    }
    for (letter, sameAs) in extra { table[letter.value] = table[sameAs.value] }
    return table
  }

  public static func make(_ name: String, language: Language) -> String {
    let table: [UInt32: Unicode.Scalar]
    switch language {
    case .en: return SearchText.fold(name)
    case .ru: table = russian
    case .uk: table = ukrainian
    }
    // No Cyrillic at all (most Czech names): one fold, as for English.
    guard name.unicodeScalars.contains(where: { (0x400...0x4FF).contains($0.value) }) else {
      return SearchText.fold(name)
    }
    // Scalar by scalar (a sync makes three keys for every contact); composed first
    // only when there is something to compose (a decomposed й).
    let text =
      name.unicodeScalars.contains { (0x300...0x36F).contains($0.value) }
      ? name.precomposedStringWithCanonicalMapping : name
    var key = String.UnicodeScalarView()
    var other = ""
    for scalar in text.unicodeScalars {
      if let mapped = table[SearchText.lowercaseCyrillic(scalar.value)] {
        if !other.isEmpty {
          key += SearchText.fold(other).unicodeScalars
          other = ""
        }
        key.append(mapped)
      } else {
        other.unicodeScalars.append(scalar)
      }
    }
    if !other.isEmpty { key += SearchText.fold(other).unicodeScalars }
    return String(key)
  }
}
