import Foundation

/// A pipe that wakes a thread: both ends close-on-exec (no child inherits them),
/// the write end non-blocking (a signal handler or a full pipe never blocks).
struct WakePipe {
  let readEnd: Int32
  let writeEnd: Int32

  /// Nil when no pipe could be made (out of descriptors).
  init?(nonBlockingRead: Bool) {
    var descriptors: [Int32] = [-1, -1]
    guard pipe(&descriptors) == 0 else { return nil }
    for descriptor in descriptors {
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }
    _ = fcntl(descriptors[1], F_SETFL, O_NONBLOCK)
    if nonBlockingRead { _ = fcntl(descriptors[0], F_SETFL, O_NONBLOCK) }
    readEnd = descriptors[0]
    writeEnd = descriptors[1]
  }
}
