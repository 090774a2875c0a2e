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
      environment: ProcessInfo.processInfo.environment, timeout: 90)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout == "ok\n")
    let messages = bot.requests.compactMap { $0.bodyJSON?["message"] as? String }
    #expect(
      messages == [
        "/start", "/health", "привіт", "slow", " private line".trimmingCharacters(in: .whitespaces),
        "/housing",
      ])
  }
}
