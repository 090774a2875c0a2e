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
/// Computed three times for every contact of a sync, so it is cheap: one
/// lookup per scalar in two tables.
public enum SortKey {
  static let ukrainian = places("абвгґдеєжзиіїйклмнопрстуфхцчшщьюя")
  static let russian = places("абвгдежзийклмнопрстуфхцчшщъыьэюя", extra: ["ё": "е"])

  /// Russian or Ukrainian letter, lowercase or capital → the UTF-8 bytes of its
  /// private-use place in the alphabet.
  private static func places(
    _ alphabet: String, extra: [Unicode.Scalar: Unicode.Scalar] = [:]
  ) -> ScalarSpellings {
    var table: [UInt32: Unicode.Scalar] = [:]
    for (offset, letter) in alphabet.unicodeScalars.enumerated() {
      if let scalar = Unicode.Scalar(0xE000 + offset) { table[letter.value] = scalar }
    }
    for (letter, sameAs) in extra { table[letter.value] = table[sameAs.value] }
    return ScalarSpellings { value in
      table[SearchText.lowercaseCyrillic(UInt32(value))].map { Array(String($0).utf8) }
    }
  }

  public static func make(_ name: String, language: Language) -> String {
    let places: ScalarSpellings
    switch language {
    case .en: return SearchText.fold(name)
    case .ru: places = russian
    case .uk: places = ukrainian
    }
    // Scalar by scalar from two tables (a sync makes three keys for every contact);
    // composed first only when there is something to compose (a decomposed й).
    let text = SearchText.composed(name)
    var key: [UInt8] = []
    key.reserveCapacity(text.utf8.count + 16)
    var done = true
    for scalar in text.unicodeScalars {
      guard
        let bytes = places.spelling(scalar.value) ?? SearchText.foldTable.spelling(scalar.value)
      else {
        done = false
        break
      }
      key.append(contentsOf: bytes)
    }
    return done ? String(decoding: key, as: UTF8.self) : byRuns(text, places: places)
  }

  /// Names with scalars above the tables (other scripts, typographic dashes): the
  /// runs between Russian or Ukrainian letters folded as `SearchText.fold` folds them.
  static func byRuns(_ text: String, places: ScalarSpellings) -> String {
    // No Cyrillic at all: one fold, as for English.
    guard text.unicodeScalars.contains(where: { (0x400...0x4FF).contains($0.value) }) else {
      return SearchText.fold(text)
    }
    var key: [UInt8] = []
    var other = ""
    for scalar in text.unicodeScalars {
      if let bytes = places.spelling(scalar.value) {
        if !other.isEmpty {
          key += SearchText.fold(other).utf8
          other = ""
        }
        key.append(contentsOf: bytes)
      } else {
        other.unicodeScalars.append(scalar)
      }
    }
    if !other.isEmpty { key += SearchText.fold(other).utf8 }
    return String(decoding: key, as: UTF8.self)
  }
}
