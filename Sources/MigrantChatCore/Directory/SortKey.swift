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

  private static func positions(
    _ alphabet: String, extra: [Character: Character] = [:]
  ) -> [Character: Unicode.Scalar] {
    var table: [Character: Unicode.Scalar] = [:]
    for (offset, letter) in alphabet.enumerated() {
      if let scalar = Unicode.Scalar(0xE000 + offset) { table[letter] = scalar }
    }
    for (letter, sameAs) in extra { table[letter] = table[sameAs] }
    return table
  }

  public static func make(_ name: String, language: Language) -> String {
    let table: [Character: Unicode.Scalar]
    switch language {
    case .en: return SearchText.fold(name)
    case .ru: table = russian
    case .uk: table = ukrainian
    }
    // No Cyrillic at all (most Czech names): one fold, as for English.
    guard name.unicodeScalars.contains(where: { (0x400...0x4FF).contains($0.value) }) else {
      return SearchText.fold(name)
    }
    var key = ""
    var other = ""
    for character in name.precomposedStringWithCanonicalMapping.lowercased() {
      if let scalar = table[character] {
        if !other.isEmpty {
          key += SearchText.fold(other)
          other = ""
        }
        key.unicodeScalars.append(scalar)
      } else {
        other.append(character)
      }
    }
    if !other.isEmpty { key += SearchText.fold(other) }
    return key
  }
}
