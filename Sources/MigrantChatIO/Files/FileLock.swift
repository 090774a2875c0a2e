import Foundation

/// An advisory lock on a file (`flock`), held while a closure runs.
///
/// Two processes opening a new database at once would both run its
/// migrations; holding `<database>.lock` around the open makes the second
/// wait and then find the schema in place.
public enum FileLock {
  public static func withExclusiveLock<T>(
    _ path: String, _ body: () throws -> T
  ) rethrows -> T {
    // The descriptor is ours: closed (which releases the lock) before returning.
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return try body() }  // no lock file: still try
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
    return try body()
  }
}
