internal import CCurl
import Foundation
import Synchronization

/// The process's one libcurl multi handle and the one thread that drives it.
///
/// Callers hand a `CurlTransfer` to `submit` from any thread; the I/O thread
/// adds it to the multi handle, runs every transfer in flight with
/// `curl_multi_perform` and `curl_multi_poll`, and resumes the caller's
/// continuation when curl reports the transfer done. So ten thousand requests
/// in flight cost ten thousand easy handles and sockets, not ten thousand
/// threads, and the multi handle's connection cache reuses a connection per
/// host for every client of the process. The thread starts with the first
/// transfer: a process that never goes online never starts it.
///
/// The engine is also a `TaskExecutor`: a task that prefers it (the chat, see
/// `HTTPExecutor`) runs its code on the I/O thread between polls, so a turn's
/// request goes out and its answer comes back without waking another thread.
final class CurlEngine: TaskExecutor, @unchecked Sendable {
  static let shared = CurlEngine()

  /// Transfers waiting to be added, cancellations to act on, and task jobs to run.
  private struct Inbox: ~Copyable {
    var submitted: [CurlTransfer] = []
    var cancelled: [CurlTransfer] = []
    var jobs: [UnownedJob] = []
    var started = false

    var isEmpty: Bool { submitted.isEmpty && cancelled.isEmpty && jobs.isEmpty }
  }

  /// The I/O thread, once started: what it adds to the inbox needs no wake-up.
  private let ioThread = Mutex<pthread_t?>(nil)

  /// nil when libcurl could not start; every transfer then fails with that.
  private let multi: UnsafeMutableRawPointer?
  private let inbox = Mutex(Inbox())
  /// Touched by the I/O thread only: what runs, keyed by easy handle, and
  /// handles kept for reuse.
  private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]
  private var spare: [UnsafeMutableRawPointer] = []
  private static let spareLimit = 1_024

  private init() {
    // curl_global_init must run once, before any other libcurl call.
    if curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK {
      multi = curl_multi_init()
    } else {
      multi = nil
    }
    if let multi {
      // Keep idle connections for as many hosts and transfers as run at once.
      _ = mc_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, 10_000)
    }
  }

  func submit(_ transfer: CurlTransfer) {
    guard multi != nil else {
      transfer.continuation?.resume(returning: .failure(.other(detail: "libcurl did not start")))
      return
    }
    deliver { $0.submitted.append(transfer) }
  }

  /// Stops `transfer` at once if it runs; one not yet added finds its flag set.
  func cancel(_ transfer: CurlTransfer) {
    guard multi != nil else { return }
    deliver { $0.cancelled.append(transfer) }
  }

  func enqueue(_ job: consuming ExecutorJob) {
    guard multi != nil else {
      // Without libcurl there is no loop to run jobs: the global pool runs them.
      globalConcurrentExecutor.enqueue(job)
      return
    }
    let job = UnownedJob(job)
    deliver { $0.jobs.append(job) }
  }

  /// Puts work in the inbox, starting the I/O thread the first time, and wakes
  /// it unless this is the I/O thread (which looks at the inbox before polling).
  private func deliver(_ put: (inout Inbox) -> Void) {
    guard let multi else { return }
    let startThread = inbox.withLock { inbox in
      put(&inbox)
      defer { inbox.started = true }
      return !inbox.started
    }
    if startThread {
      let thread = Thread { [self] in loop() }
      thread.name = "migrant-chat I/O"
      thread.start()
    } else if !isIOThread {
      curl_multi_wakeup(multi)
    }
  }

  private var isIOThread: Bool {
    let current = pthread_self()
    return ioThread.withLock { $0.map { pthread_equal($0, current) != 0 } ?? false }
  }

  private func loop() {
    guard let multi else { return }
    ioThread.withLock { $0 = pthread_self() }
    let executor = asUnownedTaskExecutor()
    var active: Int32 = 0
    while true {
      let (submitted, cancelled, jobs) = inbox.withLock { inbox in
        defer {
          inbox.submitted.removeAll(keepingCapacity: true)
          inbox.cancelled.removeAll(keepingCapacity: true)
          inbox.jobs.removeAll(keepingCapacity: true)
        }
        return (inbox.submitted, inbox.cancelled, inbox.jobs)
      }
      for job in jobs { job.runSynchronously(on: executor) }
      for transfer in submitted { start(transfer, on: multi) }
      for transfer in cancelled {
        if let easy = transfer.easy, running[easy] === transfer {
          finish(easy, .failure(.cancelled), on: multi)
        }
      }
      _ = curl_multi_perform(multi, &active)
      var easy: UnsafeMutableRawPointer?
      var code = CURLE_OK
      while mc_curl_multi_next_done(multi, &easy, &code) == 1, let done = easy {
        if let transfer = running[done] { finish(done, transfer.outcome(code, done), on: multi) }
      }
      // Work the jobs just run (or the answers just resumed) added is done first;
      // else sleep until a socket is ready, curl's next timeout, or a wake-up.
      if inbox.withLock({ $0.isEmpty }) { _ = curl_multi_poll(multi, nil, 0, 60_000, nil) }
    }
  }

  private func start(_ transfer: CurlTransfer, on multi: UnsafeMutableRawPointer) {
    if transfer.cancelled.load(ordering: .relaxed) {
      transfer.continuation?.resume(returning: .failure(.cancelled))
      return
    }
    guard let easy = spare.popLast() ?? curl_easy_init() else {
      transfer.continuation?.resume(returning: .failure(.other(detail: "libcurl did not start")))
      return
    }
    if let failed = transfer.configure(easy) {
      recycle(easy)
      transfer.continuation?.resume(
        returning: .failure(.other(detail: String(cString: curl_easy_strerror(failed)))))
      return
    }
    guard curl_multi_add_handle(multi, easy) == CURLM_OK else {
      recycle(easy)
      transfer.continuation?.resume(
        returning: .failure(.other(detail: "libcurl refused the transfer")))
      return
    }
    transfer.easy = easy
    running[easy] = transfer
  }

  private func finish(
    _ easy: UnsafeMutableRawPointer, _ outcome: Result<HTTPResponse, HTTPFailure>,
    on multi: UnsafeMutableRawPointer
  ) {
    guard let transfer = running.removeValue(forKey: easy) else { return }
    _ = curl_multi_remove_handle(multi, easy)
    transfer.easy = nil
    recycle(easy)
    transfer.continuation?.resume(returning: outcome)
    transfer.continuation = nil
  }

  /// Clears the handle's options (curl keeps no pointer into the finished
  /// transfer after a reset) and keeps it for the next transfer.
  private func recycle(_ easy: UnsafeMutableRawPointer) {
    curl_easy_reset(easy)
    if spare.count < Self.spareLimit {
      spare.append(easy)
    } else {
      curl_easy_cleanup(easy)
    }
  }
}

/// The executor of the process's HTTP I/O thread, for code that spends its
/// time waiting on HTTP (the chat with a server): tasks that prefer it run
/// between the thread's polls and need no thread hop per request.
public enum HTTPExecutor {
  public static var shared: any TaskExecutor { CurlEngine.shared }
}
