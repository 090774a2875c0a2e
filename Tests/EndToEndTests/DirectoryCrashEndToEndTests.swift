import Foundation
import Synchronization
import TestSupport
import Testing

/// Two processes syncing at once, and a process killed during a sync.
@Suite struct DirectoryCrashEndToEndTests {
  let home = TemporaryDirectory()

  static let many: [String] = (1...60_000).map {
    DataAPIServer.contact($0, "Office \($0)", city: $0 % 2 == 0 ? "Brno" : "Praha")
  }

  /// How many offices `contacts list` reports: the lines shown plus "… and N more".
  func count() throws -> (Int, ProcessResult) {
    let result = try contacts(["list", "--limit", "1"], home: home)
    let words = result.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" })
    let more = words.firstIndex(of: "and").flatMap { Int(words[$0 + 1]) } ?? 0
    return (1 + more, result)
  }

  @Test func twoProcessesSyncingAtOnceBothSucceed() throws {
    let api = try DataAPIServer()
    api.setContacts(Self.many)
    let environment = home.environment(["MIGRANT_CHAT_DATA_API": api.baseURL])
    let group = DispatchGroup()
    nonisolated(unsafe) var results: [ProcessResult?] = [nil, nil]
    for index in 0..<2 {
      group.enter()
      DispatchQueue.global().async {
        results[index] = try? ProcessRunner.run(
          ProcessRunner.binaryPath, ["contacts", "sync"], environment: environment)
        group.leave()
      }
    }
    group.wait()
    for result in results {
      #expect(result?.status == 0, "\(result?.stderr ?? "did not run")")
      // The second may start after the first committed: then the data is already current.
      #expect(
        ["Directory updated: 60000 offices.\n", "The directory is up to date.\n"].contains(
          result?.stdout ?? ""))
      #expect(result?.stderr.contains("locked") == false)
    }
    #expect(try count().0 == 60_000)
  }

  @Test func processesStartingTogetherOnAFreshCacheAllOpenIt() throws {
    for _ in 0..<5 {
      let fresh = TemporaryDirectory()
      let group = DispatchGroup()
      let results = Mutex<[ProcessResult]>([])
      for _ in 0..<4 {
        group.enter()
        DispatchQueue.global().async {
          if let result = try? contacts(["list", "--limit", "1"], home: fresh) {
            results.withLock { $0.append(result) }
          }
          group.leave()
        }
      }
      group.wait()
      for result in results.withLock({ $0 }) {
        #expect(result.status == 0)
        #expect(result.stdout.contains("#"))
        #expect(!result.messages.contains("cannot be opened"), "\(result.stderr)")
      }
    }
  }

  @Test func aProcessKilledDuringASyncLeavesAConsistentDirectory() throws {
    let api = try DataAPIServer()
    api.setContacts(Array(Self.many.prefix(3)))
    #expect(try contacts(["sync", "--data-api", api.baseURL], home: home).status == 0)
    api.setChanged(["contacts"])
    api.setContacts(Self.many)
    let environment = home.environment(["MIGRANT_CHAT_DATA_API": api.baseURL])
    var seen = Set<Int>()
    for delay in [0.05, 0.2, 0.4, 0.6, 0.8, 1.0, 1.3, 1.6, 2.0, 3.0] {
      let process = Process()
      // Never the test run's own stdin: CI's may be a pipe that never ends.
      process.standardInput = FileHandle.nullDevice
      process.executableURL = URL(fileURLWithPath: ProcessRunner.binaryPath)
      process.arguments = ["contacts", "sync"]
      process.environment = environment
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      Thread.sleep(forTimeInterval: delay)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let (offices, result) = try count()
      #expect(result.status == 0)
      #expect(result.stderr.isEmpty || result.stderr.contains("sample") == false)
      #expect(offices == 3 || offices == 60_000, "half-applied sync: \(offices) offices")
      #expect(!result.stderr.contains("damaged"))
      seen.insert(offices)
      if offices == 60_000 {
        // Back to the old table for the next kill.
        api.setContacts(Array(Self.many.prefix(3)))
        #expect(
          try contacts(["sync"], home: home, environment: ["MIGRANT_CHAT_DATA_API": api.baseURL])
            .status == 0)
        api.setContacts(Self.many)
      }
    }
    #expect(seen.contains(3), "no kill landed before the commit")
  }
}
