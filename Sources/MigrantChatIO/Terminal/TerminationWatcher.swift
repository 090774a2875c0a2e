import Foundation

/// SIGTERM and SIGHUP end the chat cleanly; SIGPIPE is ignored.
///
/// On SIGTERM or SIGHUP the terminal is put back as it was at start (readline
/// may have it in raw mode) and the process exits with 128 + the signal's
/// number. Nothing else needs flushing: history lines are appended as they are
/// typed, state files are written atomically, and SQLite keeps its
/// transactions whole when a process stops. SIGPIPE is ignored so a closed
/// stdout (`| head`) or a peer that hangs up surfaces as an `EPIPE` error to
/// handle, rather than killing the process mid-write.
public enum TerminationWatcher {
  /// Installs the SIGTERM and SIGHUP handlers once (for the chat); later calls do nothing.
  public static func install() {
    _ = installed
  }

  /// For every command: a write to a closed pipe is an error, not a fatal signal.
  public static func ignoreBrokenPipes() {
    signal(SIGPIPE, SIG_IGN)
  }

  private static let installed: Bool = {
    ignoreBrokenPipes()
    if isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &savedTerminal) == 0 {
      hasSavedTerminal = true
    }
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else { return false }
    terminationPipeWrite = descriptors[1]
    _ = fcntl(descriptors[1], F_SETFL, O_NONBLOCK)
    let readEnd = descriptors[0]
    signal(SIGTERM, terminationSignalHandler)
    signal(SIGHUP, terminationSignalHandler)
    let thread = Thread {
      var number: Int32 = 0
      while true {
        let count = read(readEnd, &number, MemoryLayout<Int32>.size)
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { return }
        if hasSavedTerminal { tcsetattr(STDIN_FILENO, TCSANOW, &savedTerminal) }
        exit(128 + number)
      }
    }
    thread.start()
    return true
  }()
}

nonisolated(unsafe) private var terminationPipeWrite: Int32 = -1
nonisolated(unsafe) private var savedTerminal = termios()
nonisolated(unsafe) private var hasSavedTerminal = false

/// Async-signal-safe: only writes the signal's number to a pipe.
private let terminationSignalHandler: @convention(c) (Int32) -> Void = { number in
  var value = number
  _ = write(terminationPipeWrite, &value, MemoryLayout<Int32>.size)
}
