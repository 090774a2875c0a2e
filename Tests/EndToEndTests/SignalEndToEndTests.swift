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
  /// A parent may start the chat with these signals blocked (posix_spawn passes the
  /// spawning thread's mask on, and a test runner's worker thread blocks them): the
  /// chat still ends by them, with 128 + the number. It hung when its main thread,
  /// which keeps that mask, ran the chat and no thread took the signal (#50).
  @Test(arguments: [
    (Int32(SIGTERM), Int32(143)), (Int32(SIGHUP), Int32(129)), (Int32(SIGINT), Int32(130)),
  ])
  func signalsTheParentBlockedStillEndTheChat(signal: Int32, status: Int32) throws {
    let input = Pipe()
    let output = PipeCollector()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input.fileHandleForReading.fileDescriptor, 0)
    posix_spawn_file_actions_adddup2(
      &actions, output.pipe.fileHandleForWriting.fileDescriptor, 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var blocked = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, signal)
    posix_spawnattr_setsigmask(&attributes, &blocked)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    let arguments = [ProcessRunner.binaryPath, "--offline"]
    let environment = home.environment().map { "\($0.key)=\($0.value)" }
    var pid: pid_t = 0
    let spawned = withCStrings(arguments) { argv in
      withCStrings(environment) { envp in
        posix_spawn(&pid, ProcessRunner.binaryPath, &actions, &attributes, argv, envp)
      }
    }
    try #require(spawned == 0)
    try? input.fileHandleForReading.close()
    try? output.pipe.fileHandleForWriting.close()
    // The signal comes while the chat waits for a line.
    #expect(output.wait(for: "What do you need help with?"))
    kill(pid, signal)
    var waitStatus: Int32 = 0
    let ended = waitUntil { waitpid(pid, &waitStatus, WNOHANG) == pid }
    if !ended { kill(pid, SIGKILL) }
    try? input.fileHandleForWriting.close()
    #expect(ended, "the chat did not end on the signal its parent blocked")
    #expect(waitStatus & 0x7f == 0, "ended by a handler, not killed by the signal")
    #expect((waitStatus >> 8) & 0xff == status)
  }

  /// `body` with `strings` as a NULL-terminated C array.
  private func withCStrings<Result>(
    _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result
  ) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
  }
}
