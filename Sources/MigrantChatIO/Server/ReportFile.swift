import Foundation
import MigrantChatCore
import Synchronization

/// Reports from `POST /faq/reports/`, one JSON object a line, appended.
///
/// `$XDG_STATE_HOME/migrant-chat/reports.jsonl`, mode 0600. Each report is one
/// `write` to a file opened with `O_APPEND`, so a crash never leaves half a line
/// in the middle of the file.
public final class ReportFile: ReportSink {
  public let path: String
  private let count: Mutex<Int>

  public init(path: String) {
    self.path = path
    let existing =
      (try? String(contentsOfFile: path, encoding: .utf8))?
      .split(separator: "\n").count ?? 0
    count = Mutex(existing)
  }

  public func record(itemID: Int64, description: String) throws -> Int {
    try count.withLock { count in
      let number = count + 1
      let line =
        JSONValue.object([
          "id": .number(Double(number)), "itemId": .number(Double(itemID)),
          "description": .string(description),
          "time": .string(ISO8601DateFormatter().string(from: Date())),
        ]).compactText + "\n"
      try AtomicFile.makeDirectory((path as NSString).deletingLastPathComponent)
      // The descriptor is ours and closed below.
      let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { throw Failure.cannotWrite(path: path) }
      defer { close(descriptor) }
      let bytes = Array(line.utf8)
      guard write(descriptor, bytes, bytes.count) == bytes.count else {
        throw Failure.cannotWrite(path: path)
      }
      count = number
      return number
    }
  }

  public enum Failure: Error { case cannotWrite(path: String) }
}
