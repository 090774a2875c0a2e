/// Whether a bot's text is in the conversation's language, by its letters.
///
/// No language model: the scripts tell English from Russian and Ukrainian, and
/// the letters only one of the two has tell those apart (і ї є ґ are Ukrainian,
/// ы э ъ ё Russian). Czech names, addresses, links and emails are Latin in
/// every language, so a Russian or Ukrainian text is wrong only when most of its
/// letters are Latin, and words with digits or `@`, `/`, `.` inside are not
/// counted.
public enum LanguageCheck {
  public enum Problem: Sendable, Hashable {
    case cyrillicInEnglish
    case ukrainianLetters(String)
    case russianLetters(String)
    case mostlyLatin
  }

  /// Why `text` is not in `language`, or nil when it may be.
  public static func problem(in text: String, language: Language) -> Problem? {
    var latin = 0
    var cyrillic = 0
    var ukrainianOnly: Set<Character> = []
    var russianOnly: Set<Character> = []
    for word in text.split(whereSeparator: { $0.isWhitespace }) {
      // Links, emails, phone numbers, postcodes: the same in every language.
      if word.contains(where: { $0.isNumber || "@/.:_".contains($0) }) && word.count > 3 {
        continue
      }
      for character in word.lowercased() {
        guard let scalar = character.unicodeScalars.first, character.isLetter else { continue }
        switch scalar.value {
        case 0x41...0x24F: latin += 1
        case 0x400...0x4FF:
          cyrillic += 1
          if "іїєґ".contains(character) { ukrainianOnly.insert(character) }
          if "ыэъё".contains(character) { russianOnly.insert(character) }
        default: break
        }
      }
    }
    func letters(_ set: Set<Character>) -> String { String(set.sorted()) }
    switch language {
    case .en:
      return cyrillic > 0 ? .cyrillicInEnglish : nil
    case .ru:
      if !ukrainianOnly.isEmpty { return .ukrainianLetters(letters(ukrainianOnly)) }
      return latin > cyrillic ? .mostlyLatin : nil
    case .uk:
      if !russianOnly.isEmpty { return .russianLetters(letters(russianOnly)) }
      return latin > cyrillic ? .mostlyLatin : nil
    }
  }
}
