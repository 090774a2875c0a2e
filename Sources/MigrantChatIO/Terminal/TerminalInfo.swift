import Foundation
import MigrantChatCore
import Synchronization

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

  /// Lines: `LINES` when set, else the terminal's size, else nil (a pipe has no height).
  public static func height(
    environment: [String: String] = ProcessEnvironment.current(),
    descriptor: Int32 = STDOUT_FILENO
  ) -> Int? {
    if let value = environment["LINES"], let lines = Int(value), lines > 0 { return lines }
    var size = winsize()
    if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 {
      return Int(size.ws_row)
    }
    return nil
  }
}

/// Writes to stdout and stderr without buffering surprises between the two.
///
/// A closed stdout (`| head`, `EPIPE`) ends the program quietly, with 0 (whoever
/// read it has gone), or with 141 for commands whose exit status is a verdict
/// (`replay`, `explore`: `closedStdoutStatus`), as a process ended by SIGPIPE: a
/// failing run piped into `head` must not pass for a green one. Any other failure to write stdout (a full disk, `ENOSPC`;
/// an I/O error, `EIO`) ends it with a message on stderr and exit status 1, so
/// a script never takes a cut-off log for a whole one.
public enum ConsoleOutput {
  /// The language of the write-failure message; commands set it once they know it.
  public static let language = Mutex(Language.en)
  /// The exit status when stdout is closed under the program (see above).
  public static let closedStdoutStatus = Atomic<Int32>(0)
  /// No escape sequence leaves (`TERM=dumb`, the accessible mode): the last guard, for
  /// any line a command did not shape itself.
  public static let escapesOff = Atomic<Bool>(false)
  /// The accessible mode: glyphs leave as words (`Accessibility.spoken`) on stderr,
  /// and on stdout when it is a terminal. A file or pipe gets the bytes the command
  /// wrote: a glyph turned into ", " would split a CSV field.
  private static let spokenStreams = Atomic<UInt8>(0)

  /// Whether a line may be rewritten in place (`\r`, `ESC[K`): not where escapes are off.
  public static var redraws: Bool { !escapesOff.load(ordering: .relaxed) }

  /// Sets both from a command's resolved settings.
  public static func shape(accessible: Bool, escapesAllowed: Bool) {
    let streams: UInt8 =
      accessible ? 0b10 | (TerminalInfo.isTerminal(STDOUT_FILENO) ? 0b01 : 0) : 0
    spokenStreams.store(streams, ordering: .relaxed)
    escapesOff.store(!escapesAllowed, ordering: .relaxed)
  }

  public static func write(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
    guard !text.isEmpty else { return }
    var text = text
    if escapesOff.load(ordering: .relaxed) { text = Accessibility.withoutEscapes(text) }
    let spoken = spokenStreams.load(ordering: .relaxed)
    if spoken & (descriptor == STDOUT_FILENO ? 0b01 : 0b10) != 0 {
      text = Accessibility.spoken(text, l10n: Localizer(language.withLock { $0 }))
    }
    var remaining = Array(text.utf8)[...]
    while !remaining.isEmpty {
      let written = remaining.withUnsafeBytes { bytes in
        Foundation.write(descriptor, bytes.baseAddress, bytes.count)
      }
      if written < 0 {
        let failure = errno
        if failure == EINTR { continue }
        guard descriptor == STDOUT_FILENO else { return }  // stderr: nowhere left to say it
        if failure == EPIPE { exit(closedStdoutStatus.load(ordering: .relaxed)) }
        outputFailed(errno: failure)
      }
      remaining = remaining.dropFirst(written)
    }
  }

  private static func outputFailed(errno failure: Int32) -> Never {
    let l10n = Localizer(language.withLock { $0 })
    let message = l10n(.outputFailed, ["detail": String(cString: strerror(failure))]) + "\n"
    _ = message.withCString { Foundation.write(STDERR_FILENO, $0, strlen($0)) }
    SignalHub.shared.restoreTerminal()
    exit(1)
  }
}
