import Testing

@testable import MigrantChatCore

@Suite struct LocaleTableTests {
  @Test(arguments: Language.allCases)
  func everyTableParses(language: Language) throws {
    _ = try LocaleTable(parsing: Localizer.source(of: language))
    #expect(Localizer.tables[language] != nil)
  }

  @Test(arguments: Language.allCases)
  func everyKeyIsPresentWithTheRightForms(language: Language) throws {
    let table = try #require(Localizer.tables[language])
    for key in MessageKey.allCases {
      if key.isPlural {
        let forms = table.plurals[key.rawValue] ?? [:]
        for category in PluralCategory.categories(of: language) {
          #expect(forms[category] != nil, "\(language): \(key.rawValue)[\(category)] is missing")
        }
        #expect(table.entries[key.rawValue] == nil, "\(language): \(key.rawValue) must be plural")
      } else {
        #expect(table.entries[key.rawValue] != nil, "\(language): \(key.rawValue) is missing")
      }
    }
  }

  /// The texts compiled into the program (`CompiledTables.swift`) are the tables as
  /// parsed, key by key: a .properties file edited without `make locales` fails here.
  @Test(arguments: Language.allCases)
  func theCompiledTextsAreTheTables(language: Language) throws {
    let table = try #require(Localizer.tables[language])
    for key in MessageKey.allCases {
      #expect(
        Localizer.compiled(language, key) == table.entries[key.rawValue],
        "\(language): \(key.rawValue) differs from Locales/: run make locales")
      #expect(
        Localizer.compiledPlural(language, key) == table.plurals[key.rawValue],
        "\(language): \(key.rawValue)[...] differs from Locales/: run make locales")
    }
    let russian = Localizer(.ru)
    #expect(russian(.newConversation) == Localizer.tables[.ru]?.entries["new_conversation"])
    #expect(russian.plural(.contactsMore, count: 3).hasPrefix("… "))
  }

  @Test(arguments: Language.allCases)
  func noTableHasUnknownKeys(language: Language) throws {
    let table = try #require(Localizer.tables[language])
    let known = Set(MessageKey.allCases.map(\.rawValue))
    for key in Set(table.entries.keys).union(table.plurals.keys) {
      #expect(known.contains(key), "\(language): '\(key)' is not a MessageKey")
    }
  }

  @Test(arguments: [Language.ru, .uk])
  func placeholdersMatchEnglish(language: Language) throws {
    let english = try #require(Localizer.tables[.en])
    let table = try #require(Localizer.tables[language])
    for key in MessageKey.allCases {
      if key.isPlural {
        let expected = LocaleTable.placeholders(in: english.plurals[key.rawValue]?[.other] ?? "")
        for (category, text) in table.plurals[key.rawValue] ?? [:] {
          #expect(
            LocaleTable.placeholders(in: text) == expected,
            "\(language): \(key.rawValue)[\(category)] placeholders differ")
        }
      } else {
        #expect(
          LocaleTable.placeholders(in: table.entries[key.rawValue] ?? "")
            == LocaleTable.placeholders(in: english.entries[key.rawValue] ?? ""),
          "\(language): \(key.rawValue) placeholders differ from English")
      }
    }
  }

  @Test func formatFeatures() throws {
    let table = try LocaleTable(
      parsing: """
        # a comment
        plain = Hello, {name}!
        spaced = "  kept  "
        escaped = one\\ntwo \\"quoted\\" back\\\\slash
        files[one] = {count} file
        files[other] = {count} files
        """)
    #expect(table.entries["plain"] == "Hello, {name}!")
    #expect(table.entries["spaced"] == "  kept  ")
    #expect(table.entries["escaped"] == "one\ntwo \"quoted\" back\\slash")
    #expect(table.plurals["files"] == [.one: "{count} file", .other: "{count} files"])
  }

  /// White space at the ends of lines, keys and texts, as editors leave it: CRLF,
  /// tabs, a no-break space (not ASCII), an indented comment; Cyrillic at an end is kept.
  @Test func whiteSpaceAtTheEnds() throws {
    let table = try LocaleTable(
      parsing: "crlf = one\r\n\tindented\t=\ttabbed \r\n   # comment\r\n"
        + "nbsp = \u{00A0}Добрий день\u{00A0}\n\u{00A0}\u{2003}\n\u{00A0}# comment\n"
        + "cyrillic = Привіт\nlast = end")
    #expect(table.entries["crlf"] == "one")
    #expect(table.entries["indented"] == "tabbed")
    #expect(table.entries["nbsp"] == "Добрий день")
    #expect(table.entries["cyrillic"] == "Привіт")
    #expect(table.entries["last"] == "end")
    #expect(table.entries.count == 5)
  }

  @Test(arguments: [
    ("no equals sign", 1),
    ("ok = 1\n\n\u{00A0}no equals sign", 3),
    ("a = 1\na = 2", 2),
    ("x[sometimes] = y", 1),
    ("bad = trailing\\", 1),
    ("bad = \\q", 1),
  ])
  func malformedTablesNameTheLine(text: String, line: Int) {
    #expect(throws: LocaleTable.ParseError.self) { try LocaleTable(parsing: text) }
    do {
      _ = try LocaleTable(parsing: text)
    } catch {
      #expect(error.line == line)
    }
  }

  @Test func localizerFillsPlaceholdersAndPlurals() {
    let uk = Localizer(.uk)
    #expect(
      uk(.noSuchButton, ["number": "7", "max": "3"]) == "Кнопки 7 немає. Виберіть номер від 1 до 3."
    )
    #expect(uk.plural(.turnsFailed, count: 3) == "3 повідомлення залишилися без відповіді.")
    #expect(Localizer(.ru).plural(.turnsFailed, count: 5) == "5 сообщений остались без ответа.")
    #expect(Localizer(.en).plural(.turnsFailed, count: 1) == "1 turn got no answer.")
  }

  /// A server's text is data: `{status}` in an error page's body stays as it is, in every
  /// order the dictionary may iterate (before, it was expanded or not by the hash seed).
  @Test func serverTextIsNeverATemplate() {
    let en = Localizer(.en)
    for _ in 0..<50 {
      let text = en(
        .syncHTTPStatus,
        ["server": "{body}{status}", "status": "502", "body": "Bad {status} at {server} {url}"])
      #expect(
        text
          == "The data API at {body}{status} answered with HTTP status 502 (Bad {status} at "
          + "{server} {url}). The cached directory was kept.")
    }
    #expect(Localizer.fill("{a}{b} {missing} {", ["a": "{b}", "b": "x"]) == "{b}x {missing} {")
    #expect(Localizer.fill("{{a}}", ["a": "1"]) == "{1}")
  }
}

@Suite struct PluralCategoryTests {
  @Test func english() {
    let expected: [(Double, PluralCategory)] = [
      (0, .other), (1, .one), (2, .other), (5, .other), (11, .other), (21, .other),
      (22, .other), (25, .other), (111, .other), (1.5, .other),
    ]
    for (count, category) in expected {
      #expect(PluralCategory.of(count, in: .en) == category, "en \(count)")
    }
  }

  @Test(arguments: [Language.ru, .uk])
  func eastSlavic(language: Language) {
    let expected: [(Double, PluralCategory)] = [
      (0, .many), (1, .one), (2, .few), (5, .many), (11, .many), (21, .one),
      (22, .few), (25, .many), (111, .many), (1.5, .other), (12, .many), (104, .few),
    ]
    for (count, category) in expected {
      #expect(PluralCategory.of(count, in: language) == category, "\(language) \(count)")
    }
  }
}
