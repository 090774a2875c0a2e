import Foundation

/// The result of running a program to completion.
public struct ProcessResult: Sendable {
  public var status: Int32
  public var stdout: String
  public var stderr: String
}

/// Runs the built `migrant-chat` (or any program) with piped stdin.
public enum ProcessRunner {
  /// The `migrant-chat` binary built next to the test bundle, or `MIGRANT_CHAT_BINARY`.
  public static var binaryPath: String {
    if let path = ProcessInfo.processInfo.environment["MIGRANT_CHAT_BINARY"] { return path }
    let directory = productsDirectory
    return directory + "/migrant-chat"
  }

  /// Where SwiftPM puts products: the directory of the test bundle.
  public static var productsDirectory: String {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    while url.path != "/"
      && !FileManager.default.fileExists(atPath: url.appendingPathComponent("migrant-chat").path)
    {
      url = url.deletingLastPathComponent()
    }
    return url.path
  }

  /// Runs `executable` with `arguments`, `input` on stdin and exactly `environment`.
  public static func run(
    _ executable: String = binaryPath, _ arguments: [String], input: String = "",
    environment: [String: String], timeout: Double = hangGuard
  ) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    // Read both pipes concurrently so a full pipe never blocks the child.
    nonisolated(unsafe) var outData = Data()
    nonisolated(unsafe) var errData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      outData = stdout.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    group.enter()
    DispatchQueue.global().async {
      errData = stderr.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try? stdin.fileHandleForWriting.close()
    if group.wait(timeout: .now() + timeout) == .timedOut {
      process.terminate()
      group.wait()
    }
    process.waitUntilExit()
    return ProcessResult(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}

/// A fresh directory under the system's temporary directory, removed on deinit.
public final class TemporaryDirectory: Sendable {
  public let path: String

  public init() {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "migrant-chat-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    path = base.path
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// A clean environment for the binary: its own XDG folders, fixed width, no colour.
  public func environment(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = [
      "HOME": path, "XDG_STATE_HOME": path + "/state", "XDG_CONFIG_HOME": path + "/config",
      "XDG_CACHE_HOME": path + "/cache", "COLUMNS": "80", "NO_COLOR": "1", "LANG": "C",
      "PATH": "/usr/bin:/bin",
    ]
    environment.merge(extra) { _, new in new }
    return environment
  }
}
