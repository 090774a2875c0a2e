import Foundation

/// Reads lines from a pipe or file: no prompt, no editing, no history.
public final class StdinLineReader: LineReader {
  public init() {}

  public func readLine(prompt: String) -> LineInput {
    // Swift.readLine replaces invalid UTF-8 with U+FFFD.
    guard let line = Swift.readLine(strippingNewline: true) else { return .endOfInput }
    return .line(line.hasSuffix("\r") ? String(line.dropLast()) : line)
  }

  public func setCompletions(_ words: [String]) {}

  public func interrupt() {}
}
