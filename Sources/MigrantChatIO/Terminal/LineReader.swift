/// What reading one line of input gave.
public enum LineInput: Sendable, Hashable {
  case line(String)
  /// Ctrl-C while typing; `wasEmpty` when nothing had been typed.
  case interrupted(wasEmpty: Bool)
  case endOfInput
}

/// A source of user input lines: readline on a terminal, plain stdin otherwise.
///
/// `readLine` blocks; callers run it off the Swift concurrency pool.
public protocol LineReader: AnyObject, Sendable {
  func readLine(prompt: String) -> LineInput
  /// Whether the reader completes with Tab: when not, nobody asks for the words.
  var completes: Bool { get }
  /// Words for tab completion: client commands and the current button titles.
  func setCompletions(_ words: [String])
  /// Wakes a blocked `readLine`, which returns `.interrupted`.
  func interrupt()
  /// A line that can be had without blocking, or nil.
  func bufferedLine() -> LineInput?
  /// The terminal changed size (SIGWINCH): line editing redraws at the new width.
  func terminalResized()
}

extension LineReader {
  public var completes: Bool { true }
  public func bufferedLine() -> LineInput? { nil }
  public func terminalResized() {}
}
