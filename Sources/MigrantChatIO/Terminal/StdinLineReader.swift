import Foundation
import Synchronization

/// Reads lines from a pipe or file: no prompt, no editing, no history. With
/// `prompts`, a terminal in its own line mode: the prompt is written, and the
/// terminal's line editing (Backspace, Ctrl-U, Ctrl-W) is all there is, which
/// redraws nothing (the accessible mode, `TERM=dumb`).
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
  private let prompts: Bool
  private let wakeRead: Int32
  private let wakeWrite: Int32

  public init(descriptor: Int32 = STDIN_FILENO, prompts: Bool = false) {
    self.descriptor = descriptor
    self.prompts = prompts
    let wake = WakePipe(nonBlockingRead: true)
    wakeRead = wake?.readEnd ?? -1
    wakeWrite = wake?.writeEnd ?? -1
  }

  /// The next line; `.interrupted` when `interrupt()` woke it (a termination signal).
  public func readLine(prompt: String) -> LineInput {
    buffer.withLock { buffer in
      if prompts, let line = buffer.take() { return line }
      if prompts { ConsoleOutput.write(prompt) }
      while true {
        if let line = buffer.take() { return line }
        guard waitForInput() else { return .interrupted(wasEmpty: true) }
        buffer.fill(from: descriptor)
      }
    }
  }

  /// Waits until the input has something (or has ended); false when woken instead.
  private func waitForInput() -> Bool {
    guard wakeRead >= 0 else { return true }
    while true {
      var descriptors = [
        pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&descriptors, 2, -1)
      if ready < 0 && errno == EINTR { continue }
      if ready < 0 { return true }  // let read() report the problem
      if descriptors[1].revents != 0 {
        var byte: UInt8 = 0
        while read(wakeRead, &byte, 1) > 0 {}
        return false
      }
      return true
    }
  }

  /// A line already read, or one the input holds now (a single read, after `poll`
  /// says it would not block): a chat in a pipe reads its lines, and the end of its
  /// input, on the thread that asks, without waking the input queue's (two of
  /// libdispatch's threads before a piped chat could exit, #50).
  public func bufferedLine() -> LineInput? {
    buffer.withLock { buffer in
      if let line = buffer.take() { return line }
      guard !buffer.atEnd, isReadable() else { return nil }
      buffer.fill(from: descriptor)
      return buffer.take()
    }
  }

  /// Whether a read of the input would return at once (bytes, or the end).
  private func isReadable() -> Bool {
    var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
    while true {
      let ready = poll(&descriptors, 1, 0)
      if ready < 0 && errno == EINTR { continue }
      return ready > 0
    }
  }

  public var completes: Bool { false }
  public func setCompletions(_ words: [String]) {}

  public func interrupt() {
    var byte: UInt8 = 1
    _ = write(wakeWrite, &byte, 1)
  }
}
