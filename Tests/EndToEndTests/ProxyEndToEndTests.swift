import Foundation
import TestSupport
import Testing

/// A bot reached through an HTTP proxy, as in offices that allow no other way out.
@Suite struct ProxyEndToEndTests {
  let home = TemporaryDirectory()

  /// libcurl opens a new tunnel and posts again when a kept-alive connection
  /// closes without answering; the proxy's "200 Connection established" on the
  /// new tunnel is no answer from the bot, so the message still goes once.
  @Test func aMessageIsNotSentTwiceThroughAConnectProxy() throws {
    let (certificate, key) = try SelfSignedTLSServer.makeCertificate(in: home.path)
    let botPort = unusedLoopbackPort()
    let proxyPort = unusedLoopbackPort()
    let log = home.path + "/received.txt"
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Scripts/proxied_tls_bot.py").path
    let servers = Process()
    // Never the test run's own stdin: CI's may be a pipe that never ends.
    servers.standardInput = FileHandle.nullDevice
    servers.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    servers.arguments = [
      "python3", script, String(botPort), String(proxyPort), certificate, key, log,
    ]
    servers.standardOutput = FileHandle.nullDevice
    servers.standardError = FileHandle.nullDevice
    try servers.run()
    // SIGKILL: a SIGTERM was left pending when the test process had it blocked, and the
    // servers outlived the run.
    defer {
      kill(servers.processIdentifier, SIGKILL)
      servers.waitUntilExit()
    }
    try #require(
      waitForPort(botPort, seconds: hangGuard) && waitForPort(proxyPort, seconds: hangGuard))

    let result = try ProcessRunner.run(
      ProcessRunner.binaryPath,
      ["--server", "https://127.0.0.1:\(botPort)", "--insecure", "--lang", "en"],
      input: "first\nsecond\n",
      environment: home.environment(["https_proxy": "http://127.0.0.1:\(proxyPort)"]))
    #expect(result.stdout.contains("echo first"), "\(result.stdout)\(result.stderr)")
    let received = try String(contentsOfFile: log, encoding: .utf8)
      .split(separator: "\n").map(String.init)
    #expect(received.filter { $0 == "second" }.count == 1, "\(received)")
    #expect(received.contains("first"))
    // The turn failed with no answer, and said so.
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
  }
}
