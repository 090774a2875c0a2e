import Foundation
import TestSupport
import Testing

@Suite struct StartupEndToEndTests {
  /// What a bug report needs: the version, the commit, and the libraries this process
  /// runs with (a test build says "unknown": only the Makefile's release builds pass it).
  @Test func versionNamesTheCommitAndTheLibraries() throws {
    let home = TemporaryDirectory()
    let result = try ProcessRunner.run(
      ProcessRunner.binaryPath, ["--version"], environment: home.environment())
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 2)
    #expect(lines.first?.hasPrefix("migrant-chat 0.") == true)
    #expect(lines.first?.contains("(commit ") == true)
    #expect(
      lines.last?.range(
        of: #"^libcurl \d+\.\d+\.\d+, GNU readline \d+\.\d+, SQLite 3\.\d+\.\d+$"#,
        options: .regularExpression) != nil, "\(result.stdout)")
    // Nothing else is run: no files are made.
    #expect(!FileManager.default.fileExists(atPath: home.path + "/state"))
  }

  @Test func noServerOpensTheOfflineAssistant() throws {
    let home = TemporaryDirectory()
    let result = try chat([], input: "2\n", home: home)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("Hello! I am the offline guide of migrant-chat."))
    #expect(result.stdout.contains("> 2\nHealth insurance: choose a guide."))
    // --offline wins over a configured server, which is never contacted.
    let forced = try chat(["--offline", "--server", "http://127.0.0.1:9"], input: "", home: home)
    #expect(forced.status == 0)
    #expect(forced.stdout.contains("What do you need help with?"))
  }

  /// `--server 127.0.0.1:5005` as people type it: http:// is assumed, and said.
  @Test func aServerWithoutASchemeIsTakenAsHTTP() throws {
    let bot = try makeScenarioBot()
    let bare = bot.baseURL.replacingOccurrences(of: "http://", with: "")
    let result = try chat(["--server", bare], input: "", home: TemporaryDirectory())
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("Hello (en)"))
    #expect(result.messages.contains("'\(bare)' has no http:// or https://: using \(bot.baseURL)."))
    let refused = try chat(["--server", "ftp://x"], input: "", home: TemporaryDirectory())
    #expect(refused.status == 2)
  }

  @Test func invalidLanguageIsAUsageErrorListingTheChoices() throws {
    let result = try chat(
      ["--server", "http://127.0.0.1:9", "--lang", "xx"], input: "", home: TemporaryDirectory())
    #expect(result.status == 2)
    #expect(result.messages.contains("--lang: 'xx' is not valid; expected one of en, ru, uk."))
  }

  @Test func invalidServerURL() throws {
    let result = try chat(
      ["--server", "file:///etc/passwd"], input: "", home: TemporaryDirectory())
    #expect(result.status == 2)
    #expect(result.messages.contains("is not an http:// or https:// address"))
  }

  @Test func invalidColourAndTimeout() throws {
    let home = TemporaryDirectory()
    #expect(
      try chat(["--server", "http://x", "--color", "pink"], input: "", home: home).status == 2)
    #expect(
      try chat(["--server", "http://x", "--timeout", "0"], input: "", home: home).status == 2)
  }

  @Test func tokenIsNotAcceptedOnTheCommandLine() throws {
    let result = try chat(
      ["--server", "http://x", "--token", "secret"], input: "", home: TemporaryDirectory())
    #expect(result.status != 0)
  }

  @Test func serverPrecedenceFlagOverEnvironmentOverConfig() throws {
    let fromConfig = try makeScenarioBot()
    let fromEnvironment = try makeScenarioBot()
    let fromFlag = try makeScenarioBot()
    let home = TemporaryDirectory()
    let configDirectory = home.path + "/config/migrant-chat"
    try FileManager.default.createDirectory(
      atPath: configDirectory, withIntermediateDirectories: true)
    try "server: \(fromConfig.baseURL)\nlang: ru\n".write(
      toFile: configDirectory + "/config.yaml", atomically: true, encoding: .utf8)

    let viaConfig = try chat([], input: "", home: home)
    #expect(viaConfig.stdout.hasPrefix("Hello (ru)"))
    _ = try chat(
      [], input: "", home: home, environment: ["MIGRANT_CHAT_SERVER": fromEnvironment.baseURL])
    _ = try chat(
      ["--server", fromFlag.baseURL], input: "", home: home,
      environment: ["MIGRANT_CHAT_SERVER": fromEnvironment.baseURL])
    // One start message each, and nothing more: a chat in a pipe does not ask the
    // tracker what the start was read as (#50: one request fewer before a script's lines).
    for bot in [fromConfig, fromEnvironment, fromFlag] {
      #expect(bot.requests.filter { $0.path.hasSuffix("/webhook") }.count == 1)
      #expect(bot.requests.allSatisfy { !$0.path.hasPrefix("/conversations/") })
    }
  }

  @Test func aBrokenConfigFileIsReportedWithItsPath() throws {
    let home = TemporaryDirectory()
    let configDirectory = home.path + "/config/migrant-chat"
    try FileManager.default.createDirectory(
      atPath: configDirectory, withIntermediateDirectories: true)
    try "server: http://x\nsevrer: typo\n".write(
      toFile: configDirectory + "/config.yaml", atomically: true, encoding: .utf8)
    let result = try chat([], input: "", home: home)
    #expect(result.status == 2)
    #expect(result.messages.contains("config.yaml"))
    #expect(result.messages.contains("unknown key 'sevrer'"))
  }

  @Test func theBinaryAloneSpeaksAllThreeLanguages() throws {
    let home = TemporaryDirectory()
    let copy = home.path + "/elsewhere/migrant-chat"
    try FileManager.default.createDirectory(
      atPath: home.path + "/elsewhere", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: ProcessRunner.binaryPath, toPath: copy)
    let expectations = [
      "en_US.UTF-8": "What do you need help with?\n  [1] Residence permit",
      "ru_RU.UTF-8": "С чем вам помочь?\n  [1] Вид на жительство",
      "uk_UA.UTF-8": "З чим вам допомогти?\n  [1] Посвідка на проживання",
    ]
    for (locale, text) in expectations {
      let result = try ProcessRunner.run(copy, [], environment: home.environment(["LANG": locale]))
      #expect(result.stdout.contains(text), "\(locale): \(result.stdout)")
    }
  }

  @Test func helpFollowsTheLanguage() throws {
    let home = TemporaryDirectory()
    let ukrainian = try chat(
      ["chat", "--help"], input: "", home: home, environment: ["LANG": "uk_UA.UTF-8"])
    #expect(ukrainian.stdout.contains("Адреса чат-бота"))
    let russian = try chat(["chat", "--help", "--lang", "ru"], input: "", home: home)
    #expect(russian.stdout.contains("Адрес чат-бота"))
    let english = try chat(["--help"], input: "", home: home)
    #expect(english.stdout.contains("A terminal client for migrant-assistance chatbots"))
  }

  @Test func configErrorsAreTranslatedToo() throws {
    let home = TemporaryDirectory()
    let configDirectory = home.path + "/config/migrant-chat"
    try FileManager.default.createDirectory(
      atPath: configDirectory, withIntermediateDirectories: true)
    try "sevrer: typo\n".write(
      toFile: configDirectory + "/config.yaml", atomically: true, encoding: .utf8)
    let result = try chat([], input: "", home: home, environment: ["LANG": "ru_RU.UTF-8"])
    #expect(result.status == 2)
    #expect(result.messages.contains("неизвестный ключ «sevrer» (строка 1)"))
  }
}
