import Foundation
import TestSupport
import Testing

/// Every usage error, whoever catches it (ArgumentParser or the client), is one
/// behaviour: exit status 2, a translated sentence, the usage line, and where to read on.
@Suite struct UsageErrorEndToEndTests {
  let home = TemporaryDirectory()

  /// (arguments, what the Ukrainian sentence must say)
  static let table: [([String], String)] = [
    (["--bogus"], "Невідомий параметр --bogus."),
    (["--colr", "auto"], "Можливо, ви мали на увазі --color?"),
    (
      ["--timeout", "1e16"],
      "--timeout: «1e16» не підходить; потрібно число секунд від 0,1 до 3600."
    ),
    (["--timeout", "inf"], "«inf» не підходить"),
    (["--timeout", "0.0004"], "«0.0004» не підходить"),
    (["--timeout", "abc"], "«abc» не підходить"),
    (["--timeout"], "Для --timeout потрібне значення."),
    (["--color", "pink"], "--color: «pink» не підходить; потрібно одне з: auto, always, never."),
    (["--offline-fallback", "maybe"], "одне з: auto, never."),
    (["--lang", "uk", "--lang", "de"], "--lang: «de» не підходить; потрібно одне з: en, ru, uk."),
    (
      ["contacts", "list", "--limit", "x"],
      "--limit: «x» не підходить; потрібно ціле число від 0 до 1000000."
    ),
    (["contacts", "list", "--json", "--csv"], "--json і --csv не можна використовувати разом"),
    (["contacts", "search"], "Не вказано аргумент <query>."),
    (["contacts", "list", "extra"], "Зайве в командному рядку: 'extra'."),
    (["contacts", "list", "--timeout=-1"], "«-1» не підходить"),
    // A negative number after an option is its value, out of range; not "needs a value".
    (["contacts", "list", "--timeout", "-1"], "--timeout: «-1» не підходить"),
    (["--timeout", "-0.5"], "--timeout: «-0.5» не підходить"),
    (["replay", "x.yaml", "--repeat", "-1"], "--repeat: «-1» не підходить"),
    (["replay", "x.yaml", "--rate", "-5", "--offline"], "«-5»"),
    (["replay", "x.yaml", "--timeout", "inf"], "--timeout: «inf» не підходить"),
    (
      ["replay", "x.yaml", "--jobs", "0"],
      "--jobs: «0» не підходить; потрібно ціле число від 1 до 10000."
    ),
    (["replay"], "Не вказано аргумент <paths>."),
    (
      ["serve", "--port", "70000"],
      "--port: «70000» не підходить; потрібно ціле число від 0 до 65535."
    ),
    (["serve", "--max-body-bytes", "0"], "--max-body-bytes: «0» не підходить"),
    (["--offline", "--no-history=yes"], "--no-history не приймає значення"),
  ]

  @Test(arguments: table)
  func isTranslatedWithTheUsageLine(arguments: [String], sentence: String) throws {
    let result = try chat(
      arguments, input: "", home: home, environment: ["MIGRANT_CHAT_LANG": "uk"])
    #expect(result.status == 2, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("migrant-chat: "))
    #expect(result.messages.contains(sentence), "\(result.stderr)")
    #expect(result.stderr.contains("Використання: migrant-chat"))
    #expect(result.stderr.contains("--help»."))
    #expect(!result.stderr.contains("Error:") && !result.stderr.contains("Usage:"))
    #expect(result.stdout.isEmpty)
  }

  /// `--lang` on the same line picks the language of the error; no server is contacted.
  @Test func followsLangOnTheLine() throws {
    let result = try chat(
      ["--lang", "ru", "--timeout", "1e16", "--server", "http://127.0.0.1:9"], input: "hi\n",
      home: home)
    #expect(result.status == 2)
    #expect(
      result.messages.contains("--timeout: «1e16» не подходит; нужно число секунд от 0,1 до 3600."))
    #expect(result.stderr.contains("Использование: migrant-chat chat"))
  }

  /// Before, `--timeout 1e16` trapped (exit 132) once the first request was made.
  @Test func hugeTimeoutNeverTraps() throws {
    let result = try chat(
      ["--timeout", "1e16", "--server", "http://127.0.0.1:9"], input: "hi\n", home: home)
    #expect(result.status == 2)
    let config = home.path + "/config/migrant-chat"
    try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
    try "timeout: 1e30\n".write(toFile: config + "/config.yaml", atomically: true, encoding: .utf8)
    let configured = try chat(["--server", "http://127.0.0.1:9"], input: "hi\n", home: home)
    #expect(configured.status == 2)
    #expect(
      configured.messages.contains(
        "'timeout' (line 1) must be a number of seconds from 0.1 to 3600"))
    let contactsRun = try contacts(["list"], home: home)
    #expect(contactsRun.status == 2)
    #expect(contactsRun.messages.contains("from 0.1 to 3600"))
  }

  /// A bad language in config.yaml names the file and the line, like every config error
  /// (before, it was reported as a bad --lang flag).
  @Test func aBadLanguageInTheConfigFileNamesItsLine() throws {
    let config = home.path + "/config/migrant-chat"
    try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
    try "server: http://127.0.0.1:9\nlang: de\n".write(
      toFile: config + "/config.yaml", atomically: true, encoding: .utf8)
    let result = try chat([], input: "", home: home)
    #expect(result.status == 2)
    #expect(result.messages.contains(config + "/config.yaml"))
    #expect(result.messages.contains("'lang' (line 2) is 'de'; choose one of en, ru, uk"))
    #expect(!result.messages.contains("--lang"))
  }

  /// Help and the version are not errors.
  @Test func helpAndVersionExitZero() throws {
    #expect(try chat(["--help"], input: "", home: home).status == 0)
    #expect(try chat(["--version"], input: "", home: home).status == 0)
    #expect(try chat(["contacts", "list", "--help"], input: "", home: home).status == 0)
  }

  /// Russian and Ukrainian help has no English left from ArgumentParser: titles, defaults,
  /// value lists, the --version and --help lines, the pointer to `help <subcommand>`.
  @Test(arguments: [
    ["--help", "--lang", "ru"], ["serve", "--help", "--lang", "uk"],
    ["replay", "--help", "--lang", "ru"], ["contacts", "search", "--help", "--lang", "uk"],
    ["contacts", "--help", "--lang", "ru"], ["help", "chat", "--lang", "uk"],
    ["explore", "--help", "--lang", "ru"], ["--lang=uk", "-h"],
  ])
  func helpIsTranslated(arguments: [String]) throws {
    let result = try chat(arguments, input: "", home: home)
    #expect(result.status == 0)
    for english in [
      "OVERVIEW", "USAGE", "OPTIONS", "(default:", "(values:", "Show the version",
      "Show help information", "for detailed help", "<subcommand>", "(default)", "<options>",
    ] {
      #expect(!result.stdout.contains(english), "\(english) in \(result.stdout)")
    }
    #expect(result.stdout.contains("--help"))
  }

  /// Where people look first: `migrant-chat --help`, in any language, lists the commands
  /// and the chat's options (the chat is what runs with no command).
  @Test(arguments: [["--help"], ["--lang", "ru", "--help"], ["-h", "--lang", "uk"]])
  func theFirstHelpListsCommandsAndTheChatsOptions(arguments: [String]) throws {
    let result = try chat(arguments, input: "", home: home)
    #expect(result.status == 0, "\(result.stderr)")
    for expected in ["contacts", "explore", "todo", "--server", "--offline", "--lang", "--inspect"]
    {
      #expect(result.stdout.contains(expected), "\(expected) in \(result.stdout)")
    }
  }

  /// Each default is said once, in the user's language, never again in ArgumentParser's.
  @Test(arguments: [[], ["contacts"], ["serve"], ["replay"], ["explore"], ["todo", "add"]])
  func eachDefaultIsSaidOnce(command: [String]) throws {
    let result = try chat(command + ["--help"], input: "", home: home)
    #expect(!result.stdout.contains("(default:"), "\(result.stdout)")
  }

  /// A group's help lists its commands whatever the place of `--lang`; `--lang` before
  /// the command is taken; help and usage errors follow the language chosen in the chat.
  @Test func helpFindsItsCommandAndLanguage() throws {
    let group = try chat(["todo", "--help", "--lang", "uk"], input: "", home: home)
    #expect(group.status == 0)
    #expect(group.stdout.contains("КОМАНДИ") && group.stdout.contains("export"), "\(group.stdout)")
    let before = try chat(["--lang", "uk", "todo"], input: "", home: home)
    #expect(before.status == 0, "\(before.stderr)")
    #expect(before.stdout.contains("Ваш список справ"), "\(before.stdout)")
    _ = try chat(["--offline"], input: "/lang ru\n", home: home)
    let usage = try chat(["todo", "add"], input: "", home: home)
    #expect(usage.status == 2)
    #expect(
      !usage.stderr.contains("Missing") && usage.stderr.contains("аргумент"), "\(usage.stderr)")
  }
}
