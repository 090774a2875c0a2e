/// Picks the language: `--lang` > `MIGRANT_CHAT_LANG` > the remembered `/lang`
/// choice > the locale (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`) > English.
public enum LanguageResolver {
  public struct InvalidLanguage: Error, Hashable {
    /// Where the value came from: `--lang` or an environment variable.
    public var source: String
    public var value: String
  }

  public static func resolve(
    flag: String?, environment: [String: String], remembered: Language?
  ) throws(InvalidLanguage) -> Language {
    if let flag {
      guard let language = Language(code: flag), flag.count <= 16 else {
        throw InvalidLanguage(source: "--lang", value: flag)
      }
      return language
    }
    if let value = environment["MIGRANT_CHAT_LANG"], !value.isEmpty {
      guard let language = Language(code: value) else {
        throw InvalidLanguage(source: "MIGRANT_CHAT_LANG", value: value)
      }
      return language
    }
    if let remembered { return remembered }
    return fromLocale(environment)
  }

  /// The language of the POSIX locale variables; C, POSIX and unknown locales are English.
  ///
  /// `LANGUAGE` is a preference list (`uk:ru`): its first supported entry wins,
  /// and when none is supported the next variable decides.
  public static func fromLocale(_ environment: [String: String]) -> Language {
    if let list = environment["LANGUAGE"], !list.isEmpty {
      for entry in list.split(separator: ":") {
        if let language = Language(code: String(entry)) { return language }
      }
    }
    for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
      if let value = environment[name], !value.isEmpty {
        return Language(code: value) ?? .en
      }
    }
    return .en
  }
}
