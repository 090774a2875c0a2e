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
public enum SortKey {
  static let ukrainian = Array("абвгґдеєжзиіїйклмнопрстуфхцчшщьюя")
  static let russian = Array("абвгдежзийклмнопрстуфхцчшщъыьэюя")

  public static func make(_ name: String, language: Language) -> String {
    let alphabet: [Character]
    switch language {
    case .en: return SearchText.fold(name)
    case .ru: alphabet = russian
    case .uk: alphabet = ukrainian
    }
    let positions = Dictionary(
      alphabet.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
    var key = ""
    for character in name.precomposedStringWithCanonicalMapping.lowercased() {
      let letter: Character = (language == .ru && character == "ё") ? "е" : character
      if let position = positions[letter], let scalar = Unicode.Scalar(0xE000 + position) {
        key.unicodeScalars.append(scalar)
      } else {
        key += SearchText.fold(String(character))
      }
    }
    return key
  }
}
