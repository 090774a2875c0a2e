import Foundation

/// Writes files so that a crash leaves either the old or the new content.
public enum AtomicFile {
  public enum Failure: Error, CustomStringConvertible {
    case cannotWrite(path: String, reason: String)
    public var description: String {
      switch self {
      case .cannotWrite(let path, let reason): "\(path): \(reason)"
      }
    }
  }

  /// Writes `data` to a temporary file beside `path`, syncs it and renames it
  /// over `path`. The file gets `mode`; missing directories get 0700.
  public static func write(_ data: Data, to path: String, mode: mode_t = 0o600) throws(Failure) {
    try makeDirectory(directory(of: path))
    let temporary = temporaryPath(for: path)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard descriptor >= 0 else { throw failure(path) }
    var written = 0
    let ok = data.withUnsafeBytes { bytes -> Bool in
      guard let base = bytes.baseAddress else { return true }
      while written < bytes.count {
        let result = Foundation.write(descriptor, base + written, bytes.count - written)
        if result < 0 {
          if errno == EINTR { continue }
          return false
        }
        written += result
      }
      return true
    }
    let synced = ok && fsync(descriptor) == 0
    close(descriptor)
    guard synced, fchmodPath(temporary, mode), rename(temporary, path) == 0 else {
      let error = failure(path)
      unlink(temporary)
      throw error
    }
  }

  /// The temporary file a write to `path` goes through: `.name.<pid>.tmp` beside it.
  public static func temporaryPath(for path: String) -> String {
    directory(of: path) + "/.\((path as NSString).lastPathComponent).\(getpid()).tmp"
  }

  /// The folder a path is in; "." for a bare file name (relative to the current directory).
  static func directory(of path: String) -> String {
    let directory = (path as NSString).deletingLastPathComponent
    return directory.isEmpty ? "." : directory
  }

  /// Removes the temporary files of writes to `path` whose process is gone
  /// (killed between writing and renaming); a running process's file is left
  /// alone. Called where the file is read at start (state, history).
  public static func removeStaleTemporaries(of path: String) {
    let directory = directory(of: path)
    let prefix = "." + (path as NSString).lastPathComponent + "."
    for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
      guard name.hasPrefix(prefix), name.hasSuffix(".tmp"),
        let pid = pid_t(name.dropFirst(prefix.count).dropLast(4)), pid != getpid()
      else { continue }
      if kill(pid, 0) != 0 && errno == ESRCH { unlink(directory + "/" + name) }
    }
  }

  /// Creates `path` and its parents with mode 0700 when missing.
  public static func makeDirectory(_ path: String) throws(Failure) {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      return
    }
    do {
      try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw .cannotWrite(path: path, reason: error.localizedDescription)
    }
  }

  private static func fchmodPath(_ path: String, _ mode: mode_t) -> Bool {
    chmod(path, mode) == 0
  }

  private static func failure(_ path: String) -> Failure {
    .cannotWrite(path: path, reason: String(cString: strerror(errno)))
  }
}
