import Foundation

/// A value behind a lock that ThreadSanitizer sees (`NSLock`, a pthread mutex), for the
/// fakes whose state is shared by raw threads (a `LoopbackHTTPServer`'s connections).
///
/// `Synchronization.Mutex` is invisible to TSan on Linux: its futex is not intercepted,
/// so four threads appending to an array under `Mutex.withLock` are reported as six
/// races (a correct count, 8,000; checked with `swiftc -sanitize=thread`), and under
/// `NSLock` as none. `make test-sanitizers` runs the I/O suites, whose fakes use this.
public final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  public init(_ value: Value) {
    self.value = value
  }

  public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
