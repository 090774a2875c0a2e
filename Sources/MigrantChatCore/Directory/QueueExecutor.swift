import Dispatch

/// A serial executor over a dispatch queue of its own, for an actor whose work
/// blocks (SQLite, which may wait for another process's lock): it then never runs
/// on whatever thread its caller prefers, such as the HTTP I/O thread.
final class QueueExecutor: SerialExecutor, @unchecked Sendable {
  private let queue: DispatchQueue

  init(label: String) {
    queue = DispatchQueue(label: label)
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedSerialExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}
