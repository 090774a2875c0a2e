import Foundation
import Synchronization

/// Reads lines from a pipe or file: no prompt, no editing, no history.
///
/// Reads standard input in blocks and keeps what it read, so a line already
/// in the buffer is returned without blocking (`bufferedLine`): a replayed
/// pipe of thousands of lines does not pay a thread hop per line.
public final class StdinLineReader: LineReader {
  private struct Buffer: ~Copyable {
    var bytes: [UInt8] = []
    var start = 0
    var atEnd = false

    /// The next complete line, or the rest at the end of input.
    mutating func take() -> LineInput? {
      if let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
        return line(upTo: newline, skipping: 1)
      }
      guard atEnd else { return nil }
      return start < bytes.count ? line(upTo: bytes.count, skipping: 0) : .endOfInput
    }

    private mutating func line(upTo end: Int, skipping: Int) -> LineInput {
      var last = end
      if last > start && bytes[last - 1] == UInt8(ascii: "\r") { last -= 1 }
      // Invalid UTF-8 becomes U+FFFD.
      let text = String(decoding: bytes[start..<last], as: UTF8.self)
      start = end + skipping
      if start > 65536 {
        bytes.removeFirst(start)
        start = 0
      }
      return .line(text)
    }

    mutating func fill(from descriptor: Int32) {
      var chunk = [UInt8](repeating: 0, count: 65536)
      while true {
        let count = Foundation.read(descriptor, &chunk, chunk.count)
        if count > 0 {
          bytes.append(contentsOf: chunk[0..<count])
          return
        }
        if count < 0 && errno == EINTR { continue }
        atEnd = true
        return
      }
    }
  }

  private let buffer = Mutex(Buffer())
  private let descriptor: Int32

  public init(descriptor: Int32 = STDIN_FILENO) {
    self.descriptor = descriptor
  }

  public func readLine(prompt: String) -> LineInput {
    buffer.withLock { buffer in
      while true {
        if let line = buffer.take() { return line }
        buffer.fill(from: descriptor)
      }
    }
  }

  public func bufferedLine() -> LineInput? {
    buffer.withLock { $0.take() }
  }

  public func setCompletions(_ words: [String]) {}

  public func interrupt() {}
}
