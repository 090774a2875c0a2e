/// A language the client speaks and asks the bot to answer in.
public enum Language: String, Sendable, Hashable, CaseIterable, Codable, CodingKeyRepresentable {
  case en, ru, uk

  /// The language's name in itself, as shown in `/lang`.
  public var endonym: String {
    switch self {
    case .en: "English"
    case .ru: "Русский"
    case .uk: "Українська"
    }
  }

  /// The language's name as it stands inside a sentence in itself: Russian and
  /// Ukrainian write language names in lower case ("Язык изменён: русский.").
  public var nameInSentence: String {
    switch self {
    case .en: "English"
    case .ru: "русский"
    case .uk: "українська"
    }
  }

  /// A language from its code or its name as people type it after `/lang`: `ru`,
  /// `русский`, `Russian`, `російська`, `українська`, `English`, `англійська`...
  public init?(typed text: String) {
    let word = text.trimmingCharacters(in: .whitespaces).lowercased()
    let names: [String: Language] = [
      "english": .en, "английский": .en, "англійська": .en, "англ": .en, "eng": .en,
      "russian": .ru, "русский": .ru, "російська": .ru, "рус": .ru, "русский язык": .ru,
      "ukrainian": .uk, "украинский": .uk, "українська": .uk, "укр": .uk,
      "українська мова": .uk, "ру": .ru, "ук": .uk, "анг": .en,
      // The codes typed with the Cyrillic layout on (`/lang ru` as `/дфтп кг`).
      "кг": .ru, "гл": .uk, "гф": .uk, "ут": .en,
    ]
    if let named = names[word] {
      self = named
    } else if word.count <= 16, let coded = Language(code: word) {
      self = coded
    } else {
      return nil
    }
  }

  /// `en`, `ru` or `uk` from a code such as `uk`, `UK`, `uk_UA.UTF-8` or `ru-RU`.
  ///
  /// `ua` is accepted for Ukrainian because people type the country code.
  public init?(code: String) {
    let base = code.lowercased().prefix { $0.isLetter }
    switch base {
    case "en": self = .en
    case "ru": self = .ru
    case "uk", "ua": self = .uk
    default: return nil
    }
  }
}
