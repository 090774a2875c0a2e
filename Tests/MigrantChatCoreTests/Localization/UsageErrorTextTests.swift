import Testing

@testable import MigrantChatCore

/// ArgumentParser's English reports, read back into translated sentences.
@Suite struct UsageErrorTextTests {
  let uk = UsageErrorText(Localizer(.uk))

  @Test(arguments: [
    ("Unknown option '--bogus'", "Невідомий параметр --bogus."),
    (
      "Unknown option '--colr'. Did you mean '--color'?",
      "Невідомий параметр --colr. Можливо, ви мали на увазі --color?"
    ),
    (
      "The value 'x' is invalid for '--color <color>'. Please provide one of 'auto', 'always' or 'never'.",
      "--color: «x» не підходить; потрібно одне з: auto, always, never."
    ),
    (
      "The value 'x' is invalid for '--mode <mode>'. Please provide one of the following:\n  - a\n  - b",
      "--mode: «x» не підходить; потрібно одне з: a, b."
    ),
    (
      "The value 'abc' is invalid for '--timeout <timeout>': число секунд від 0.1 до 3600",
      "--timeout: «abc» не підходить; потрібно число секунд від 0.1 до 3600."
    ),
    ("The value 'q' is invalid for '--port <port>'", "--port: «q» не підходить."),
    ("Missing value for '--lang <lang>'", "Для --lang потрібне значення."),
    ("Missing expected argument '<query> ...'", "Не вказано аргумент <query>."),
    ("Unexpected argument 'extra'", "Зайве в командному рядку: 'extra'."),
    ("2 unexpected arguments: 'a', 'b'", "Зайве в командному рядку: 'a', 'b'."),
    (
      "Value to be set with flag '--csv' had already been set with flag '--json'",
      "--json і --csv не можна використовувати разом; оберіть одне."
    ),
    ("Something \u{1B}[31mnew", "Помилка в командному рядку: Something new"),
  ])
  func sentences(english: String, translated: String) {
    #expect(uk.sentence(for: english) == translated)
  }

  @Test func usageAndHelpLines() {
    let full = """
      Error: Unknown option '--bogus'
      Usage: migrant-chat contacts list [--json] [--csv]
        See 'migrant-chat contacts list --help' for more information.
      """
    #expect(
      uk.render(message: "Unknown option '--bogus'", fullMessage: full)
        == """
        migrant-chat: Невідомий параметр --bogus.
        Використання: migrant-chat contacts list [--json] [--csv]
        Усі параметри: «migrant-chat contacts list --help».

        """)
  }
}

@Suite struct HelpTextTests {
  static let english = """
    OVERVIEW: Talk.

    USAGE: migrant-chat chat <options>

    OPTIONS:
      --lang <lang>           Show the version.
      --version               Show the version.
      -h, --help              Show help information.

      See 'migrant-chat help <subcommand>' for detailed help.
    """

  @Test func russianTitlesAndLines() {
    let text = HelpText(Localizer(.ru)).translate(Self.english)
    #expect(
      text.hasPrefix(
        "ОПИСАНИЕ: Talk.\n\nИСПОЛЬЗОВАНИЕ: migrant-chat chat <параметры>\n\nПАРАМЕТРЫ:\n"))
    #expect(text.contains("  --version               Показать версию.\n"))
    #expect(text.contains("  -h, --help              Показать эту справку.\n"))
    #expect(text.hasSuffix("  Подробная справка по команде: «migrant-chat help <команда>»."))
  }

  @Test func englishIsLeftAlone() {
    #expect(HelpText(Localizer(.en)).translate(Self.english) == Self.english)
  }
}
