import Foundation
import TestSupport
import Testing

/// Bad answers outside the hostile-server table (`HostileServerEndToEndTests`):
/// an empty answer, colours on, no server, no such host, and `--insecure`.
@Suite struct BadInputEndToEndTests {
  @Test func emptyAnswerIsNotAFailure() throws {
    let bot = try makeScenarioBot()
    let result = try chat(["--server", bot.baseURL], input: "empty\n", home: TemporaryDirectory())
    #expect(result.status == 0)
    #expect(result.stdout.contains("> empty\n(the bot did not answer)\n"))
  }

  @Test func hostileTextNeverReachesTheTerminal() throws {
    let bot = try makeScenarioBot()
    let result = try chat(
      ["--server", bot.baseURL, "--color", "always"], input: "evil\n", home: TemporaryDirectory())
    #expect(result.stdout.contains("abcd"))
    #expect(!result.stdout.contains("owned"))
    #expect(!result.stdout.contains("\u{1B}]") && !result.stdout.contains("\u{1B}[2J"))
    #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x202E })
  }

  @Test func connectionRefusedNamesTheServerAndFlag() throws {
    let server = "http://127.0.0.1:\(unusedLoopbackPort())"
    let result = try chat(
      ["--server", server], input: "hello\nagain\n", home: TemporaryDirectory())
    #expect(result.status == 1)
    #expect(
      result.messages.contains(
        "Cannot reach the chatbot at \(server): connection refused. Check --server"))
    // Both the start message and the two lines were tried: the session went on.
    #expect(result.stdout == "> hello\n> again\n")
    #expect(result.messages.contains("3 turns got no answer."))
  }

  @Test func unknownHostSaysTheNameDoesNotResolve() throws {
    let result = try chat(
      ["--server", "http://no-such-host.invalid", "--timeout", "10"], input: "",
      home: TemporaryDirectory(),
      environment: ["LANG": "uk_UA.UTF-8"])
    #expect(result.status == 1)
    #expect(result.messages.contains("ім'я «no-such-host.invalid» не знайдено"))
  }

  @Test func tlsFailureSuggestsInsecureWhichWorks() throws {
    let tls = try SelfSignedTLSServer()
    defer { tls.stop() }
    let home = TemporaryDirectory()
    let strict = try chat(["--server", tls.baseURL, "--timeout", "10"], input: "", home: home)
    #expect(strict.status == 1)
    #expect(strict.messages.contains("could not be verified"))
    #expect(strict.messages.contains("--insecure"))
    let insecure = try chat(["--server", tls.baseURL, "--insecure"], input: "", home: home)
    #expect(insecure.status == 0)
    #expect(insecure.messages.contains("Warning: --insecure turns off TLS certificate checks"))
    #expect(insecure.stdout == "secure hello\n")
  }
}
