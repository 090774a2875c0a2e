import Foundation
import MigrantChatCore
import Synchronization

/// The conversation written as a transcript: `/save FILE` once, `--record FILE`
/// after every turn. Files that could not be written fail the run.
final class ChatRecorder: Sendable {
  private let session: ChatSession
  private let recordPath: String?
  private let failures = Mutex(Failures())

  private struct Failures {
    var count = 0
    var lastRecordError: String?
  }

  init(session: ChatSession, recordPath: String?) {
    self.session = session
    self.recordPath = recordPath
  }

  /// Transcripts that could not be written.
  var failureCount: Int { failures.withLock { $0.count } }

  /// `/save FILE`: what to tell the user.
  func save(to path: String) async -> ChatEvent {
    do {
      let count = try await write(to: path)
      return .notice(.transcriptSaved(path: path, turns: count))
    } catch {
      failures.withLock { $0.count += 1 }
      return .transcriptNotSaved(path: path, detail: error.description)
    }
  }

  /// `--record`: the whole conversation again. A failure counts against the exit
  /// status; it is returned (to be shown) when it first happens or changes, not
  /// after every turn.
  func record() async -> ChatEvent? {
    guard let path = recordPath else { return nil }
    do {
      _ = try await write(to: path)
      failures.withLock { $0.lastRecordError = nil }
      return nil
    } catch {
      let detail = error.description
      let isNew = failures.withLock { failures in
        failures.count += 1
        defer { failures.lastRecordError = detail }
        return failures.lastRecordError != detail
      }
      return isNew ? .transcriptNotSaved(path: path, detail: detail) : nil
    }
  }

  /// The start message and its answer, then every recorded turn.
  private func write(to path: String) async throws(TranscriptWriter.Failure) -> Int {
    let turns = await session.log
    var start: RecordedTurn?
    if let opening = await session.startReply {
      start = RecordedTurn(line: await session.opening, messages: opening)
    }
    try TranscriptWriter.write(
      name: Self.transcriptName(), language: session.openingLanguage, start: start, turns: turns,
      to: path)
    return turns.count + (start == nil ? 0 : 1)
  }

  private static func transcriptName() -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return "Recorded " + formatter.string(from: Date())
  }
}
