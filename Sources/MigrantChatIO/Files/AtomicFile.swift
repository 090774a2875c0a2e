import Foundation

/// Writes files so that a crash leaves either the old or the new content.
public enum AtomicFile {
  public enum Failure: Error, CustomStringConvertible {
    case cannotWrite(path: String, reason: String)
    /// A file the user named, in a folder that does not exist: no folder is made for it.
    case noSuchFolder(String)
    public var description: String {
      switch self {
      case .cannotWrite(let path, let reason): "\(path): \(reason)"
      case .noSuchFolder(let folder): "\(folder): no such folder"
      }
    }
  }

  /// Writes a file the user named (`--ics`, `--record`, `/save`, `--junit`, ...).
  ///
  /// Unlike the program's own files, no folder is created for it: a typo in a path
  /// is an error, not a new directory. A symbolic link is written through to its
  /// target, and stays a link.
  public static func writeUserFile(_ data: Data, to path: String, mode: mode_t = 0o600)
    throws(Failure)
  {
    let target = followingLinks(path)
    let folder = directory(of: target)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { throw .noSuchFolder(directory(of: path)) }
    try write(data, to: target, mode: mode)
  }

  /// The file a chain of symbolic links at `path` ends at (`path` itself when it is none).
  static func followingLinks(_ path: String) -> String {
    var current = path
    for _ in 0..<40 {
      guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current)
      else { return current }
      current =
        destination.hasPrefix("/")
        ? destination : directory(of: current) + "/" + destination
    }
    return current
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
