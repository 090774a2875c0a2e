import Foundation
import MigrantChatCore
import MigrantChatIO
import TestSupport
import Testing

@Suite struct ConfigFileTests {
  @Test func readsEveryKey() throws {
    let config = try ConfigFile.parse(
      """
      # my bot
      server: https://bot.example.org
      webhook_path: /webhooks/myrest/webhook
      lang: uk
      timeout: 12.5
      data_api: https://data.example.org/api
      """)
    var expected = ConfigFile(
      server: "https://bot.example.org", webhookPath: "/webhooks/myrest/webhook",
      language: "uk", timeout: 12.5)
    expected.dataAPI = "https://data.example.org/api"
    #expect(config == expected)
  }

  @Test func emptyOrMissingFileIsAnEmptyConfig() throws {
    #expect(try ConfigFile.parse("") == ConfigFile())
    #expect(try ConfigFile.load(path: "/nonexistent/config.yaml") == ConfigFile())
  }

  @Test func unknownKeysNameTheKeyAndLine() {
    #expect {
      try ConfigFile.parse("server: http://x\nsevrer: http://y\n")
    } throws: { error in
      let text = (error as? ConfigFile.Invalid)?.description ?? ""
      return text.contains("sevrer") && text.contains("line 2")
    }
  }

  @Test(arguments: [
    "server: [1, 2]", "timeout: soon", "timeout: -1", "- a\n- b", "server: \"unclosed",
  ])
  func badValuesAreErrors(text: String) {
    #expect(throws: ConfigFile.Invalid.self) { try ConfigFile.parse(text) }
  }
}

@Suite struct FileSessionStoreTests {
  @Test func remembersSendersPerServerAndTheLanguage() throws {
    let directory = TemporaryDirectory()
    let path = directory.path + "/state/migrant-chat/state.json"
    let first = FileSessionStore(path: path, server: "http://a")
    try first.rememberSender("id-a")
    try first.rememberLanguage(.ru)
    try FileSessionStore(path: path, server: "http://b").rememberSender("id-b")

    let reread = FileSessionStore(path: path, server: "http://a")
    #expect(reread.senderID == "id-a")
    #expect(reread.language == .ru)
    #expect(FileSessionStore(path: path, server: "http://b").senderID == "id-b")
    #expect(FileSessionStore(path: path, server: "http://c").senderID == nil)

    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let directoryAttributes = try FileManager.default.attributesOfItem(
      atPath: (path as NSString).deletingLastPathComponent)
    #expect((directoryAttributes[.posixPermissions] as? Int) == 0o700)
  }

  @Test func aCorruptFileCountsAsEmptyAndIsReplacedWhole() throws {
    let directory = TemporaryDirectory()
    let path = directory.path + "/state.json"
    try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
    let store = FileSessionStore(path: path, server: "http://a")
    #expect(store.senderID == nil)
    try store.rememberSender("fresh")
    #expect(FileSessionStore(path: path, server: "http://a").senderID == "fresh")
  }

  @Test func anUnwritableDirectoryIsAnError() throws {
    let directory = TemporaryDirectory()
    let blocker = directory.path + "/file"
    try Data().write(to: URL(fileURLWithPath: blocker))
    let store = FileSessionStore(path: blocker + "/state.json", server: "http://a")
    #expect(throws: (any Error).self) { try store.rememberSender("x") }
  }
}

@Suite struct AppPathsTests {
  @Test func followsXDGAndFallsBackToHome() {
    let xdg = AppPaths(environment: [
      "HOME": "/h", "XDG_STATE_HOME": "/s", "XDG_CONFIG_HOME": "/c", "XDG_CACHE_HOME": "/k",
    ])
    #expect(xdg.stateFile == "/s/migrant-chat/state.json")
    #expect(xdg.configFile == "/c/migrant-chat/config.yaml")
    #expect(xdg.cacheDirectory == "/k/migrant-chat")
    let home = AppPaths(environment: ["HOME": "/h", "XDG_STATE_HOME": "relative/ignored"])
    #expect(home.historyFile == "/h/.local/state/migrant-chat/history")
    #expect(home.configFile == "/h/.config/migrant-chat/config.yaml")
  }
}

@Suite struct FileSessionStoreScopingTests {
  @Test func scopedStoresShareOneReadAndWriteTheSameFile() throws {
    let directory = TemporaryDirectory()
    let path = directory.path + "/state.json"
    try FileSessionStore(path: path, server: "http://a").rememberSender("id-a")
    let unscoped = FileSessionStore(path: path, server: "")
    let scoped = unscoped.scoped(to: "http://a")
    #expect(scoped.senderID == "id-a")
    try unscoped.scoped(to: "http://b").rememberSender("id-b")
    let reread = FileSessionStore(path: path, server: "http://b")
    #expect(reread.senderID == "id-b")
    #expect(reread.scoped(to: "http://a").senderID == "id-a")
  }
}
