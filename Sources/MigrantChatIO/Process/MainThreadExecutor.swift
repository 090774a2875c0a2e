import Foundation

/// Runs an async operation, and every job of its task that prefers no other
/// executor, on the thread that calls `run`, which waits in between.
///
/// The chat's code is one task that mostly waits (for a line, for the bot), so it
/// needs no pool of threads: with Swift's async `main`, the first `await` of a
/// nonisolated function woke a worker of the global pool, and that worker's
/// registration libdispatch's manager thread, two threads and their hand-offs before
/// the first answer (0.3 to 0.7 ms of a 6 ms start, #50). Here the main thread runs
/// the task itself. Work that asks for another executor still goes there: an actor's
/// own executor (`ContactDirectory`'s queue), the HTTP I/O thread a transport prefers,
/// and unstructured tasks (`Task {}` does not inherit a task executor preference).
///
/// A job may block the thread (SQLite waiting for another process's lock): the task's
/// next jobs then wait too, as they did on the pool for that task. Jobs are run in
/// the order they are enqueued; the wait is a condition variable, no polling.
public final class MainThreadExecutor: TaskExecutor, @unchecked Sendable {
  // A pthread mutex and condition rather than Foundation's NSCondition, whose first
  // use set up Foundation's threading (190 page faults in a measured start).
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  // Guarded by `mutex`.
  private var jobs: [UnownedJob] = []
  private var finished = false

  private init() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  /// Runs `operation` to its end on this thread and returns what it returned; jobs of
  /// other tasks that prefer this executor and are still queued then are dropped.
  public static func run<Success: Sendable>(
    _ operation: sending @escaping () async -> Success
  ) -> Success {
    let executor = MainThreadExecutor()
    let result = ResultBox<Success>()
    Task(executorPreference: executor) {
      result.value = await operation()
      executor.finish()
    }
    executor.drain()
    guard let value = result.value else {
      preconditionFailure("MainThreadExecutor finished without a result")
    }
    return value
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    pthread_mutex_lock(mutex)
    jobs.append(job)
    pthread_cond_signal(condition)
    pthread_mutex_unlock(mutex)
  }

  private func finish() {
    pthread_mutex_lock(mutex)
    finished = true
    pthread_cond_signal(condition)
    pthread_mutex_unlock(mutex)
  }

  /// Runs jobs as they come until `finish`.
  private func drain() {
    let executor = asUnownedTaskExecutor()
    var batch: [UnownedJob] = []
    while true {
      pthread_mutex_lock(mutex)
      while jobs.isEmpty && !finished { pthread_cond_wait(condition, mutex) }
      if finished {
        pthread_mutex_unlock(mutex)
        return
      }
      swap(&batch, &jobs)
      pthread_mutex_unlock(mutex)
      for job in batch { job.runSynchronously(on: executor) }
      batch.removeAll(keepingCapacity: true)
    }
  }
}

/// The operation's result, written by its task before `finish` and read after it.
private final class ResultBox<Value>: @unchecked Sendable {
  var value: Value?
}
