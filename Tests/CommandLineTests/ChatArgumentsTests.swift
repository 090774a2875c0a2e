import MigrantChatCore
import TestSupport
import Testing

@testable import migrant_chat

/// `ChatArguments.quickParse` against swift-argument-parser, which declares the
/// options: wherever the quick parse answers, the answer must be the one the
/// full parse gives from the root, as the binary would without it.
@Suite struct ChatArgumentsTests {
  /// What `migrant-chat ARGUMENTS` runs the chat with through swift-argument-parser;
  /// nil when it would not run the chat (help, an error, another command).
  static func fullParse(_ arguments: [String]) -> ChatArguments? {
    guard let command = try? MigrantChat.parseAsRoot(arguments) as? ChatCommand else { return nil }
    return ChatArguments(command.options)
  }

  @Test(arguments: [
    [],
    ["--offline"],
    ["--offline", "--lang", "uk"],
    ["--lang=ru", "--json", "--no-history"],
    ["--server", "http://localhost:5005", "--webhook-path", "webhooks/rest/webhook"],
    ["--server=https://bot.example/rasa", "--timeout", "2,5", "--insecure"],
    ["--data-api", "http://localhost:8080", "--offline-fallback", "never", "--color", "always"],
    ["--sender", "", "--start-message", "/restart", "--record", "out.jsonl", "--inspect"],
    ["--start-message=a=b", "--sender=Прага"],
    ["--timeout=3600", "--color=never", "--offline-fallback=auto", "--lang", "en"],
    ["--server", "http://localhost:5005", "--channel", "socketio", "--socket-path", "/sio"],
    ["--channel=Socket.IO"], ["--channel", "rest"],
    ["--offline", "--accessible", "--bell", "--lang", "uk"], ["--bell"],
  ])
  func readsTheCommonOptionsAsTheFullParseDoes(arguments: [String]) throws {
    let quick = try #require(ChatArguments.quickParse(arguments))
    #expect(quick == Self.fullParse(arguments))
  }

  @Test func readsEachValue() throws {
    let quick = try #require(
      ChatArguments.quickParse([
        "--server", "http://h", "--webhook-path=w", "--offline", "--record", "r", "--data-api", "d",
        "--lang", "uk", "--sender", "s", "--start-message", "hi", "--color", "never", "--json",
        "--timeout", "7", "--insecure", "--no-history", "--inspect", "--offline-fallback", "never",
        "--resume",
      ]))
    var expected = ChatArguments()
    expected.server = "http://h"
    expected.webhookPath = "w"
    expected.offline = true
    expected.record = "r"
    expected.dataAPI = "d"
    expected.lang = .uk
    expected.sender = "s"
    expected.startMessage = "hi"
    expected.color = .never
    expected.json = true
    expected.timeout = Timeout(seconds: 7)
    expected.insecure = true
    expected.noHistory = true
    expected.resume = true
    expected.inspect = true
    expected.offlineFallback = .never
    #expect(quick == expected)
    #expect(ChatArguments.quickParse([]) == ChatArguments())
  }

  /// Left to swift-argument-parser: its help, its errors in the user's language,
  /// and the forms the quick parse does not take.
  @Test(arguments: [
    ["--help"], ["-h"], ["--version"], ["--generate-completion-script", "bash"],
    ["contacts", "list"], ["chat", "--offline"], ["serve"],
    ["--lang", "de"], ["--lang"], ["--timeout", "0"], ["--timeout", "abc"],
    ["--color", "sometimes"], ["--offline-fallback", "maybe"], ["--channel", "grpc"],
    ["--channel", "rest,", "--offline"], ["--settle", "0.5"], ["--bot-event", "say"],
    ["--offline=yes"], ["--offline", "--offline"], ["--lang", "uk", "--lang=ru"], ["--server="],
    ["--server", "--offline"], ["--sender", "-x"], ["--start-message", "-"],
    ["--no-such-option"], ["--"], ["--=x"], ["-o"], ["stray"], ["--offline", "stray"],
  ])
  func leavesTheRestToTheFullParse(arguments: [String]) {
    #expect(ChatArguments.quickParse(arguments) == nil)
  }

  /// Arguments drawn at random from the options, values and mistakes above:
  /// whenever the quick parse answers, the full parse runs the chat with the same.
  @Test func agreesWithTheFullParseOnRandomArguments() {
    let names = [
      "server", "webhook-path", "offline", "record", "offline-fallback", "data-api", "lang",
      "sender", "start-message", "color", "json", "timeout", "insecure", "no-history", "inspect",
      "resume", "channel", "socket-path", "help", "version", "nope", "",
    ]
    let values = [
      "uk", "ru", "en", "de", "UK", "5", "2,5", "0", "1e9", "nan", "always", "never", "auto",
      "http://localhost:5005", "", " ", "-x", "chat", "contacts", "a=b", "Прага", "--", "/start",
      "socketio", "rest,socketio", "socket.io", "/socket.io",
    ]
    var random = SeededRandom(seed: 20_261_125)
    var answered = 0
    var refused = 0
    for _ in 0..<1_500 {
      var arguments: [String] = []
      for _ in 0..<Int.random(in: 0..<5, using: &random) {
        let name = "--" + names[Int.random(in: 0..<names.count, using: &random)]
        switch Int.random(in: 0..<4, using: &random) {
        case 0: arguments.append(name)
        case 1:
          arguments.append(name + "=" + values[Int.random(in: 0..<values.count, using: &random)])
        default: arguments += [name, values[Int.random(in: 0..<values.count, using: &random)]]
        }
      }
      guard let quick = ChatArguments.quickParse(arguments) else {
        refused += 1
        continue
      }
      answered += 1
      #expect(quick == Self.fullParse(arguments), "\(arguments)")
    }
    // Both kinds were drawn, so the comparison above was not vacuous.
    #expect(answered > 100)
    #expect(refused > 100)
  }
}
