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
