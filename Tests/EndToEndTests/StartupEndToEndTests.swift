import Foundation
import TestSupport
import Testing

@Suite struct StartupEndToEndTests {
  @Test func noServerSaysHowToSetOne() throws {
    let home = TemporaryDirectory()
    let result = try chat([], input: "", home: home)
    #expect(result.status == 2)
    #expect(result.messages.contains("No chatbot server is configured"))
    #expect(result.messages.contains("MIGRANT_CHAT_SERVER"))
    #expect(result.messages.contains(home.path + "/config/migrant-chat/config.yaml"))
  }

  @Test func invalidLanguageIsAUsageErrorListingTheChoices() throws {
    let result = try chat(
      ["--server", "http://127.0.0.1:9", "--lang", "xx"], input: "", home: TemporaryDirectory())
    #expect(result.status == 2)
    #expect(
      result.messages.contains(
        "--lang: 'xx' is not a supported language. Choose one of: en, ru, uk."))
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

  @Test func version() throws {
    let result = try chat(["--version"], input: "", home: TemporaryDirectory())
    #expect(result.status == 0)
    #expect(
      result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3
    )
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
    #expect(fromConfig.requests.count == 1)
    #expect(fromEnvironment.requests.count == 1)
    #expect(fromFlag.requests.count == 1)
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
      "en_US.UTF-8": "No chatbot server is configured",
      "ru_RU.UTF-8": "Сервер чат-бота не настроен",
      "uk_UA.UTF-8": "Сервер чат-бота не налаштовано",
    ]
    for (locale, text) in expectations {
      let result = try ProcessRunner.run(copy, [], environment: home.environment(["LANG": locale]))
      #expect(result.messages.contains(text), "\(locale): \(result.stderr)")
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
