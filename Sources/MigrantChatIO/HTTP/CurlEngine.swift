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
final class CurlEngine: @unchecked Sendable {
  static let shared = CurlEngine()

  /// Transfers waiting to be added, and cancellations to act on.
  private struct Inbox: ~Copyable {
    var submitted: [CurlTransfer] = []
    var cancelled: [CurlTransfer] = []
    var started = false
  }

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
    guard let multi else {
      transfer.continuation?.resume(returning: .failure(.other(detail: "libcurl did not start")))
      return
    }
    let startThread = inbox.withLock { inbox in
      inbox.submitted.append(transfer)
      defer { inbox.started = true }
      return !inbox.started
    }
    if startThread {
      let thread = Thread { [self] in loop() }
      thread.name = "migrant-chat I/O"
      thread.start()
    } else {
      curl_multi_wakeup(multi)
    }
  }

  /// Stops `transfer` at once if it runs; one not yet added finds its flag set.
  func cancel(_ transfer: CurlTransfer) {
    guard let multi else { return }
    inbox.withLock { $0.cancelled.append(transfer) }
    curl_multi_wakeup(multi)
  }

  private func loop() {
    guard let multi else { return }
    var active: Int32 = 0
    while true {
      let (submitted, cancelled) = inbox.withLock { inbox in
        defer {
          inbox.submitted.removeAll(keepingCapacity: true)
          inbox.cancelled.removeAll(keepingCapacity: true)
        }
        return (inbox.submitted, inbox.cancelled)
      }
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
      // Sleeps until a socket is ready, curl's next timeout, or a wake-up from submit/cancel.
      _ = curl_multi_poll(multi, nil, 0, 60_000, nil)
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
