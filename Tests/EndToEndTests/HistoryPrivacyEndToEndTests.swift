import Foundation
import TestSupport
import Testing

/// What a conversation keeps of the server it was held with: never a password, never
/// the sender id in what is shared; forgetting it ends it on the server too.
@Suite struct HistoryPrivacyEndToEndTests {
  let home = TemporaryDirectory()
  static let password = "Hunter2pw"

  func run(_ arguments: [String], input: String = "", extra: [String: String] = [:]) throws
    -> ProcessResult
  {
    try ProcessRunner.run(
      ProcessRunner.binaryPath, arguments, input: input,
      environment: home.environment(["MIGRANT_CHAT_LANG": "en"].merging(extra) { $1 }))
  }

  func bot() throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer { _ in
      .json(#"[{"text":"Hello from the bot","buttons":[{"title":"Go on","payload":"/go"}]}]"#)
    }
  }

  /// Every file in the state folder, as bytes.
  func stateFiles() throws -> [(String, Data)] {
    let folder = home.path + "/state/migrant-chat"
    return try FileManager.default.contentsOfDirectory(atPath: folder).map { name in
      (name, try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
    }
  }

  func senders() throws -> [String: String] {
    let data = try Data(
      contentsOf: URL(fileURLWithPath: home.path + "/state/migrant-chat/state.json"))
    return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["senders"]
      as? [String: String] ?? [:]
  }

  /// A damaged history (a truncated file, as a full disk or a copy cut short leaves it)
  /// is set aside with a translated note, a new one begins, the chat keeps going and
  /// records again; `history forget --all` deletes the damaged copy too, since it still
  /// holds conversations. `--lang` works on every history command.
  @Test func aDamagedHistoryIsSetAsideAndForgetAllDeletesIt() throws {
    let first = try run(["--offline", "--start-message", ""], input: "insurance\n")
    #expect(first.status == 0, "\(first.stderr)")
    let folder = home.path + "/state/migrant-chat"
    let file = folder + "/conversations.sqlite"
    // Garbage where the pages were, no log to restore them: damaged for certain.
    try Data(repeating: 0x5A, count: 8_192).write(to: URL(fileURLWithPath: file))
    for suffix in ["-wal", "-shm"] { unlink(file + suffix) }
    let listed = try run(["history", "--lang", "ru"])
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(listed.stderr.contains("История повреждена"), "\(listed.stderr)")
    #expect(listed.stderr.contains("conversations.sqlite.damaged-"), "names the copy")
    #expect(!listed.stderr.contains("corrupt("), "no Swift dump: \(listed.stderr)")
    let aside = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
      $0.hasPrefix("conversations.sqlite.damaged-")
    }
    #expect(aside.count == 1)
    let chat = try run(["--offline", "--start-message", ""], input: "housing\n")
    #expect(chat.status == 0)
    #expect(!chat.stderr.contains("history"), "the new history works: \(chat.stderr)")
    #expect(try run(["history", "search", "housing"]).stdout.contains("housing"))
    let forgot = try run(["history", "forget", "--all", "--lang", "uk"])
    #expect(forgot.status == 0, "\(forgot.stderr)")
    let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
      $0.contains("damaged")
    }
    #expect(left.isEmpty, "\(left)")
  }

  /// `--server http://user:secret@host`: the password reaches the server (Basic auth)
  /// and nothing else: not the state, the history, its list, show and exports, errors.
  @Test func aPasswordInTheServersAddressIsNeverWrittenNorShown() throws {
    let server = try bot()
    let port = server.baseURL.split(separator: ":").last.map(String.init) ?? ""
    let url = "http://ana:\(Self.password)@127.0.0.1:\(port)"
    let shown = "http://ana:***@127.0.0.1:\(port)"
    let chat = try run(["--server", url, "--start-message", "hello"], input: "hi\n1\n")
    #expect(chat.status == 0, "\(chat.stderr)")
    let basic = "Basic " + Data("ana:\(Self.password)".utf8).base64EncodedString()
    #expect(server.requests.count == 3)
    #expect(server.requests.allSatisfy { $0.headers["authorization"] == basic })
    var outputs = [("chat", chat.stdout + chat.stderr)]
    for arguments in [
      ["history"], ["history", "show", "1"], ["history", "export", "1"],
      ["history", "export", "1", "--json"], ["history", "export", "1", "--text"],
      ["history", "search", "hello"],
    ] {
      let result = try run(arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      outputs.append((arguments.joined(separator: " "), result.stdout + result.stderr))
    }
    #expect(outputs[1].1.contains(shown), "\(outputs[1].1)")
    #expect(outputs[2].1.contains(shown), "\(outputs[2].1)")
    let unreachable = try run(
      ["--server", "http://ana:\(Self.password)@127.0.0.1:9"], input: "hi\n")
    #expect(
      (unreachable.stdout + unreachable.stderr).contains("ana:***@127.0.0.1:9"),
      "\(unreachable.stdout)\(unreachable.stderr)")
    outputs.append(("unreachable", unreachable.stdout + unreachable.stderr))
    let invalid = try run(["--server", "ftp://ana:\(Self.password)@host"], input: "hi\n")
    #expect(invalid.status == 2)
    outputs.append(("invalid", invalid.stdout + invalid.stderr))
    // Typed without http://: the line saying it is assumed quoted the password.
    let bare = try run(["--server", "ana:\(Self.password)@127.0.0.1:9"], input: "hi\n")
    #expect(bare.stderr.contains("'ana:***@127.0.0.1:9' has no http://"), "\(bare.stderr)")
    outputs.append(("no scheme", bare.stdout + bare.stderr))
    for command in [["replay", "x.yaml"], ["explore"], ["robustness", "x.yml"]] {
      let other = try run(command + ["--server", "ana:\(Self.password)@127.0.0.1:9"])
      outputs.append((command[0] + " no scheme", other.stdout + other.stderr))
    }
    for (what, text) in outputs {
      #expect(!text.contains(Self.password), "\(what) shows the password: \(text)")
    }
    for (name, data) in try stateFiles() {
      #expect(data.range(of: Data(Self.password.utf8)) == nil, "\(name) keeps the password")
    }
    // The one handle on a Rasa REST conversation is not in what is shared.
    let json = try run(["history", "export", "1", "--json"])
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(object?["sender"] == nil && object?["server"] as? String == shown)
  }

  /// Forgetting a conversation ends it on the server: the sender id is dropped (the
  /// next chat there is a new conversation) and the bot is sent `/restart` under the old
  /// one, with the password of the configured server; a bot not told is said.
  @Test func forgettingEndsTheConversationOnTheServer() throws {
    let server = try bot()
    let port = server.baseURL.split(separator: ":").last.map(String.init) ?? ""
    let url = "http://ana:\(Self.password)@127.0.0.1:\(port)"
    let key = "http://ana:***@127.0.0.1:\(port)"
    _ = try run(["--server", url, "--start-message", ""], input: "first\n")
    let first = try #require(try senders()[key])
    // Without the password (never kept), the bot cannot be told; here it is forgotten.
    let blind = try run(["history", "forget", "1"])
    #expect(blind.status == 0)
    #expect(
      blind.stderr.contains("could not be sent /restart for conversation 1"), "\(blind.stderr)")
    #expect(blind.stderr.contains("its password is never kept"))
    #expect(try senders()[key] == nil)
    _ = try run(["--server", url, "--start-message", ""], input: "second\n")
    let second = try #require(try senders()[key])
    #expect(second != first)
    let before = server.requests.count
    let told = try run(["history", "forget", "2"], extra: ["MIGRANT_CHAT_SERVER": url])
    #expect(told.status == 0, "\(told.stderr)")
    #expect(
      told.stdout.contains("was sent /restart for 1 forgotten conversation"), "\(told.stdout)")
    let restart = server.requests.dropFirst(before).first
    #expect(restart?.bodyJSON?["sender"] as? String == second)
    #expect(restart?.bodyJSON?["message"] as? String == "/restart")
    #expect(restart?.headers["authorization"] != nil)
    #expect(try senders()[key] == nil)
    _ = try run(["--server", url, "--start-message", ""], input: "third\n")
    #expect(try senders()[key].map { $0 != second } == true, "a new conversation")
  }

  /// The line typed is kept before it is sent: a chat killed while the bot is slow to
  /// answer keeps it (it was on the screen).
  @Test func aLineIsKeptBeforeTheBotAnswers() throws {
    let slow = try LoopbackHTTPServer { _ in
      .delayed(seconds: 60, then: ResponseBox(.json(#"[{"text":"late"}]"#)))
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ProcessRunner.binaryPath)
    process.arguments = ["--server", slow.baseURL, "--start-message", ""]
    process.environment = home.environment(["MIGRANT_CHAT_LANG": "en"])
    let input = Pipe()
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    input.fileHandleForWriting.write(Data("where do I renew my visa\n".utf8))
    // The sign: the line reached the bot, which holds its answer.
    #expect(waitUntil { !slow.requests.isEmpty }, "the line never reached the bot")
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    let show = try run(["history", "show", "1"])
    #expect(show.stdout.contains("> where do I renew my visa"), "\(show.stdout)\(show.stderr)")
  }
}
