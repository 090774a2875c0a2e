import Foundation
import MigrantChatCore
import Synchronization

/// Reports from `POST /faq/reports/`, one JSON object a line, appended.
///
/// `$XDG_STATE_HOME/migrant-chat/reports.jsonl`, mode 0600. Each report is one
/// `write` to a file opened with `O_APPEND`, so a crash never leaves half a line
/// in the middle of the file. Numbers are unique across processes: each report
/// is numbered and written under an exclusive lock (`reports.jsonl.lock`), after
/// the last line's number, read from the end of the file; start-up reads nothing.
/// Past `maxBytes` the file is renamed to `reports.jsonl.1` (an older one is
/// replaced) and a new one begins, numbering on.
public final class ReportFile: ReportSink {
  public let path: String
  public let maxBytes: Int
  /// Within this process the lock is taken in turn (flock is per open file).
  private let turn = Mutex(())

  /// 64 MiB: about 100,000 reports of a few lines each.
  public static let defaultMaxBytes = 64 << 20

  public init(path: String, maxBytes: Int = ReportFile.defaultMaxBytes) {
    self.path = path
    self.maxBytes = maxBytes
  }

  public var rotatedPath: String { path + ".1" }

  public func record(itemID: Int64, description: String) throws -> Int {
    try turn.withLock { _ in
      try AtomicFile.makeDirectory((path as NSString).deletingLastPathComponent)
      let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
      guard lock >= 0 else { throw Failure.cannotWrite(path: path + ".lock") }
      defer { close(lock) }
      guard flock(lock, LOCK_EX) == 0 else { throw Failure.cannotWrite(path: path + ".lock") }
      defer { flock(lock, LOCK_UN) }
      var info = stat()
      if stat(path, &info) == 0, Int(info.st_size) > maxBytes {
        guard rename(path, rotatedPath) == 0 else { throw Failure.cannotWrite(path: rotatedPath) }
      }
      let last = Self.lastNumber(in: path) ?? Self.lastNumber(in: rotatedPath) ?? 0
      let number = last + 1
      let line =
        JSONValue.object([
          "id": .number(Double(number)), "itemId": .number(Double(itemID)),
          "description": .string(description),
          "time": .string(ISO8601DateFormatter().string(from: Date())),
        ]).compactText + "\n"
      // The descriptor is ours and closed below.
      let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { throw Failure.cannotWrite(path: path) }
      defer { close(descriptor) }
      // A line cut short (a crash, a full disk, a hand edit) is ended first, so the
      // new report is a line of its own and is found as the last one next time.
      var bytes = Array(line.utf8)
      if !Self.endsWithNewline(path) { bytes.insert(UInt8(ascii: "\n"), at: 0) }
      guard write(descriptor, bytes, bytes.count) == bytes.count else {
        throw Failure.cannotWrite(path: path)
      }
      return number
    }
  }

  /// Whether the file is empty, missing, or ends with a line break.
  static func endsWithNewline(_ path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return true }
    defer { try? handle.close() }
    guard let size = try? handle.seekToEnd(), size > 0,
      (try? handle.seek(toOffset: size - 1)) != nil,
      let last = try? handle.read(upToCount: 1)
    else { return true }
    return last == Data([UInt8(ascii: "\n")])
  }

  /// The highest report number near the file's end (a line is at most a
  /// few tens of KiB: a 4 KiB description, escaped); nil for no file or no report.
  static func lastNumber(in path: String) -> Int? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let size = try? handle.seekToEnd(), size > 0 else { return nil }
    let window: UInt64 = 256 * 1024
    let start = size > window ? size - window : 0
    guard (try? handle.seek(toOffset: start)) != nil,
      let tail = try? handle.readToEnd()
    else { return nil }
    // The first line of a window that starts mid-file may be cut: not trusted.
    var lines = tail.split(separator: UInt8(ascii: "\n"))
    if start > 0, !lines.isEmpty { lines.removeFirst() }
    // The highest, not the last: a hand-edited or damaged end never makes numbers go back.
    var highest: Int?
    for line in lines {
      if case .number(let number)? = (try? JSONParser.parse(Data(line)))?["id"],
        number >= 0, number < 1e15, number == number.rounded()
      {
        highest = max(highest ?? 0, Int(number))
      }
    }
    return highest
  }

  public enum Failure: Error { case cannotWrite(path: String) }
}
