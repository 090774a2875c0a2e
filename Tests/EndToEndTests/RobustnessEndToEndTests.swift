import Foundation
import TestSupport
import Testing

/// `migrant-chat robustness` against a loopback bot whose NLU knows only the
/// Cyrillic of its examples, as the Rasa 3.6 bot measured in issue #35 did.
@Suite struct RobustnessEndToEndTests {
  let home = TemporaryDirectory()

  func run(_ arguments: [String]) throws -> ProcessResult {
    try ProcessRunner.run(ProcessRunner.binaryPath, arguments, environment: home.environment())
  }

  /// `api`: "on", "off" (404).
  func bot(api: String = "on") throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer { request in
      guard request.path == "/model/parse" else { return .json("[]") }
      if api == "off" { return .http(status: 404, body: Data("Not Found".utf8)) }
      let text = request.bodyJSON?["text"] as? String ?? ""
      let cyrillic = text.unicodeScalars.contains { (0x400...0x4FF).contains($0.value) }
      let intent = cyrillic ? "residence" : "nlu_fallback"
      return .json(
        #"{"text":"","intent":{"name":"\#(intent)","confidence":\#(cyrillic ? 0.9 : 0.35)}}"#)
    }
  }

  func nluFile() throws -> String {
    let path = home.path + "/nlu.yml"
    try """
    version: "3.1"
    nlu:
    - intent: residence
      examples: |
        - где получить [вид на жительство](document)
        - посвідка на проживання
    """.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func weakOnLatinSoundOnCyrillic() throws {
    let server = try bot()
    let report = home.path + "/report.json"
    let written = home.path + "/more-nlu.yml"
    let result = try run([
      "robustness", "--server", server.baseURL, "--nlu", try nluFile(), "--report", report,
      "--write-nlu", written, "--threshold", "90%", "--lang", "ru,uk",
    ])
    #expect(result.status == 1, "below the threshold: \(result.stderr)")
    #expect(result.stdout.contains("transliteration"))
    #expect(
      result.stdout.contains(
        "где получить вид на жительство → gde poluchit vid na zhitelstvo: nlu_fallback 0.35"))
    #expect(result.stderr.contains("Below the threshold"))
    let json =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))
      as? [String: Any]
    let classes = json?["classes"] as? [String: [String: Double]]
    #expect(classes?["transliteration"]?["kept"] == 0)
    #expect(classes?["ru-uk-mix"]?["kept"] == classes?["ru-uk-mix"]?["variants"])
    let nlu = try String(contentsOfFile: written, encoding: .utf8)
    #expect(nlu.hasPrefix("version: \"3.1\"\nnlu:\n- intent: residence\n  examples: |\n"))
    #expect(nlu.contains("    - gde poluchit vid na zhitelstvo\n"))
    // Without a threshold: 0, in Ukrainian.
    let uk = try run([
      "robustness", "--server", server.baseURL, "--nlu", try nluFile(), "--lang", "uk",
      "--classes", "ru-uk-mix", "--jobs", "2",
    ])
    #expect(uk.status == 0, "\(uk.stderr)")
  }

  @Test func badInputIsAClearErrorWithStatusTwo() throws {
    let server = try bot()
    let nlu = try nluFile()
    for (arguments, message) in [
      (["robustness", "--server", server.baseURL], "No examples to vary"),
      (
        ["robustness", "--server", server.baseURL, "--nlu", home.path + "/none.yml"],
        "Cannot read the NLU training data"
      ),
      (["robustness", "--nlu", nlu], "robustness needs a bot"),
      (
        ["robustness", "--server", server.baseURL, "--nlu", nlu, "--classes", "typos"],
        "--classes takes variant classes"
      ),
      (
        ["robustness", "--server", server.baseURL, "--nlu", nlu, "--threshold", "120%"],
        "is not a share"
      ),
      (
        ["robustness", "--server", server.baseURL, "--nlu", nlu, "--min-confidence", "nan"],
        "is not a share"
      ),
      (
        ["robustness", "--server", server.baseURL, "--nlu", nlu, "--rate", "0"],
        "--rate takes questions a second"
      ),
    ] {
      let result = try run(arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
    // The API off: said as the inspector says it, status 2.
    let off = try bot(api: "off")
    let result = try run(["robustness", "--server", off.baseURL, "--nlu", nlu])
    #expect(result.status == 2)
    #expect(result.stderr.contains("--enable-api"), "\(result.stderr)")
  }
}
