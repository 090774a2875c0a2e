import Foundation
import Synchronization
import TestSupport
import Testing

/// `migrant-chat evaluate` against a loopback bot that answers `/model/parse` as
/// Rasa 3.6 does: a keyword classifier, a regex city extractor with a synonym
/// (Prague is Praha), a FallbackClassifier at 0.3, and whitespace tokens.
@Suite struct EvaluateEndToEndTests {
  let home = TemporaryDirectory()

  func run(_ arguments: [String]) throws -> ProcessResult {
    try ProcessRunner.run(ProcessRunner.binaryPath, arguments, environment: home.environment())
  }

  /// Rasa's answer for `text`: the intent by keyword, cities with their spans.
  static func parse(_ text: String) -> String {
    let lower = text.lowercased()
    let scalars = Array(text.unicodeScalars)
    var intent = ("greet", 0.9)
    if lower.contains("flat") || lower.contains("квартир") {
      intent = ("housing", 0.95)
    } else if lower.contains("bye") {
      intent = ("goodbye", 0.8)
    } else if lower.contains("insurance") {
      intent = ("housing", 0.6)  // a confusion the report must show
    }
    var ranking = [#"{"name":"\#(intent.0)","confidence":\#(intent.1)}"#]
    if lower.contains("maybe") {
      // Not sure: Rasa's FallbackClassifier answers, its threshold as confidence.
      ranking = [
        #"{"name":"nlu_fallback","confidence":0.3}"#, #"{"name":"goodbye","confidence":0.25}"#,
      ]
    }
    var entities: [String] = []
    for (city, value) in [("Brno", "Brno"), ("Prague", "Praha"), ("Брно", "Brno")] {
      let needle = Array(city.unicodeScalars)
      guard
        let start = (0...max(0, scalars.count - needle.count)).first(where: { index in
          index + needle.count <= scalars.count
            && Array(scalars[index..<(index + needle.count)]) == needle
        })
      else { continue }
      entities.append(
        #"{"entity":"city","start":\#(start),"end":\#(start + needle.count),"value":"\#(value)","extractor":"RegexEntityExtractor"}"#
      )
    }
    var tokens: [String] = []
    var start: Int?
    for (index, scalar) in (scalars + [" "]).enumerated() {
      if scalar == " " {
        if let begun = start { tokens.append("[\(begun),\(index)]") }
        start = nil
      } else if start == nil {
        start = index
      }
    }
    return
      #"{"text":"","intent":\#(ranking[0]),"intent_ranking":[\#(ranking.joined(separator: ","))],"#
      + #""entities":[\#(entities.joined(separator: ","))],"text_tokens":[\#(tokens.joined(separator: ","))]}"#
  }

  func bot(delay: Double = 0) throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer { request in
      guard request.path == "/model/parse" else { return .json("[]") }
      if delay > 0 { Thread.sleep(forTimeInterval: delay) }
      return .json(Self.parse(request.bodyJSON?["text"] as? String ?? ""))
    }
  }

  func testFile(_ name: String = "test.yml", _ text: String? = nil) throws -> String {
    let path = home.path + "/" + name
    try
      (text
        ?? """
        version: "3.1"
        nlu:
        - intent: housing
          examples: |
            - a flat in [Brno](city)
            - any flat in [Prague](city)
            - квартира в [Брно]{"entity": "city", "value": "Brno"}
            - insurance for my flat
        - intent: greet
          examples: |
            - hello
            - hi there
        - intent: goodbye
          examples:
          - text: bye now
          - text: maybe later
          - text: health insurance
        """).write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func countsAsRasaTestNLUAndWritesTheReports() throws {
    let server = try bot()
    let report = home.path + "/evaluate.json"
    let html = home.path + "/evaluate.html"
    let result = try run([
      "evaluate", "--server", server.baseURL, "--nlu", try testFile(), "--report", report,
      "--html", html, "--threshold", "intent:housing:recall>=1", "--threshold", "f1>=0.5",
    ])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    // 9 examples; health insurance → housing wrong, maybe later → goodbye (the
    // fallback undone) right: 8 of 9.
    #expect(
      result.stdout.hasPrefix(
        "9 examples asked of \(server.baseURL): 88.9% taken for their intent"),
      "\(result.stdout)")
    #expect(result.stdout.contains("  goodbye → housing (1): “health insurance” 0.600"))
    #expect(
      result.stdout.contains(
        "Entities by token, as rasa test nlu counts them (RegexEntityExtractor):"))
    #expect(result.stdout.contains("  the bot's, 0.30: "))
    #expect(result.stderr.contains("Thresholds met: 2 of 2."))
    let json =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))
      as? [String: Any]
    let intents = (json?["intent_evaluation"] as? [String: Any])?["report"] as? [String: Any]
    let goodbye = intents?["goodbye"] as? [String: Any]
    #expect((goodbye?["recall"] as? Double).map { abs($0 - 2 / 3) < 1e-9 } == true)
    #expect((goodbye?["confused_with"] as? [String: Int])?["housing"] == 1)
    #expect((json?["predictions"] as? [Any])?.count == 9)
    // Every city marked is found on its tokens and, by value, Prague is Praha.
    let byValue = (json?["entities_by_value"] as? [String: [String: Double]])?["city"]
    #expect(byValue?["matched"] == 3 && byValue?["marked"] == 3, "\(String(describing: byValue))")
    let page = try String(contentsOfFile: html, encoding: .utf8)
    #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("<svg") && !page.contains("<script"))
  }

  @Test func aMissedThresholdExitsOneAndSaysWhich() throws {
    let server = try bot()
    let result = try run([
      "evaluate", "--server", server.baseURL, "--nlu", try testFile(),
      "--threshold", "intent:goodbye:recall>=0.9", "--threshold", "accuracy>=50%",
    ])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stderr.contains("Threshold not met: intent:goodbye:recall>=0.9 (measured 0.6667)."))
    #expect(result.stderr.contains("Thresholds met: 1 of 2."))
  }

  @Test func badInputIsAClearErrorWithStatusTwo() throws {
    let server = try bot()
    let file = try testFile()
    let folder = home.path + "/stories"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try "version: \"3.1\"\nstories: []\n".write(
      toFile: folder + "/stories.yml", atomically: true, encoding: .utf8)
    let one = try testFile(
      "one.yml", "nlu:\n- intent: greet\n  examples: |\n    - hi\n    - hello\n")
    let typo = try testFile(
      "typo.yml",
      "nlu:\n- intent: greet\n  exampels: |\n    - hi\n- intent: bye\n  examples: |\n    - bye\n")
    for (arguments, message) in [
      (["evaluate", "--server", server.baseURL], "evaluate needs labelled examples"),
      (["evaluate", "--nlu", file], "evaluate needs the bot's HTTP API"),
      (
        ["evaluate", "--server", server.baseURL, "--nlu", home.path + "/none.yml"],
        "Cannot read the test examples \(home.path)/none.yml: no such file"
      ),
      (
        ["evaluate", "--server", server.baseURL, "--nlu", folder],
        "it has no 'nlu:' list of intents"
      ),
      (
        ["evaluate", "--server", server.baseURL, "--nlu", typo],
        "an entry of its 'nlu:' list is not an intent"
      ),
      (["evaluate", "--server", server.baseURL, "--nlu", one], "have one intent only (greet)"),
      (
        ["evaluate", "--server", server.baseURL, "--nlu", file, "--threshold", "f1>=2"],
        "--threshold takes a figure, an operator and a share"
      ),
      (
        [
          "evaluate", "--server", server.baseURL, "--nlu", file, "--threshold",
          "intent:hosing:f1>=0.5",
        ],
        "names hosing, which none of the examples has (intents: goodbye, greet, housing"
      ),
      (
        ["evaluate", "--server", server.baseURL, "--nlu", file, "--lang", "uk"],
        "Nothing to evaluate: of 9 examples, none is in uk"
      ),
      (
        [
          "evaluate", "--server", server.baseURL, "--nlu", file, "--report", home.path + "/a",
          "--html", home.path + "/a",
        ],
        "--report and --html name the same file"
      ),
      (
        ["evaluate", "--server", server.baseURL, "--nlu", file, "--wrong-cost", "-1"],
        "--wrong-cost takes a number from 0 to 100"
      ),
      (
        ["evaluate", "--server", "http://127.0.0.1:1", "--nlu", file],
        "Could not ask http://127.0.0.1:1 what it understands"
      ),
    ] {
      let result = try run(arguments)
      #expect(result.status == 2, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
    // The API off: said as robustness says it.
    let off = try LoopbackHTTPServer { _ in .http(status: 404, body: Data("Not Found".utf8)) }
    let refused = try run(["evaluate", "--server", off.baseURL, "--nlu", file])
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("does not answer POST /model/parse"), "\(refused.stderr)")
  }

  /// `--lang` keeps the examples in those languages and says how many were left out;
  /// the output speaks the user's language.
  @Test func langKeepsSomeAndSaysSo() throws {
    let server = try bot()
    var environment = home.environment()
    environment["MIGRANT_CHAT_LANG"] = "uk"
    let result = try ProcessRunner.run(
      ProcessRunner.binaryPath,
      ["evaluate", "--server", server.baseURL, "--nlu", try testFile(), "--lang", "en"],
      environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("Запитую 8 з 9 прикладів"), "\(result.stderr)")
    #expect(result.stdout.hasPrefix("У \(server.baseURL) запитано 8 прикладів"), "\(result.stdout)")
  }

  /// Ctrl-C: what was measured is printed and saved as partial, and the status is 130.
  @Test func ctrlCReportsWhatWasMeasuredWithStatus130() throws {
    let slow = try bot(delay: 0.05)
    let report = home.path + "/interrupted.json"
    let process = Process()
    process.standardInput = FileHandle.nullDevice
    process.executableURL = URL(fileURLWithPath: ProcessRunner.binaryPath)
    process.arguments = [
      "evaluate", "--server", slow.baseURL, "--nlu", try testFile(), "--jobs", "1", "--rate", "2",
      "--report", report,
    ]
    process.environment = home.environment()
    let output = PipeCollector()
    let errors = PipeCollector()
    process.standardOutput = output.pipe
    process.standardError = errors.pipe
    try process.run()
    // The sign: the probe and three examples asked. Never a fixed wait.
    #expect(waitUntil { slow.requests.count >= 4 }, "the run never asked")
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    let stdout = output.all()
    let stderr = errors.all()
    #expect(process.terminationStatus == 130, "\(stdout)\(stderr)")
    #expect(stderr.contains("Interrupted: the figures are of what was measured before."))
    #expect(stdout.hasPrefix("Stopped early: "), "\(stdout)")
    let json =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))
      as? [String: Any]
    #expect(json?["complete"] as? Bool == false)
    #expect(json?["planned"] as? Int == 9)
  }
}
