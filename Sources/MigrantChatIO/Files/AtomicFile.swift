import Foundation

/// Writes files so that a crash leaves either the old or the new content.
public enum AtomicFile {
  public enum Failure: Error, CustomStringConvertible {
    case cannotWrite(path: String, reason: String)
    /// A file the user named, in a folder that does not exist: no folder is made for it.
    case noSuchFolder(String)
    /// The path the user named is a folder.
    case isFolder(String)
    /// The folder the user named (`--record-dir`) is a file.
    case notAFolder(String)
    /// The path holds something an export must never replace: an SQLite database
    /// (the user's to-do list, the cache) or a file this run reads.
    case wouldReplace(path: String, what: String)
    /// `--junit ""`: a path that names nothing, said before the run rather than after.
    case emptyPath
    public var description: String {
      switch self {
      case .emptyPath: "an empty path names no file"
      case .cannotWrite(let path, let reason): "\(path): \(reason)"
      case .noSuchFolder(let folder): "\(folder): no such folder"
      case .isFolder(let path): "\(path) is a folder, not a file"
      case .notAFolder(let path): "\(path) is not a folder"
      case .wouldReplace(let path, let what):
        "\(path) is \(what); it is not replaced (name another file)"
      }
    }
  }

  /// Writes a file the user named (`--ics`, `--record`, `/save`, `--junit`, ...).
  ///
  /// Unlike the program's own files, no folder is created for it: a typo in a path
  /// is an error, not a new directory. A symbolic link is written through to its
  /// target, and stays a link. An existing regular file is replaced atomically and
  /// keeps its mode; a device or a FIFO (`/dev/stdout`, `/dev/null`, a pipe) is
  /// written into as it is, never replaced, and its write errors are reported
  /// (`/dev/full`). Refused: a folder, an SQLite database (an export must never
  /// replace the user's to-do list or the cache), and any of `inputs` (the files
  /// this run reads). `-` is standard output.
  public static func writeUserFile(
    _ data: Data, to path: String, mode: mode_t = 0o600, inputs: [String] = []
  ) throws(Failure) {
    if path == "-" {
      // Standard output, as the user asked: written as it is, its errors reported.
      guard writeAll(data, to: STDOUT_FILENO) else { throw failure("-") }
      return
    }
    let target = followingLinks(path)
    switch try checkUserFile(path, inputs: inputs) {
    case .new: try write(data, to: target, mode: mode)
    case .regular(let mode): try write(data, to: target, mode: mode)
    case .device: try writeInPlace(data, to: target)
    }
  }

  /// What is at a path the user named, as `writeUserFile` will treat it.
  public enum UserFileKind: Sendable, Equatable {
    /// Nothing yet, in a folder that exists.
    case new
    /// A regular file, replaced keeping this mode.
    case regular(mode: mode_t)
    /// A device, a FIFO or a socket: written into as it is.
    case device
  }

  /// The checks of `writeUserFile`, without writing: for a command to make before
  /// a long run, so a wrong `--report` path is said at once, not after the run.
  @discardableResult
  public static func checkUserFile(_ path: String, inputs: [String] = []) throws(Failure)
    -> UserFileKind
  {
    if path == "-" { return .device }
    if path.isEmpty { throw .emptyPath }
    let target = followingLinks(path)
    var existing = stat()
    guard stat(target, &existing) == 0 else {
      let folder = directory(of: target)
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
        throw .noSuchFolder(folder)
      }
      guard isDirectory.boolValue else { throw .notAFolder(folder) }
      return .new
    }
    for input in inputs {
      var read = stat()
      if stat(input, &read) == 0, read.st_dev == existing.st_dev, read.st_ino == existing.st_ino {
        throw .wouldReplace(path: path, what: "a file this run reads")
      }
    }
    switch existing.st_mode & S_IFMT {
    case S_IFDIR:
      throw .isFolder(path)
    case S_IFREG:
      if isSQLiteDatabase(target) { throw .wouldReplace(path: path, what: "an SQLite database") }
      return .regular(mode: existing.st_mode & 0o7777)
    default:
      return .device
    }
  }

  /// A folder the user named for files (`explore --record-dir`): an existing
  /// folder, or nothing yet (it is then made); a file or a dangling link is an error.
  public static func checkFolder(_ path: String) throws(Failure) {
    if path.isEmpty { throw .emptyPath }
    let target = followingLinks(path)
    var existing = stat()
    if stat(target, &existing) == 0 {
      guard existing.st_mode & S_IFMT == S_IFDIR else { throw .notAFolder(path) }
    } else if target != path {
      throw .noSuchFolder(target)
    } else {
      // It is made, but not the folders above it: a typo is an error, not a tree.
      let parent = directory(of: target)
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory) else {
        throw .noSuchFolder(parent)
      }
      guard isDirectory.boolValue else { throw .notAFolder(parent) }
    }
  }

  /// Whether the file begins as every SQLite database does.
  static func isSQLiteDatabase(_ path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    let head = (try? handle.read(upToCount: 16)) ?? Data()
    return head == Data(utf8Of: "SQLite format 3\0")
  }

  /// Writes into a device or a FIFO as it is (opened, written, closed): never
  /// renamed over, so `/dev/null` stays a device.
  private static func writeInPlace(_ data: Data, to path: String) throws(Failure) {
    let descriptor = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else { throw failure(path) }
    defer { close(descriptor) }
    guard writeAll(data, to: descriptor) else { throw failure(path) }
  }

  /// Writes every byte, retrying after a signal; false on an error (errno says which).
  private static func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
    var written = 0
    return data.withUnsafeBytes { bytes -> Bool in
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
    let ok = writeAll(data, to: descriptor)
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
    for name in names(in: directory) {
      guard name.hasPrefix(prefix), name.hasSuffix(".tmp"),
        let pid = pid_t(name.dropFirst(prefix.count).dropLast(4)), pid != getpid()
      else { continue }
      if kill(pid, 0) != 0 && errno == ESRCH { unlink(directory + "/" + name) }
    }
  }

  /// The names in a folder, by `readdir`: `FileManager.contentsOfDirectory` cost half a
  /// million instructions at every start (#50). Empty when it cannot be read.
  static func names(in directory: String) -> [String] {
    guard let stream = opendir(directory) else { return [] }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
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
