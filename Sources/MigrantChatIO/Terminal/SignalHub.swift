import Foundation
import Synchronization

/// Every signal the program handles, through one self-pipe and one thread.
///
/// The handler does only what is async-signal-safe: it saves `errno`, writes
/// the signal's number to a non-blocking, close-on-exec pipe, and puts `errno`
/// back. One thread reads the pipe and calls what the program set:
///
/// - SIGINT: `onInterrupt` (cancel the request in flight, clear the line being
///   typed). With no such action set, SIGINT terminates like SIGTERM.
/// - SIGTERM, SIGHUP: the signal is recorded (`terminationSignal`) and
///   `onTerminate` wakes the main loop, which leaves its loop, lets readline
///   put the terminal back (`rl_deprep_terminal`: modes and bracketed paste)
///   and exits with 128 + n. Nothing here calls `exit()`, which would run
///   while other threads are inside SQLite or readline.
/// - SIGWINCH: `onResize` (the chat re-reads its width; readline its size).
///
/// A watchdog is the one exception: if the main loop has not exited
/// `gracePeriod` after a termination signal (a blocking call that cannot be
/// woken), or a second one arrives, the terminal is restored from the state
/// saved at start and the process ends with `_exit(128 + n)`.
public final class SignalHub: Sendable {
  public static let shared = SignalHub()

  /// Three seconds; `MIGRANT_CHAT_GRACE_SECONDS` (1 to 3600) sets another, so that a
  /// test on a loaded machine can tell the main loop's exit from the watchdog's.
  public static let gracePeriod: Duration = {
    if let text = getenv("MIGRANT_CHAT_GRACE_SECONDS").map({ String(cString: $0) }),
      let seconds = Int(text), (1...3600).contains(seconds)
    {
      return .seconds(seconds)
    }
    return .seconds(3)
  }()

  private struct State {
    var interrupt: (@Sendable () -> Void)?
    var terminate: (@Sendable () -> Void)?
    var resize: (@Sendable () -> Void)?
    var terminating: Int32?
    var handled: Set<Int32> = []
  }

  private let state = Mutex(State())

  private init() {
    guard let wake = WakePipe(nonBlockingRead: false) else { return }
    hubPipeWrite = wake.writeEnd
    if isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &savedTerminal) == 0 {
      hasSavedTerminal = true
    }
    let readEnd = wake.readEnd
    let thread = Thread { [self] in
      // The signals reach this thread even when the process started with them blocked
      // (a parent's mask is inherited: a test runner's worker thread blocks them). The
      // main thread no longer sits in libdispatch's `sigsuspend`, which took them with
      // an empty mask while an async `main` ran on the pool (#50).
      var handled = sigset_t()
      sigemptyset(&handled)
      for number in [SIGINT, SIGTERM, SIGHUP, SIGWINCH] { sigaddset(&handled, number) }
      pthread_sigmask(SIG_UNBLOCK, &handled, nil)
      var number: UInt8 = 0
      while true {
        let count = read(readEnd, &number, 1)
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { return }
        dispatch(Int32(number))
      }
    }
    thread.name = "migrant-chat.signals"
    thread.start()
  }

  /// For every command: a write to a closed pipe is an error (`EPIPE`), not a fatal signal.
  public static func ignoreBrokenPipes() {
    signal(SIGPIPE, SIG_IGN)
  }

  /// Routes `signals` through the hub from now on (SIGINT, SIGTERM, SIGHUP, SIGWINCH).
  public func handle(_ signals: [Int32]) {
    for number in signals {
      let isNew = state.withLock { $0.handled.insert(number).inserted }
      guard isNew else { continue }
      var action = sigaction()
      action.__sigaction_handler.sa_handler = hubSignalHandler
      sigemptyset(&action.sa_mask)
      action.sa_flags = SA_RESTART
      sigaction(number, &action, nil)
    }
  }

  /// What Ctrl-C does from now on; nil makes it terminate.
  public func onInterrupt(_ action: (@Sendable () -> Void)?) {
    state.withLock { $0.interrupt = action }
  }

  /// How to wake the main loop when a termination signal arrives.
  public func onTerminate(_ action: (@Sendable () -> Void)?) {
    state.withLock { $0.terminate = action }
  }

  public func onResize(_ action: (@Sendable () -> Void)?) {
    state.withLock { $0.resize = action }
  }

  /// The termination signal received, if any: the main loop leaves and exits with 128 + it.
  public var terminationSignal: Int32? {
    state.withLock { $0.terminating }
  }

  /// Puts the terminal back as it was at start: modes, and bracketed paste off.
  public func restoreTerminal() {
    guard hasSavedTerminal else { return }
    tcsetattr(STDIN_FILENO, TCSANOW, &savedTerminal)
    guard isatty(STDOUT_FILENO) == 1 else { return }
    let reset = "\u{1B}[?2004l"
    _ = reset.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
  }

  private func dispatch(_ number: Int32) {
    let action: (@Sendable () -> Void)?
    switch number {
    case SIGWINCH:
      action = state.withLock { $0.resize }
    case SIGINT where state.withLock({ $0.interrupt != nil && $0.terminating == nil }):
      action = state.withLock { $0.interrupt }
    default:
      let (first, wake) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
        defer { if state.terminating == nil { state.terminating = number } }
        return (state.terminating == nil, state.terminate)
      }
      guard first else { forceExit(number) }
      startWatchdog(number)
      action = wake
    }
    action?()
  }

  private func startWatchdog(_ number: Int32) {
    let thread = Thread { [self] in
      Thread.sleep(forTimeInterval: Double(Self.gracePeriod.components.seconds))
      forceExit(number)
    }
    thread.start()
  }

  private func forceExit(_ number: Int32) -> Never {
    restoreTerminal()
    _exit(128 + number)
  }
}

nonisolated(unsafe) private var hubPipeWrite: Int32 = -1
nonisolated(unsafe) private var savedTerminal = termios()
nonisolated(unsafe) private var hasSavedTerminal = false

/// Async-signal-safe: saves errno, writes the number to the pipe, restores errno.
private let hubSignalHandler: @convention(c) (Int32) -> Void = { number in
  let saved = errno
  var byte = UInt8(truncatingIfNeeded: number)
  _ = write(hubPipeWrite, &byte, 1)
  errno = saved
}
