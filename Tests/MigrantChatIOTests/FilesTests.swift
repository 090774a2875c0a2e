import Foundation
import MigrantChatCore
import MigrantChatIO
import Synchronization
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
      channel: socketio
      socket_path: /bot/socket.io
      user_event: ask
      bot_event: say
      metadata_key: meta
      settle: 0.5
      """)
    var expected = ConfigFile(
      server: "https://bot.example.org", webhookPath: "/webhooks/myrest/webhook",
      language: "uk", timeout: Timeout(seconds: 12.5))
    expected.dataAPI = "https://data.example.org/api"
    expected.channel = .socketio
    expected.socketPath = "/bot/socket.io"
    expected.userEvent = "ask"
    expected.botEvent = "say"
    expected.metadataKey = "meta"
    expected.settle = 0.5
    #expect(config == expected)
  }

  /// `accessible: true` and `bell: true` (#47); another value names the key and the line.
  @Test func accessibleAndBellAreTrueOrFalse() throws {
    let config = try ConfigFile.parse("accessible: true\nbell: False\n")
    #expect(config.accessible == true && config.bell == false)
    #expect(try ConfigFile.parse("lang: uk").accessible == nil)
    #expect {
      try ConfigFile.parse("lang: uk\naccessible: yes\n")
    } throws: { error in
      let text = (error as? ConfigFile.Invalid)?.message(Localizer(.uk)) ?? ""
      return text.contains("accessible") && text.contains("рядок 2") && text.contains("true")
    }
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
    "timeout: 1e30", "timeout: .inf", "timeout: 0.0004", "timeout: 3601", "timeout: nan",
    "lang: de", "channel: grpc", "channel: [rest]", "settle: 0", "settle: soon", "settle: 61",
    "accessible: yes", "accessible: 1", "accessible: [true]", "bell: on", "bell:",
  ])
  func badValuesAreErrors(text: String) {
    #expect(throws: ConfigFile.Invalid.self) { try ConfigFile.parse(text) }
  }

  /// Every way a timeout can be out of range is one error naming the key, the line and the
  /// range, in the user's language.
  @Test func aTimeoutOutOfRangeNamesTheRange() throws {
    #expect {
      try ConfigFile.parse("server: http://x\ntimeout: 1e30\n")
    } throws: { error in
      let text = (error as? ConfigFile.Invalid)?.message(Localizer(.uk)) ?? ""
      return text.contains("timeout") && text.contains("рядок 2") && text.contains("0,1")
        && text.contains("3600")
    }
    #expect(try ConfigFile.parse("timeout: 0.1").timeout == Timeout(seconds: 0.1))
    #expect(try ConfigFile.parse("timeout: 3600").timeout == Timeout(seconds: 3600))
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

  /// state.json is read field by field by the project's parser (#50): a field edited
  /// into nonsense loses that field only, a sender id that is not a string only itself,
  /// and a password kept by an older version is gone from the file at once.
  @Test func eachFieldIsReadOnItsOwn() throws {
    let directory = TemporaryDirectory()
    let path = directory.path + "/state.json"
    let text = #"""
      {"senders": {"http://a": "id-a", "http://b": 7, "http://u:secret@c": "id-c"},
       "language": "uk", "place": {"name": "Brno", "latitude": 49.19, "longitude": 16}}
      """#
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let store = FileSessionStore(path: path, server: "http://a")
    #expect(store.senderID == "id-a")
    #expect(store.scoped(to: "http://b").senderID == nil)
    #expect(store.scoped(to: ServerEndpoint.redacted("http://u:secret@c")).senderID == "id-c")
    #expect(store.language == .uk)
    #expect(store.place == HomePlace(name: "Brno", point: GeoPoint(latitude: 49.19, longitude: 16)))
    let rewritten = try String(contentsOfFile: path, encoding: .utf8)
    #expect(!rewritten.contains("secret"), "the password left the file at once")
    #expect(rewritten.contains("id-c"))

    let broken = #"""
      {"senders": {"http://a": "id-a"}, "language": "xx",
       "place": {"name": "B", "latitude": "x", "longitude": 1}}
      """#
    try Data(broken.utf8).write(to: URL(fileURLWithPath: path))
    let partly = FileSessionStore(path: path, server: "http://a")
    #expect(partly.senderID == "id-a")
    #expect(partly.language == nil)
    #expect(partly.place == nil)
    for notAnObject in ["[1, 2]", "\"text\"", ""] {
      try Data(notAnObject.utf8).write(to: URL(fileURLWithPath: path))
      #expect(FileSessionStore(path: path, server: "http://a").senderID == nil, "\(notAnObject)")
    }
  }

  /// A temporary file left by a write killed before its rename is removed at the next
  /// start; one whose writer still runs (this process) is not, nor other files.
  @Test func staleTemporariesAreRemoved() throws {
    let directory = TemporaryDirectory()
    let path = directory.path + "/state.json"
    let stale = directory.path + "/.state.json.999999999.tmp"
    let live = directory.path + "/.state.json.\(getpid()).tmp"
    let other = directory.path + "/.other.json.999999999.tmp"
    for file in [stale, live, other] { try Data().write(to: URL(fileURLWithPath: file)) }
    _ = FileSessionStore(path: path, server: "http://a")
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(FileManager.default.fileExists(atPath: live))
    #expect(FileManager.default.fileExists(atPath: other))
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

@Suite struct TranscriptWriterTests {
  struct Refused: Error, CustomStringConvertible {
    var description: String { "the emitter refused" }
  }

  /// A YAML serialization that fails is an error, and the old recording stays whole
  /// (before, a header alone was written and reported saved).
  @Test func aSerializationFailureKeepsTheOldFile() throws {
    let directory = TemporaryDirectory()
    let path = directory.path + "/rec.yaml"
    try "old recording\n".write(toFile: path, atomically: true, encoding: .utf8)
    let turns = [RecordedTurn(line: "hi", messages: [BotMessage(text: "Hello")])]
    #expect {
      try TranscriptWriter.write(
        name: "n", language: .en, turns: turns, to: path, serializer: { _ in throw Refused() })
    } throws: { error in
      "\(error)".contains("the emitter refused")
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "old recording\n")
    try TranscriptWriter.write(name: "n", language: .en, turns: turns, to: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8).contains("- user: \"hi\""))
    // A new recording is the user's alone (0600); one written over keeps its mode.
    let fresh = directory.path + "/new.yaml"
    try TranscriptWriter.write(name: "n", language: .en, turns: turns, to: fresh)
    let attributes = try FileManager.default.attributesOfItem(atPath: fresh)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }
}

@Suite struct ServeOutcomeTests {
  struct Broken: Error {}

  @Test func aFailureIsNotAStop() async {
    let failing = Task<Void, any Error> { throw Broken() }
    #expect(await ServeOutcome.of(failing) { false } == .failed(detail: "Broken()"))
    let returned = Task<Void, any Error> {}
    #expect(await ServeOutcome.of(returned) { false } == .failed(detail: nil))
    let stopped = Task<Void, any Error> { throw CancellationError() }
    #expect(await ServeOutcome.of(stopped) { true } == .stopped)
  }
}

/// Files the user names (`--ics`, `--report`, `--junit`, `--graph`, `/save`): written
/// through links, into devices and pipes as they are, never over a database or an input.
@Suite struct UserFileTests {
  let directory = TemporaryDirectory()
  let data = Data("BEGIN:VCALENDAR\r\n".utf8)

  func mode(_ path: String) throws -> Int {
    try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1
  }

  @Test func aDeviceIsWrittenIntoNotReplaced() throws {
    try AtomicFile.writeUserFile(data, to: "/dev/null")
    var info = stat()
    #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    // A full device says so (the data did not go anywhere).
    #expect(throws: AtomicFile.Failure.self) { try AtomicFile.writeUserFile(data, to: "/dev/full") }
    #expect(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
  }

  @Test func aPipeGetsTheDataAndStaysAPipe() throws {
    let fifo = directory.path + "/pipe"
    #expect(mkfifo(fifo, 0o600) == 0)
    let received = Mutex(Data())
    let reader = Thread {
      let handle = FileHandle(forReadingAtPath: fifo)
      received.withLock { $0 = (try? handle?.readToEnd()) ?? Data() }
    }
    reader.start()
    try AtomicFile.writeUserFile(data, to: fifo)
    for _ in 0..<200 where received.withLock({ $0.isEmpty }) { usleep(10_000) }
    #expect(received.withLock { $0 } == data)
    var info = stat()
    #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
  }

  @Test func aLinksTargetIsReplacedAndKeepsItsMode() throws {
    let target = directory.path + "/shared.ics"
    try Data("old".utf8).write(to: URL(fileURLWithPath: target))
    #expect(chmod(target, 0o644) == 0)
    let link = directory.path + "/link.ics"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    try AtomicFile.writeUserFile(data, to: link)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
    #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == data)
    #expect(try mode(target) == 0o644)
    // A new file gets the mode asked for.
    try AtomicFile.writeUserFile(data, to: directory.path + "/new.ics", mode: 0o600)
    #expect(try mode(directory.path + "/new.ics") == 0o600)
  }

  @Test func aFolderADatabaseAndAnInputAreRefusedAndKept() throws {
    #expect(throws: AtomicFile.Failure.self) {
      try AtomicFile.writeUserFile(data, to: directory.path)
    }
    let database = directory.path + "/user.sqlite"
    let content = Data("SQLite format 3\0 and the user's to-do list".utf8)
    try content.write(to: URL(fileURLWithPath: database))
    do {
      try AtomicFile.writeUserFile(data, to: database)
      Issue.record("a database was replaced")
    } catch {
      #expect(error.description.contains("SQLite database"))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == content)
    let input = directory.path + "/run.yaml"
    try Data("name: x".utf8).write(to: URL(fileURLWithPath: input))
    let alias = directory.path + "/alias.yaml"
    try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: input)
    #expect(throws: AtomicFile.Failure.self) {
      try AtomicFile.writeUserFile(data, to: alias, inputs: [input])
    }
    #expect(try String(contentsOfFile: input, encoding: .utf8) == "name: x")
  }
}
