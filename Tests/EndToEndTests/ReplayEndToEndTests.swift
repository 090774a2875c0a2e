import Foundation
import TestSupport
import Testing

@Suite struct ReplayEndToEndTests {
  let home = TemporaryDirectory()

  func write(_ name: String, _ text: String) throws -> String {
    let path = home.path + "/" + name
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  func replay(_ arguments: [String]) throws -> ProcessResult {
    try ProcessRunner.run(
      ProcessRunner.binaryPath, ["replay"] + arguments, environment: home.environment())
  }

  static let passing = """
    name: Greeting
    language: en
    steps:
      - user: /start
        bot:
          - text: {contains: offline guide}
          - buttons: {contains: [Work]}
            text: What do you need help with?
    """

  static let failing = """
    name: Wrong topic
    language: en
    start: /start
    steps:
      - user: "4"
        bot:
          - text: "Schools: choose a guide."
    """

  @Test func passAndFailWithDiffSummaryAndExitStatus() throws {
    let ok = try write("ok.yaml", Self.passing)
    let bad = try write("bad.yaml", Self.failing)
    let result = try replay([
      ok, bad, "--offline", "--junit", home.path + "/j.xml", "--report", home.path + "/r.json",
    ])
    #expect(result.status == 1)
    #expect(result.stdout.contains("PASS  Greeting  (\(ok),"))
    #expect(result.stdout.contains("FAIL  Wrong topic  (\(bad),"))
    #expect(result.stdout.contains("  at \(bad):5\n"))
    #expect(result.stdout.contains("    -Schools: choose a guide.\n    +Work: choose a guide."))
    #expect(result.stdout.contains("\n1 passed, 1 failed\nbot latency per turn (2 turns): p50 "))
    let junit = try String(contentsOfFile: home.path + "/j.xml", encoding: .utf8)
    #expect(junit.contains(#"<testsuites tests="2" failures="1""#))
    let report =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: home.path + "/r.json"))) as? [String: Any]
    #expect(report?["failed"] as? Int == 1)
    let steps =
      ((report?["transcripts"] as? [[String: Any]])?.last?["steps"] as? [[String: Any]]) ?? []
    #expect(
      (steps.first?["actual"] as? [[String: Any]])?.first?["text"] as? String
        == "Work: choose a guide.")
  }

  @Test func aDirectoryRepeatAndJobsAgainstServe() throws {
    let serve = try ServeProcess(home: home)
    _ = try write("a.yaml", Self.passing)
    _ = try write("b.yml", Self.passing.replacingOccurrences(of: "Greeting", with: "Again"))
    let result = try replay([home.path, "--server", serve.baseURL, "--jobs", "3", "--repeat", "3"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("6 passed, 0 failed\n"))
  }

  @Test func failFastSkipsTheRest() throws {
    let bad = try write("bad.yaml", Self.failing)
    let result = try replay([bad, bad, bad, "--offline", "--fail-fast"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("0 passed, 1 failed, 2 skipped"))
  }

  @Test func aDeadServerFailsTheTranscriptWithTheReason() throws {
    let ok = try write("ok.yaml", Self.passing)
    let result = try replay([ok, "--server", "http://127.0.0.1:\(unusedLoopbackPort())"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("connection refused"))
    #expect(result.stdout.contains("0 passed, 1 failed"))
  }

  @Test func usageAndFileErrorsExitWith2() throws {
    let ok = try write("ok.yaml", Self.passing)
    let noBot = try replay([ok])
    #expect(noBot.status == 2)
    #expect(noBot.messages.contains("Replay needs a bot"))
    let missing = try replay([home.path + "/nope.yaml", "--offline"])
    #expect(missing.status == 2)
    #expect(missing.messages.contains("There is no file or directory"))
    let typo = try write("typo.yaml", "name: t\nsteps:\n  - usr: hi\n")
    let bad = try replay([typo, "--offline", "--lang", "ru"])
    #expect(bad.status == 2)
    #expect(bad.messages.contains("typo.yaml:3:5: неизвестный ключ «usr»"))
  }

  @Test func aFreshRecordingReplaysAgainstTheSameBot() throws {
    let serve = try ServeProcess(home: home)
    let recorded = home.path + "/recorded.yaml"
    let saved = home.path + "/saved.yaml"
    let chatRun = try chat(
      ["--server", serve.baseURL, "--record", recorded, "--lang", "uk"],
      input: "2\n1\n/lang en\n1\n/contacts brno\n/save \(saved)\nyes\n", home: home)
    #expect(chatRun.status == 0, "\(chatRun.stderr)")
    #expect(
      chatRun.stdout.replacingOccurrences(of: "\n", with: " ")
        .contains("Saved 5 turns as a transcript: \(saved)"))
    let text = try String(contentsOfFile: recorded, encoding: .utf8)
    #expect(text.contains("language: \"uk\""))
    #expect(text.contains("- user: \"/lang en\""))
    #expect(!text.contains("/contacts"), "the client's own lookups are not steps")
    #expect(text.contains("- user: \"yes\""), "a reply that looks like a boolean stays text")
    let againstServe = try replay([recorded, saved, "--server", serve.baseURL])
    #expect(againstServe.status == 0, "\(againstServe.stdout)")
    #expect(againstServe.stdout.contains("2 passed, 0 failed"))
    let offline = try replay([recorded, "--offline"])
    #expect(offline.status == 0, "\(offline.stdout)")
  }

  @Test func saveNeedsAFileName() throws {
    let result = try chat(["--offline", "--start-message", ""], input: "/save\n", home: home)
    #expect(result.status == 1)
    #expect(result.messages.contains("/save needs a file name"))
  }
}
