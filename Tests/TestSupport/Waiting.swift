import Foundation
import Synchronization

/// How long a test waits for a sign before it fails rather than hangs: ten minutes.
public let hangGuard: Double = 600

/// Waits for a sign from the program under test (a request it sent, a line it
/// printed, a file it wrote), never for a fixed time: a busy machine may start
/// the program seconds late. The limit only ends a test that would hang: it is long
/// (`hangGuard`), as a loaded machine's whole suite once took 700 s and a guard of 30 s
/// ran out under it.
///
/// Returns whether `condition` came true within `seconds`.
@discardableResult
public func waitUntil(seconds: Double = hangGuard, _ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while !condition() {
    if Date() > deadline { return false }
    usleep(5_000)
  }
  return true
}

/// A pipe read as it fills, so a test can wait for a line the program prints
/// while it runs and still have the whole output at the end.
public final class PipeCollector: Sendable {
  public let pipe = Pipe()
  private let data = Mutex(Data())
  private let ended = Atomic(false)

  public init() {
    let handle = pipe.fileHandleForReading
    let thread = Thread { [self] in
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        data.withLock { $0.append(chunk) }
      }
      ended.store(true, ordering: .releasing)
    }
    thread.start()
  }

  /// What has been read so far.
  public var text: String { String(decoding: data.withLock { $0 }, as: UTF8.self) }

  /// Waits until the output so far contains `needle`.
  @discardableResult
  public func wait(for needle: String, seconds: Double = hangGuard) -> Bool {
    waitUntil(seconds: seconds) { text.contains(needle) }
  }

  /// Everything, once the writer has closed its end (the process ended).
  public func all(seconds: Double = hangGuard) -> String {
    waitUntil(seconds: seconds) { ended.load(ordering: .acquiring) }
    return text
  }
}

/// Whether process `pid` has a handler for `signal` (`SigCgt` in `/proc/PID/status`):
/// the sign that a Ctrl-C sent now is heard rather than ending it.
public func catchesSignal(_ pid: Int32, _ signal: Int32) -> Bool {
  guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
    let mask = UInt64(
      line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
  else { return false }
  return mask & (1 << UInt64(signal - 1)) != 0
}
