/// CLDR plural categories, and the rules of the three languages.
public enum PluralCategory: String, Sendable, Hashable, CaseIterable {
  case zero, one, two, few, many, other

  /// The categories a language distinguishes; its table must give each of them.
  public static func categories(of language: Language) -> [PluralCategory] {
    switch language {
    case .en: [.one, .other]
    case .ru, .uk: [.one, .few, .many, .other]
    }
  }

  /// The category of `count` in `language`, per CLDR's rules.
  ///
  /// `i` is the integer part and `v` the number of visible fraction digits:
  /// any fraction (1.5) is `other` in all three languages.
  public static func of(_ count: Double, in language: Language) -> PluralCategory {
    let magnitude = abs(count)
    let hasFraction = magnitude.rounded(.towardZero) != magnitude
    guard !hasFraction, magnitude < 1e15 else { return .other }
    let i = Int64(magnitude)
    switch language {
    case .en:
      return i == 1 ? .one : .other
    case .ru, .uk:
      let mod10 = i % 10
      let mod100 = i % 100
      if mod10 == 1 && mod100 != 11 { return .one }
      if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
      return .many
    }
  }

  public static func of(_ count: Int, in language: Language) -> PluralCategory {
    of(Double(count), in: language)
  }
}
