import Foundation
import TestSupport
import Testing

@Suite struct ExploreEndToEndTests {
  let home = TemporaryDirectory()

  func run(_ arguments: [String]) throws -> ProcessResult {
    try ProcessRunner.run(ProcessRunner.binaryPath, arguments, environment: home.environment())
  }

  func json(_ path: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
      as? [String: Any] ?? [:]
  }

  /// The offline assistant, every language: nothing broken; the recorded paths
  /// replay green; the report and the graph are written.
  @Test func theOfflineAssistantIsSoundAndItsPathsReplayGreen() throws {
    let result = try run([
      "explore", "--offline", "--report", home.path + "/r.json", "--graph", home.path + "/g.mmd",
      "--record-dir", home.path + "/paths",
    ])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("en: messages "))
    #expect(result.stdout.contains("uk: messages "))
    #expect(result.stdout.contains("Problems: 0."))
    let report = try json(home.path + "/r.json")
    #expect(report["failed"] as? Bool == false)
    #expect((report["languages"] as? [Any])?.count == 3)
    let graph = try String(contentsOfFile: home.path + "/g.mmd", encoding: .utf8)
    #expect(graph.hasPrefix("flowchart LR\n"))
    let files = try FileManager.default.contentsOfDirectory(atPath: home.path + "/paths")
    #expect(files.count > 30)
    let replay = try run(["replay", "--offline", home.path + "/paths"])
    #expect(replay.status == 0, "\(replay.stdout)")
    #expect(replay.stdout.contains("\(files.count) passed, 0 failed"))
  }

  /// A bot over HTTP whose Russian and Ukrainian answers are English: found per
  /// language, exit 1, and the JSON report names each.
  @Test func aBotThatAnswersInEnglishOnlyIsFoundOut() throws {
    let bot = try makeScenarioBot()
    let result = try run([
      "explore", "--server", bot.baseURL, "--lang", "en,uk", "--report", home.path + "/r.json",
      "--jobs", "2",
    ])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    let findings = try json(home.path + "/r.json")["findings"] as? [[String: Any]] ?? []
    let wrong = findings.filter { $0["kind"] as? String == "wrong-language" }
    #expect(!wrong.isEmpty)
    #expect(wrong.allSatisfy { $0["language"] as? String == "uk" })
    #expect(!findings.contains { $0["kind"] as? String == "error" })
  }

  @Test func usageErrorsExitTwoAndSayWhy() throws {
    let graph = try run(["explore", "--offline", "--graph", home.path + "/g.png"])
    #expect(graph.status == 2)
    #expect(graph.messages.contains("--graph must name a .dot, .gv, .mmd or .mermaid file"))
    let languages = try run(["explore", "--offline", "--lang", "en,xx"])
    #expect(languages.status == 2)
    #expect(languages.messages.contains("--lang takes languages separated by commas"))
    let depth = try run(["explore", "--offline", "--depth", "0"])
    #expect(depth.status == 2)
    let noBot = try run(["explore"])
    #expect(noBot.status == 2)
    #expect(noBot.messages.contains("Explore needs a bot"))
  }
}
