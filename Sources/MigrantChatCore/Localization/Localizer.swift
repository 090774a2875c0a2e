import Foundation

/// Every user-facing string, in the user's language.
///
/// The tables come from `Locales/*.properties`, embedded in the binary at
/// build time, so a copied binary still speaks all three languages. A key
/// missing from a table falls back to English, then to the key itself; the
/// test suite makes sure neither happens in a release.
public struct Localizer: Sendable, Hashable {
  public var language: Language

  public init(_ language: Language) {
    self.language = language
  }

  /// The text for `key` with its `{placeholders}` filled in.
  public func callAsFunction(_ key: MessageKey, _ arguments: [String: String] = [:]) -> String {
    let text = Self.compiled(language, key) ?? Self.compiled(.en, key) ?? key.rawValue
    return Self.fill(text, arguments)
  }

  /// The plural form of `key` for `count`, with `{count}` and the other placeholders filled in.
  public func plural(
    _ key: MessageKey, count: Int, _ arguments: [String: String] = [:]
  ) -> String {
    let category = PluralCategory.of(count, in: language)
    let forms = Self.compiledPlural(language, key) ?? Self.compiledPlural(.en, key)
    let text = forms?[category] ?? forms?[.other] ?? key.rawValue
    var filled = arguments
    filled["count"] = String(count)
    return Self.fill(text, filled)
  }

  /// A number as this language writes it: `0.5` in English, `0,5` in Russian
  /// and Ukrainian; the shortest form, or `fractionDigits` digits after the point.
  public func number(_ value: Double, fractionDigits: Int? = nil) -> String {
    let text =
      fractionDigits.map { String(format: "%.\($0)f", value) } ?? JSONValue.format(value)
    switch language {
    case .en: return text
    case .ru, .uk: return text.replacingOccurrences(of: ".", with: ",")
    }
  }

  /// Fills `{name}` placeholders in one pass over the template only.
  ///
  /// The values are never scanned again: a server's text that contains
  /// `{status}` or `{url}` stays as it is, whatever order the arguments come in.
  /// A placeholder with no argument is left as written.
  static func fill(_ text: String, _ arguments: [String: String]) -> String {
    guard !arguments.isEmpty, text.contains("{") else { return text }
    var result = ""
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{") {
      result += rest[..<open]
      let afterOpen = rest.index(after: open)
      guard let close = rest[afterOpen...].firstIndex(where: { $0 == "}" || $0 == "{" }),
        rest[close] == "}", let value = arguments[String(rest[afterOpen..<close])]
      else {
        result.append("{")
        rest = rest[afterOpen...]
        continue
      }
      result += value
      rest = rest[rest.index(after: close)...]
    }
    result += rest
    return result
  }

  /// A key's text in a language's table, compiled into the program from `Locales/`
  /// (`CompiledTables.swift`, made by `make locales`): nothing is parsed at start.
  static func compiled(_ language: Language, _ key: MessageKey) -> String? {
    switch language {
    case .en: compiledEn(key)
    case .ru: compiledRu(key)
    case .uk: compiledUk(key)
    }
  }

  /// A plural key's forms in a language's table, compiled as `compiled` is.
  static func compiledPlural(_ language: Language, _ key: MessageKey) -> [PluralCategory: String]? {
    switch language {
    case .en: compiledEnPlural(key)
    case .ru: compiledRuPlural(key)
    case .uk: compiledUkPlural(key)
    }
  }

  /// The embedded tables, each parsed on first use, as translators wrote them: what the
  /// tests check the compiled texts and the translations against.
  public static let tables = Tables()

  public struct Tables: Sendable {
    public subscript(_ language: Language) -> LocaleTable? {
      switch language {
      case .en: Self.en
      case .ru: Self.ru
      case .uk: Self.uk
      }
    }

    private static let en = try? LocaleTable(parsing: source(of: .en))
    private static let ru = try? LocaleTable(parsing: source(of: .ru))
    private static let uk = try? LocaleTable(parsing: source(of: .uk))
  }

  /// The embedded text of a language's table, as it is in `Locales/`.
  public static func source(of language: Language) -> String {
    let bytes: [UInt8] =
      switch language {
      case .en: PackageResources.en_properties
      case .ru: PackageResources.ru_properties
      case .uk: PackageResources.uk_properties
      }
    return String(decoding: bytes, as: UTF8.self)
  }
}
