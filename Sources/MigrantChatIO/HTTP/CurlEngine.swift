internal import CCurl
internal import CCurlLoader
import Foundation
import Synchronization

/// The process's one libcurl multi handle and the one thread that drives it.
///
/// Callers hand a `CurlTransfer` to `submit` from any thread; the I/O thread
/// adds it to the multi handle and resumes the caller's continuation when curl
/// reports it done. The thread waits in `epoll_wait` on the sockets curl asks
/// it to watch (`CURLMOPT_SOCKETFUNCTION`), on curl's next timeout
/// (`CURLMOPT_TIMERFUNCTION`) and on an eventfd that `submit` writes, and tells
/// curl only about the sockets that are ready (`curl_multi_socket_action`):
/// ten thousand requests in flight cost ten thousand easy handles and sockets,
/// not ten thousand threads, and no pass over every socket per wake-up.
/// Connections are kept per lane (a cache each, see `laneCount`) and reused per
/// host by the clients of that lane. The thread starts with the first
/// transfer: a process that never goes online never starts it.
///
/// The engine is also a `TaskExecutor`: a task that prefers it (the chat and
/// `replay` against a server, see `HTTPExecutor`) runs its code on the I/O
/// thread between waits, so a turn's request goes out and its answer comes
/// back without waking another thread.
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

  /// nil when libcurl or epoll could not start; every transfer then fails with that.
  private let multi: UnsafeMutableRawPointer?
  private let epoll: Int32
  /// Written to wake the I/O thread; watched by epoll.
  private let wakeFD: Int32
  private let inbox = Mutex(Inbox())
  /// The I/O thread, once started: what it adds to the inbox needs no wake-up.
  private let ioThread = Mutex<pthread_t?>(nil)

  // Touched by the I/O thread only (curl calls the callbacks from within
  // curl_multi_add_handle and curl_multi_socket_action, which run there).
  /// What runs, keyed by easy handle, and handles kept for reuse.
  private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]
  private var spare: [UnsafeMutableRawPointer] = []
  private static let spareLimit = 1_024
  /// Connection caches, one per lane: each client takes a lane (`takeLane`), and
  /// its transfers look for an idle connection among that lane's only. libcurl
  /// 7.88 finds a connection to reuse by walking every connection to the host,
  /// so ten thousand conversations in one cache made each request walk ten
  /// thousand (4,800 turns per CPU second at 10,000 in flight against 14,500 at
  /// 100); a lane holds about a 64th of them (clients take lanes in turn, and
  /// a lane keeps as many idle connections as it once needed). Made on first use.
  static let laneCount = 64
  private var laneCaches: [UnsafeMutableRawPointer?] = Array(repeating: nil, count: laneCount)
  private let nextLane = Atomic<Int>(0)
  /// The sockets epoll watches for curl.
  fileprivate var watched: Set<Int32> = []
  /// When curl wants `CURL_SOCKET_TIMEOUT`, in monotonic nanoseconds; nil: no timer.
  fileprivate var timerDeadline: UInt64?

  private init() {
    epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
    // curl_global_init must run once, before any other libcurl call.
    guard epoll >= 0, wakeFD >= 0, mc_epoll_watch(epoll, wakeFD, 1, 0, 1) == 0,
      curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK, let multi = curl_multi_init()
    else {
      multi = nil
      return
    }
    self.multi = multi
    // Keep idle connections for as many hosts and transfers as run at once.
    _ = mc_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, 10_000)
    // Unretained: the engine lives as long as the process.
    let context = Unmanaged.passUnretained(self).toOpaque()
    _ = mc_curl_multi_setopt_socket_function(multi, curlSocketChanged)
    _ = mc_curl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, context)
    _ = mc_curl_multi_setopt_timer_function(multi, curlTimerChanged)
    _ = mc_curl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, context)
  }

  /// A lane for a new client, in turn: the chat's transport, a conversation of
  /// `replay`, the data API each get their own.
  func takeLane() -> Int {
    nextLane.add(1, ordering: .relaxed).oldValue % Self.laneCount
  }

  /// Why a transfer could not start: libcurl is opened on first use (CCurlLoader),
  /// and when it is missing or broken, dlopen says why.
  private static var notStarted: HTTPFailure {
    mc_curl_load_error().map { .libcurlMissing(detail: String(cString: $0)) }
      ?? .other(detail: "libcurl did not start")
  }

  func submit(_ transfer: CurlTransfer) {
    guard multi != nil else {
      transfer.continuation?.resume(returning: .failure(Self.notStarted))
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
  /// it unless this is the I/O thread (which looks at the inbox before waiting).
  private func deliver(_ put: (inout Inbox) -> Void) {
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
      var one: UInt64 = 1
      _ = write(wakeFD, &one, 8)
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
    var fds = [Int32](repeating: 0, count: 256)
    var masks = [Int32](repeating: 0, count: 256)
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
      // Work the jobs just run added comes first; else wait for a socket, curl's
      // timer or a wake-up.
      let timeout: Int32
      if !inbox.withLock({ $0.isEmpty }) {
        timeout = 0
      } else if let deadline = timerDeadline {
        let now = DispatchTime.now().uptimeNanoseconds
        timeout = deadline <= now ? 0 : Int32(min((deadline - now + 999_999) / 1_000_000, 60_000))
      } else {
        timeout = 60_000
      }
      let ready = mc_epoll_wait(epoll, &fds, &masks, 256, timeout)
      for index in 0..<max(Int(ready), 0) {
        if fds[index] == wakeFD {
          var count: UInt64 = 0
          _ = read(wakeFD, &count, 8)
        } else {
          _ = curl_multi_socket_action(multi, fds[index], masks[index], &active)
        }
      }
      if let deadline = timerDeadline, deadline <= DispatchTime.now().uptimeNanoseconds {
        timerDeadline = nil
        _ = curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &active)
      }
      var easy: UnsafeMutableRawPointer?
      var code = CURLE_OK
      while mc_curl_multi_next_done(multi, &easy, &code) == 1, let done = easy {
        if let transfer = running[done] { finish(done, transfer.outcome(code, done), on: multi) }
      }
    }
  }

  private func start(_ transfer: CurlTransfer, on multi: UnsafeMutableRawPointer) {
    if transfer.cancelled.load(ordering: .relaxed) {
      transfer.continuation?.resume(returning: .failure(.cancelled))
      return
    }
    guard let easy = spare.popLast() ?? curl_easy_init() else {
      transfer.continuation?.resume(returning: .failure(Self.notStarted))
      return
    }
    if let failed = transfer.configure(easy) {
      recycle(easy)
      transfer.continuation?.resume(
        returning: .failure(.other(detail: String(cString: curl_easy_strerror(failed)))))
      return
    }
    if laneCaches[transfer.lane] == nil { laneCaches[transfer.lane] = mc_curl_share_connections() }
    // Without a lane's cache (curl refused one), the multi handle's is used: a
    // recycled handle keeps its last share through curl_easy_reset, so it is cleared.
    if mc_curl_setopt_pointer(easy, CURLOPT_SHARE, laneCaches[transfer.lane]) != CURLE_OK {
      recycle(easy)
      transfer.continuation?.resume(
        returning: .failure(.other(detail: "libcurl refused the share")))
      return
    }
    // Added before curl can call back for it (add_handle sets a timer only).
    transfer.easy = easy
    running[easy] = transfer
    guard curl_multi_add_handle(multi, easy) == CURLM_OK else {
      running[easy] = nil
      transfer.easy = nil
      recycle(easy)
      transfer.continuation?.resume(
        returning: .failure(.other(detail: "libcurl refused the transfer")))
      return
    }
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

  /// curl's socket callback: watch `socket` as curl asks (`CURL_POLL_*`).
  fileprivate func socketChanged(_ socket: Int32, _ what: Int32) {
    if what == CURL_POLL_REMOVE {
      if watched.remove(socket) != nil { _ = mc_epoll_forget(epoll, socket) }
      return
    }
    let reading: Int32 = what == CURL_POLL_IN || what == CURL_POLL_INOUT ? 1 : 0
    let writing: Int32 = what == CURL_POLL_OUT || what == CURL_POLL_INOUT ? 1 : 0
    let isNew = watched.insert(socket).inserted
    if mc_epoll_watch(epoll, socket, reading, writing, isNew ? 1 : 0) != 0 {
      // The number was closed and reused since epoll last saw it: the other way round.
      _ = mc_epoll_watch(epoll, socket, reading, writing, isNew ? 0 : 1)
    }
  }
}

private let curlSocketChanged: mc_curl_socket_callback = { _, socket, what, context, _ in
  guard let context else { return 0 }
  Unmanaged<CurlEngine>.fromOpaque(context).takeUnretainedValue().socketChanged(socket, what)
  return 0
}

/// curl's timer callback: -1 removes the timer, else call back in `milliseconds`.
private let curlTimerChanged: mc_curl_timer_callback = { _, milliseconds, context in
  guard let context else { return 0 }
  let engine = Unmanaged<CurlEngine>.fromOpaque(context).takeUnretainedValue()
  engine.timerDeadline =
    milliseconds < 0
    ? nil : DispatchTime.now().uptimeNanoseconds + UInt64(milliseconds) * 1_000_000
  return 0
}

/// The executor of the process's HTTP I/O thread, for code that spends its
/// time waiting on HTTP (the chat with a server, `replay`): tasks that prefer
/// it run between the thread's waits and need no thread hop per request.
public enum HTTPExecutor {
  public static var shared: any TaskExecutor { CurlEngine.shared }
}

/// libcurl loaded ahead of the first request (see `mc_curl_preload`).
public enum LibcurlPreload {
  /// Starts loading libcurl on a thread of its own; returns at once.
  public static func start() { mc_curl_preload() }
}
