import Testing

@testable import MigrantChatCore

@Suite struct LanguageResolverTests {
  func resolve(
    flag: String? = nil, _ environment: [String: String] = [:], remembered: Language? = nil
  ) throws -> Language {
    try LanguageResolver.resolve(flag: flag, environment: environment, remembered: remembered)
  }

  @Test func precedence() throws {
    let environment = ["MIGRANT_CHAT_LANG": "ru", "LANG": "en_US.UTF-8"]
    #expect(try resolve(flag: "uk", environment, remembered: .en) == .uk)
    #expect(try resolve(environment, remembered: .uk) == .ru)
    #expect(try resolve(["LANG": "ru_RU.UTF-8"], remembered: .uk) == .uk)
    #expect(try resolve(["LANG": "ru_RU.UTF-8"]) == .ru)
  }

  @Test(arguments: [
    (["LANG": "uk_UA.UTF-8"], Language.uk),
    (["LANG": "ru_RU.KOI8-R"], .ru),
    (["LANG": "C"], .en),
    (["LANG": "POSIX"], .en),
    (["LANG": "de_DE.UTF-8"], .en),
    ([:], .en),
    (["LC_ALL": "uk_UA.UTF-8", "LANG": "ru_RU.UTF-8"], .uk),
    (["LC_MESSAGES": "ru_RU", "LANG": "uk_UA"], .ru),
    (["LANGUAGE": "de:uk:ru", "LANG": "ru_RU"], .uk),
    (["LANGUAGE": "de:fr", "LANG": "ru_RU"], .ru),
    (["LC_ALL": "C", "LANG": "uk_UA.UTF-8"], .en),
  ])
  func localeVariables(environment: [String: String], expected: Language) throws {
    #expect(try resolve(environment) == expected)
  }

  @Test func invalidValuesAreErrorsNamingTheirSource() {
    #expect(throws: LanguageResolver.InvalidLanguage(source: "--lang", value: "xx")) {
      try resolve(flag: "xx")
    }
    #expect(throws: LanguageResolver.InvalidLanguage(source: "MIGRANT_CHAT_LANG", value: "de")) {
      try resolve(["MIGRANT_CHAT_LANG": "de"])
    }
  }

  @Test func codesAreLiberal() {
    #expect(Language(code: "UK") == .uk)
    #expect(Language(code: "ua") == .uk)
    #expect(Language(code: "ru-RU") == .ru)
    #expect(Language(code: "english") == nil)
  }
}

/// `/lang` takes a language's name as people type it, and names it in the sentence
/// as the language itself writes it (lower case in Russian and Ukrainian).
@Suite struct TypedLanguageTests {
  @Test(arguments: [
    ("ru", Language.ru), ("русский", .ru), ("Russian", .ru), ("російська", .ru),
    ("English", .en), ("англійська", .en), ("EN", .en), ("українська", .uk), ("ua", .uk),
    ("Ukrainian", .uk), ("украинский", .uk),
  ])
  func namesAndCodes(typed: String, language: Language) {
    #expect(Language(typed: typed) == language)
  }

  @Test func unknownNamesAreRefused() {
    #expect(Language(typed: "deutsch") == nil)
    #expect(Language(typed: String(repeating: "e", count: 40)) == nil)
  }

  @Test func namesInSentences() {
    let text = Renderer(width: 80, color: false, language: .en).render(.languageChanged(.ru)).stdout
    #expect(text == "Язык изменён: русский.\n")
  }
}
