import Foundation
import TestSupport
import Testing

@Suite struct SignalEndToEndTests {
  let home = TemporaryDirectory()

  @Test func aClosedStdoutEndsTheChatQuietly() throws {
    let script = """
      yes 2 | head -3000 | "$0" --offline | head -c 200 >/dev/null
      echo "status=${PIPESTATUS[2]}"
      """
    let result = try ProcessRunner.run(
      "/bin/bash", ["-c", script, ProcessRunner.binaryPath], environment: home.environment())
    #expect(result.stdout == "status=0\n")
    #expect(result.stderr.isEmpty, "no stack trace, no error: \(result.stderr)")
  }

  /// A full disk (ENOSPC, here /dev/full) is not a closed pipe: a translated message and exit 1,
  /// for the chat and for the contacts commands.
  @Test(arguments: [["--offline"], ["contacts", "list"]])
  func anOutputThatCannotBeWrittenIsAnError(arguments: [String]) throws {
    let script = #"printf '1\n2\n' | "$0" "$@" >/dev/full"#
    let result = try ProcessRunner.run(
      "/bin/bash", ["-c", script, ProcessRunner.binaryPath] + arguments + ["--lang", "uk"],
      environment: home.environment())
    #expect(result.status == 1)
    #expect(result.stderr.contains("не вдається записати вивід"), "\(result.stderr)")
  }

  /// In a pipe, SIGTERM, SIGHUP and Ctrl-C (SIGINT) end the chat through its main loop
  /// with 128 + the signal's number, not by the signal's default action.
  @Test(arguments: [
    (Int32(SIGTERM), Int32(143)), (Int32(SIGHUP), Int32(129)), (Int32(SIGINT), Int32(130)),
  ])
  func terminationSignalsExitWith128PlusTheNumber(signal: Int32, status: Int32) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ProcessRunner.binaryPath)
    process.arguments = ["--offline"]
    process.environment = home.environment()
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Wait for the greeting, so the signal comes while the chat waits for a line.
    var seen = Data()
    while !String(decoding: seen, as: UTF8.self).contains("What do you need help with?") {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      seen.append(chunk)
    }
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    try? input.fileHandleForWriting.close()
    #expect(process.terminationReason == .exit, "ended by a handler, not killed by the signal")
    #expect(process.terminationStatus == status)
  }
}
