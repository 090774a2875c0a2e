import Foundation
import TestSupport
import Testing

/// `replay from-tracker SENDER --server URL --out FILE` (#46): a conversation in the
/// bot's tracker store becomes a transcript that replays green against the same bot.
@Suite struct FromTrackerEndToEndTests {
  let home = TemporaryDirectory()

  func run(_ arguments: [String]) throws -> ProcessResult {
    try ProcessRunner.run(
      ProcessRunner.binaryPath, arguments, environment: home.environment(["COLUMNS": "80"]))
  }

  static let tracker = #"""
    {"events":[{"event":"action","name":"action_session_start"},
     {"event":"user","text":"hello","metadata":{"language":"en"}},
     {"event":"bot","text":"What do you need?","data":{"buttons":[
       {"title":"Health insurance","payload":"/insurance"},{"title":"Housing","payload":"/housing"}]}},
     {"event":"user","text":"/insurance"},
     {"event":"bot","text":"These offices can help:","data":{"custom":{"contacts":[138508]}}},
     {"event":"user","text":"/housing"},
     {"event":"bot","text":"Always sign a written lease.","data":{}}]}
    """#

  /// A bot whose tracker store holds `known`, and whose answers are what that tracker shows.
  func bot() throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer { request in
      switch request.path {
      case "/conversations/known/tracker": return .json(Self.tracker)
      case "/conversations/nobody/tracker":
        return .json(#"{"events":[{"event":"action","name":"action_listen"}]}"#)
      case "/conversations/secret/tracker": return .http(status: 401, body: Data("no".utf8))
      default: break
      }
      switch request.bodyJSON?["message"] as? String {
      case "hello":
        return .json(
          #"[{"text":"What do you need?","buttons":[{"title":"Health insurance","payload":"/insurance"},{"title":"Housing","payload":"/housing"}]}]"#
        )
      case "/insurance":
        return .json(#"[{"text":"These offices can help:","custom":{"contacts":[138508]}}]"#)
      case "/housing": return .json(#"[{"text":"Always sign a written lease."}]"#)
      default: return .json(#"[{"text":"Sorry?"}]"#)
      }
    }
  }

  @Test func aTrackedConversationReplaysGreen() throws {
    let bot = try bot()
    let out = home.path + "/went-wrong.yaml"
    let export = try run(["replay", "from-tracker", "known", "--server", bot.baseURL, "--out", out])
    #expect(export.status == 0, "\(export.stderr)")
    #expect(export.stdout == "Saved 3 turns as a transcript: \(out)\n", "\(export.stdout)")
    let text = try String(contentsOfFile: out, encoding: .utf8)
    #expect(text.contains("- button: \"Health insurance\""), "the payload just offered is a click")
    // Not offered by the answer just before it: a payload typed, sent as written.
    #expect(text.contains("- user: \"/housing\""))
    #expect(text.contains("- \"138508\""), "the card is checked: \(text)")
    #expect(!text.contains("start:"), "nothing was sent before the first line")
    let replay = try run(["replay", out, "--server", bot.baseURL])
    #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
    #expect(replay.stdout.contains("1 passed, 0 failed"))
    // Edited to expect what the bot should have said, it fails while the bot does not.
    try text.replacingOccurrences(of: "Always sign a written lease.", with: "Ask for a lease.")
      .write(toFile: out, atomically: true, encoding: .utf8)
    #expect(try run(["replay", out, "--server", bot.baseURL]).status == 1)
  }

  /// `--as-e2e`: Rasa Pro's format, the click sent as its payload, the texts in order;
  /// `replay` reads it back and it passes against the same bot.
  @Test func asRasaProEndToEnd() throws {
    let bot = try bot()
    let out = home.path + "/e2e.yml"
    let export = try run([
      "replay", "from-tracker", "known", "--server", bot.baseURL, "--out", out, "--as-e2e",
    ])
    #expect(export.status == 0, "\(export.stderr)")
    let text = try String(contentsOfFile: out, encoding: .utf8)
    #expect(text.contains("test_cases:"), "\(text)")
    #expect(text.contains("- user: \"/insurance\""), "the click as its payload: \(text)")
    #expect(text.contains("- bot: \"Always sign a written lease.\""))
    #expect(!text.contains("138508"), "cards have no step in that format")
    let replay = try run(["replay", out, "--server", bot.baseURL])
    #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
    #expect(replay.stdout.contains("1 passed, 0 failed"), "\(replay.stdout)")
  }

  @Test func anUnreadableOrEmptyTrackerIsSaidAndWritesNothing() throws {
    let bot = try bot()
    let out = home.path + "/x.yaml"
    let secret = try run([
      "replay", "from-tracker", "secret", "--server", bot.baseURL, "--out", out,
    ])
    #expect(secret.status == 1)
    #expect(
      secret.stderr.contains("Could not read the conversation secret from"), "\(secret.stderr)")
    #expect(secret.stderr.contains("rasa run --enable-api"))
    let nobody = try run([
      "replay", "from-tracker", "nobody", "--server", bot.baseURL, "--out", out,
    ])
    #expect(nobody.status == 1)
    #expect(nobody.stderr.contains("has no message from the user"), "\(nobody.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
    let missing = try run(["replay", "from-tracker", "known", "--out", out])
    #expect(missing.status == 2, "--server is required: \(missing.stderr)")
  }
}
