internal import CReadline
import Foundation
import Synchronization

/// GNU readline on a terminal: line editing, persistent history, completion.
///
/// Uses readline's callback interface inside a `poll` loop, so Ctrl-C (which
/// arrives through `interrupt()`) can clear the line or report an empty one
/// without readline's own signal handling. Only one instance may exist: readline
/// keeps its state in globals.
public final class ReadlineLineReader: LineReader {
  private let historyPath: String?
  private let historyLimit: Int32
  private let wakeRead: Int32
  private let wakeWrite: Int32
  private let resizePending = Atomic<Bool>(false)

  /// - Parameters:
  ///   - historyPath: where history persists (mode 0600); nil keeps none.
  ///   - historyLimit: how many lines the history file keeps.
  public init(historyPath: String?, historyLimit: Int = 1000) {
    self.historyPath = historyPath
    self.historyLimit = Int32(historyLimit)
    let wake = WakePipe(nonBlockingRead: true)
    wakeRead = wake?.readEnd ?? -1
    wakeWrite = wake?.writeEnd ?? -1

    let switchedLocale = Self.useUTF8Locale()
    mc_rl_configure(completeLine)
    if switchedLocale { mc_rl_allow_eight_bit() }
    using_history()
    stifle_history(self.historyLimit)
    if let historyPath {
      Self.prepareHistoryFile(historyPath)
      _ = read_history(historyPath)
      Self.trimHistoryFile(historyPath)
    }
  }

  /// Rewrites the history file with the last lines only, atomically: written to a
  /// temporary file (0600) and renamed over it, so a kill never leaves half a file.
  /// During a session lines are only appended (one write each); the file is trimmed
  /// at the next start.
  private static func trimHistoryFile(_ path: String) {
    AtomicFile.removeStaleTemporaries(of: path)
    let temporary = AtomicFile.temporaryPath(for: path)
    // write_history writes the in-memory list, already cut to the limit by stifle_history.
    guard write_history(temporary) == 0 else {
      unlink(temporary)
      return
    }
    chmod(temporary, 0o600)
    if rename(temporary, path) != 0 { unlink(temporary) }
  }

  /// Readline edits multibyte text only under a UTF-8 LC_CTYPE: take the
  /// environment's locale, and fall back to C.UTF-8 when it is not UTF-8
  /// (a bare SSH session is often "C"), so Cyrillic input edits correctly.
  /// Returns true when it had to switch.
  ///
  /// Readline sets LC_CTYPE again from the environment when it starts (LC_ALL, then
  /// LC_CTYPE, then LANG), which undid the switch under `LANG=C` or `LC_ALL=C`: it
  /// then drew each Cyrillic letter as two columns and the line garbled. So the
  /// variables it reads say C.UTF-8 too (no child process is started from the chat).
  private static func useUTF8Locale() -> Bool {
    setlocale(LC_ALL, "")
    let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
    guard codeset.uppercased().replacingOccurrences(of: "-", with: "") != "UTF8" else {
      return false
    }
    guard setlocale(LC_CTYPE, "C.UTF-8") != nil else { return false }
    setenv("LC_CTYPE", "C.UTF-8", 1)
    if getenv("LC_ALL") != nil { setenv("LC_ALL", "C.UTF-8", 1) }
    return true
  }

  private static func prepareHistoryFile(_ path: String) {
    try? AtomicFile.makeDirectory((path as NSString).deletingLastPathComponent)
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    if descriptor >= 0 { close(descriptor) }
    chmod(path, 0o600)
  }

  public func readLine(prompt: String) -> LineInput {
    readlineResult = nil
    // A resize while no line was being read (the bot was answering): readline learns the
    // size before drawing. `rl_reset_screen_size`, not `rl_resize_terminal`, which also
    // redrew the last line's prompt here, before this line drew its own ("you> you> ").
    if resizePending.exchange(false, ordering: .relaxed) { rl_reset_screen_size() }
    rl_callback_handler_install(prompt, acceptLine)
    defer { rl_callback_handler_remove() }
    while true {
      var descriptors = [
        pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&descriptors, 2, -1)
      if ready < 0 {
        if errno == EINTR { continue }
        return .endOfInput
      }
      // Keys typed before Ctrl-C are read first, so "was the line empty" is right.
      if descriptors[0].revents != 0 {
        rl_callback_read_char()
        if let result = readlineResult {
          if case .line(let line) = result { remember(line) }
          return result
        }
        continue
      }
      if descriptors[1].revents != 0 {
        var buffer = [UInt8](repeating: 0, count: 64)
        var wakes: Set<UInt8> = []
        while true {
          let count = read(wakeRead, &buffer, buffer.count)
          if count <= 0 { break }
          wakes.formUnion(buffer[0..<count])
        }
        // Not again for a resize taken above, whose wake-up byte was left behind.
        if wakes.contains(Wake.resize.rawValue), resizePending.exchange(false, ordering: .relaxed) {
          rl_resize_terminal()  // re-reads the size and redraws the line being typed
        }
        guard wakes.contains(Wake.interrupt.rawValue) else { continue }
        let wasEmpty = mc_rl_line_length() == 0
        rl_free_line_state()
        rl_callback_sigcleanup()
        rl_replace_line("", 0)
        rl_crlf()
        return .interrupted(wasEmpty: wasEmpty)
      }
    }
  }

  public func setCompletions(_ words: [String]) {
    completionWords.withLock { $0 = words }
  }

  public func interrupt() {
    wake(.interrupt)
  }

  /// Called from the signal thread: readline's state belongs to the reading thread,
  /// so the resize is handed to it (now through the wake pipe, or at the next line).
  public func terminalResized() {
    resizePending.store(true, ordering: .relaxed)
    wake(.resize)
  }

  private enum Wake: UInt8 {
    case interrupt = 1
    case resize = 2
  }

  private func wake(_ reason: Wake) {
    var byte = reason.rawValue
    _ = write(wakeWrite, &byte, 1)
  }

  /// Adds a line to the history unless it starts with a space (a private
  /// line, as in bash) or repeats the previous one; appends it to the file.
  private func remember(_ line: String) {
    guard !line.isEmpty, !line.hasPrefix(" ") else { return }
    if let last = mc_history_last_line(), String(cString: last) == line { return }
    add_history(line)
    guard let historyPath else { return }
    _ = append_history(1, historyPath)
  }
}

// Readline's callbacks are C function pointers without context: the state
// they share lives here, touched only on the thread that calls readLine.
nonisolated(unsafe) private var readlineResult: LineInput?
private let completionWords = Mutex<[String]>([])
nonisolated(unsafe) private var completionMatches: [String] = []

private let acceptLine: @convention(c) (UnsafeMutablePointer<CChar>?) -> Void = { line in
  // Removed here, in the handler, as readline's manual does: left installed, readline
  // draws the prompt again after the line (after Ctrl-D, a second "you>" line).
  rl_callback_handler_remove()
  guard let line else {
    readlineResult = .endOfInput
    return
  }
  // readline returns malloc'd memory: copy it, then free it.
  readlineResult = .line(
    String(decoding: UnsafeRawBufferPointer(start: line, count: strlen(line)), as: UTF8.self))
  free(line)
}

private let completeLine:
  @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> UnsafeMutablePointer<
    UnsafeMutablePointer<CChar>?
  >? = {
    text, _, _ in
    mc_rl_completion_options()
    guard let text else { return nil }
    let typed = String(cString: text).lowercased()
    completionMatches = completionWords.withLock { words in
      words.filter { $0.lowercased().hasPrefix(typed) }
    }
    return rl_completion_matches(text, nextCompletion)
  }

private let nextCompletion:
  @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<CChar>? = {
    _, state in
    let index = Int(state)
    guard index < completionMatches.count else { return nil }
    // readline frees each match it is given.
    return strdup(completionMatches[index])
  }
