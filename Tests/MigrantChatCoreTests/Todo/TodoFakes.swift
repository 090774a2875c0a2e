import Foundation
import Synchronization

@testable import MigrantChatCore

/// The to-do list in memory, with the SQLite store's rules (steps not saved twice).
final class MemoryTodoStore: TodoStore {
  private let state = Mutex<(tasks: [TodoTask], next: Int64)>(([], 1))
  /// Every call fails with this, to test a full disk or a broken database.
  let failure = Mutex<DirectoryError?>(nil)

  func tasks() throws(DirectoryError) -> [TodoTask] {
    IOProbe.note("tasks")
    if let error = failure.withLock({ $0 }) { throw error }
    return state.withLock { $0.tasks }
  }

  func task(id: Int64) throws(DirectoryError) -> TodoTask? {
    try tasks().first { $0.id == id }
  }

  func add(_ drafts: [TodoDraft], now: Date) throws(DirectoryError) -> [TodoTask] {
    IOProbe.note("add tasks")
    if let error = failure.withLock({ $0 }) { throw error }
    return state.withLock { state in
      var added: [TodoTask] = []
      for draft in drafts {
        if let step = draft.stepID, state.tasks.contains(where: { $0.stepID == step && !$0.isDone })
        {
          continue
        }
        let task = TodoTask(id: state.next, draft: draft, createdAt: now, updatedAt: now)
        state.next += 1
        state.tasks.append(task)
        added.append(task)
      }
      return added
    }
  }

  func update(id: Int64, _ change: TodoChange, now: Date) throws(DirectoryError) -> TodoTask? {
    state.withLock { state in
      guard let index = state.tasks.firstIndex(where: { $0.id == id }) else { return nil }
      if let title = change.title { state.tasks[index].title = title }
      if let due = change.due { state.tasks[index].due = due }
      if let place = change.place { state.tasks[index].place = place }
      return state.tasks[index]
    }
  }

  func setDone(id: Int64, _ done: Bool, now: Date) throws(DirectoryError) -> TodoTask? {
    state.withLock { state in
      guard let index = state.tasks.firstIndex(where: { $0.id == id }) else { return nil }
      state.tasks[index].completedAt = done ? (state.tasks[index].completedAt ?? now) : nil
      return state.tasks[index]
    }
  }

  func remove(id: Int64) throws(DirectoryError) -> Bool {
    state.withLock { state in
      let before = state.tasks.count
      state.tasks.removeAll { $0.id == id }
      return state.tasks.count < before
    }
  }
}

/// A report queue in memory; `failure` makes `enqueue` fail (a full disk).
final class MemoryReportQueue: ReportQueue {
  let reports = Mutex<[PendingReport]>([])
  let failure = Mutex<DirectoryError?>(nil)
  private let next = Mutex<Int64>(1)

  /// Who holds each report, and since when.
  let claims = Mutex<[Int64: (String, Date)]>([:])

  func enqueue(itemID: Int64, text: String, now: Date, claimedBy: String?) throws(DirectoryError)
    -> PendingReport
  {
    IOProbe.note("enqueue report")
    if let error = failure.withLock({ $0 }) { throw error }
    let id = next.withLock { value in
      defer { value += 1 }
      return value
    }
    let report = PendingReport(id: id, itemID: itemID, text: text, createdAt: now)
    reports.withLock { $0.append(report) }
    if let claimedBy { claims.withLock { $0[id] = (claimedBy, now) } }
    return report
  }

  func claim(id: Int64, by claimer: String, now: Date, staleAfter: TimeInterval)
    throws(DirectoryError) -> Bool
  {
    claims.withLock { claims in
      if let (_, since) = claims[id], abs(now.timeIntervalSince(since)) < staleAfter {
        return false
      }
      claims[id] = (claimer, now)
      return true
    }
  }

  func pending() throws(DirectoryError) -> [PendingReport] {
    IOProbe.note("pending reports")
    return reports.withLock { $0 }
  }

  func markFailed(id: Int64, error: String, refused: Bool) throws(DirectoryError) {
    reports.withLock { reports in
      for index in reports.indices where reports[index].id == id {
        reports[index].attempts += 1
        reports[index].lastError = error
        reports[index].refused = refused
      }
    }
    _ = claims.withLock { $0.removeValue(forKey: id) }
  }

  func remove(id: Int64) throws(DirectoryError) -> Bool {
    reports.withLock { reports in
      let before = reports.count
      reports.removeAll { $0.id == id }
      return reports.count < before
    }
  }
}

/// A data API for reports whose answers the test scripts, one per post, the last repeated.
final class ScriptedReportAPI: ReportAPI {
  enum Answer: Sendable {
    case status(Int)
    case down
  }

  let baseURL = "http://api.test"
  let answers: Mutex<[Answer]>
  let posted = Mutex<[String]>([])
  let delay: Duration

  init(_ answers: [Answer], delay: Duration = .zero) {
    self.answers = Mutex(answers)
    self.delay = delay
  }

  func post(_ path: String, json body: Data) async throws(DataAPIError) -> (
    status: Int, firstLine: String
  ) {
    posted.withLock { $0.append(String(decoding: body, as: UTF8.self)) }
    if delay > .zero { try? await Task.sleep(for: delay) }
    let answer = answers.withLock { answers in
      answers.count > 1 ? answers.removeFirst() : answers.first ?? .down
    }
    switch answer {
    case .status(let status): return (status, status == 201 ? "" : "bad request")
    case .down: throw .unreachable(server: baseURL, reason: .connectionRefused)
    }
  }
}

/// A day written `YYYY-MM-DD`, for tests (a typo gives 1970-01-01, which no test expects).
func day(_ iso: String) -> DayDate {
  DayDate(iso: iso) ?? DayDate(Date(timeIntervalSince1970: 0), timeZone: .gmt)
}

/// A stand-in for the HTTP I/O thread: a task executor on a queue of its own, and a
/// record of store calls that ran there (they must not: SQLite may wait for a lock).
enum IOProbe {
  static let key = DispatchSpecificKey<Bool>()
  static let hits = Mutex<[String]>([])

  static func note(_ what: String) {
    if DispatchQueue.getSpecific(key: key) == true { hits.withLock { $0.append(what) } }
  }

  final class Executor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "io-probe")

    init() { queue.setSpecific(key: IOProbe.key, value: true) }

    func enqueue(_ job: consuming ExecutorJob) {
      let job = UnownedJob(job)
      let executor = asUnownedTaskExecutor()
      queue.async { job.runSynchronously(on: executor) }
    }
  }
}
