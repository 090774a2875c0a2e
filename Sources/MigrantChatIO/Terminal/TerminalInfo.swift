import Foundation

/// What the process is connected to: a terminal or a pipe, and how wide.
public enum TerminalInfo {
  public static func isTerminal(_ descriptor: Int32) -> Bool {
    isatty(descriptor) == 1
  }

  /// Columns: `COLUMNS` when set, else the terminal's size, else 80.
  public static func width(environment: [String: String], descriptor: Int32 = STDOUT_FILENO) -> Int
  {
    if let value = environment["COLUMNS"], let columns = Int(value), columns > 0 {
      return columns
    }
    var size = winsize()
    if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
      return Int(size.ws_col)
    }
    return 80
  }
}

/// Writes to stdout and stderr without buffering surprises between the two.
public enum ConsoleOutput {
  public static func write(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
    guard !text.isEmpty else { return }
    var remaining = Array(text.utf8)[...]
    while !remaining.isEmpty {
      let written = remaining.withUnsafeBytes { bytes in
        Foundation.write(descriptor, bytes.baseAddress, bytes.count)
      }
      if written < 0 {
        if errno == EINTR { continue }
        // Whoever read stdout has gone (`| head`): nothing more can be said; leave quietly.
        if errno == EPIPE && descriptor == STDOUT_FILENO { exit(0) }
        return
      }
      remaining = remaining.dropFirst(written)
    }
  }
}
