import Foundation
import Synchronization

/// Turns SIGINT into a call to whatever the program is doing right now.
///
/// The signal handler only writes a byte to a pipe (all it may safely do); a
/// thread reads the pipe and calls the current handler: cancel the request
/// in flight, or clear the line being typed.
public final class InterruptWatcher: Sendable {
  public static let shared = InterruptWatcher()

  private let handler = Mutex<(@Sendable () -> Void)?>(nil)

  private init() {
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else { return }
    interruptPipeWrite = descriptors[1]
    _ = fcntl(descriptors[1], F_SETFL, O_NONBLOCK)
    let readEnd = descriptors[0]
    signal(SIGINT, interruptSignalHandler)
    let thread = Thread { [self] in
      var byte: UInt8 = 0
      while true {
        let count = read(readEnd, &byte, 1)
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { return }
        let current = handler.withLock { $0 }
        current?()
      }
    }
    thread.start()
  }

  /// Sets what Ctrl-C does from now on; nil makes it do nothing.
  public func onInterrupt(_ action: (@Sendable () -> Void)?) {
    handler.withLock { $0 = action }
  }
}

nonisolated(unsafe) private var interruptPipeWrite: Int32 = -1

private let interruptSignalHandler: @convention(c) (Int32) -> Void = { _ in
  var byte: UInt8 = 1
  _ = write(interruptPipeWrite, &byte, 1)
}
