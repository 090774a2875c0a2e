import Foundation
import TestSupport
import Testing

/// The interactive mode on a real pseudo-terminal: readline, completion,
/// Cyrillic, Ctrl-C while waiting and at the prompt, Ctrl-D, history.
@Suite struct TerminalEndToEndTests {
  @Test func aPersonAtATerminal() throws {
    let bot = try makeScenarioBot()
    let home = TemporaryDirectory()
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Scripts/drive_tty.py").path
    let result = try ProcessRunner.run(
      "/usr/bin/env", ["python3", script, ProcessRunner.binaryPath, bot.baseURL, home.path],
      environment: ProcessInfo.processInfo.environment, timeout: hangGuard)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout == "ok\n")
    let messages = bot.requests.compactMap { $0.bodyJSON?["message"] as? String }
    #expect(
      messages == [
        "/start", "/health", "привіт", "slow", " private line".trimmingCharacters(in: .whitespaces),
        "2",
      ])
  }

  /// The terminal shrinks from 100 to 50 columns mid-chat (SIGWINCH): later answers wrap
  /// at 50, not at the width of the start; resized while the bot answers, the next prompt
  /// is drawn once, not twice. SIGTERM at a prompt with text typed and SIGHUP
  /// while the bot answers: the main loop leaves, readline puts the terminal back (modes
  /// and bracketed paste), and the exit status is 128 + n.
  @Test(arguments: ["resize", "terminate", "completion"])
  func terminalSignals(scenario: String) throws {
    let bot = try makeScenarioBot()
    let home = TemporaryDirectory()
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Scripts/drive_tty.py").path
    let result = try ProcessRunner.run(
      "/usr/bin/env",
      ["python3", script, ProcessRunner.binaryPath, bot.baseURL, home.path, scenario],
      environment: ProcessInfo.processInfo.environment, timeout: hangGuard)
    #expect(result.stdout == "ok\n", "\(result.stdout)\(result.stderr)")
  }

  /// The server cannot be reached: a terminal is offered the offline assistant, once.
  @Test(arguments: [
    ("fallback", [String]()), ("declined", []), ("never", ["--offline-fallback", "never"]),
  ])
  func unreachableServer(scenario: String, flags: [String]) throws {
    let home = TemporaryDirectory()
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Scripts/drive_tty.py").path
    let down = "http://127.0.0.1:\(unusedLoopbackPort())"
    let result = try ProcessRunner.run(
      "/usr/bin/env",
      ["python3", script, ProcessRunner.binaryPath, down, home.path, scenario] + flags,
      environment: ProcessInfo.processInfo.environment, timeout: hangGuard)
    #expect(result.stdout == "ok\n", "\(result.stdout)\(result.stderr)")
  }

  /// `kill -9` at 20 moments of start-up (while a 300,000-line history is
  /// read and trimmed) and at 10 moments of typing (while lines are appended):
  /// every time, the history holds only whole lines that were typed, stays
  /// 0600, and the next start reads it without complaint.
  @Test func killedWhileWritingHistory() throws {
    let home = TemporaryDirectory()
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Scripts/drive_tty.py").path
    let result = try ProcessRunner.run(
      "/usr/bin/env",
      ["python3", script, ProcessRunner.binaryPath, "http://127.0.0.1:9", home.path, "killed"],
      environment: ProcessInfo.processInfo.environment, timeout: hangGuard)
    #expect(result.stdout == "ok\n", "\(result.stdout)\(result.stderr)")
  }

  @Test func aPipeNeverSwitchesSilently() throws {
    let down = "http://127.0.0.1:\(unusedLoopbackPort())"
    let result = try chat(["--server", down], input: "hello\n", home: TemporaryDirectory())
    #expect(result.status == 1)
    #expect(result.messages.contains("connection refused"))
    #expect(!result.stdout.contains("offline"))
    #expect(!result.messages.contains("Continue with the offline assistant"))
  }
}
