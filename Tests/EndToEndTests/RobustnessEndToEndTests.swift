import Foundation
import Synchronization
import TestSupport
import Testing

/// `migrant-chat robustness` against a loopback bot whose NLU knows only the
/// Cyrillic of its examples, as the Rasa 3.6 bot measured in issue #35 did.
@Suite struct RobustnessEndToEndTests {
  let home = TemporaryDirectory()

  func run(_ arguments: [String]) throws -> ProcessResult {
    try ProcessRunner.run(ProcessRunner.binaryPath, arguments, environment: home.environment())
  }

  /// `api`: "on", "off" (404); `refuseAfter`: the API answers that many, then 404s.
  func bot(api: String = "on", refuseAfter: Int = .max) throws -> LoopbackHTTPServer {
    let asked = Mutex(0)
    return try LoopbackHTTPServer { request in
      guard request.path == "/model/parse" else { return .json("[]") }
      let count = asked.withLock { count in
        count += 1
        return count
      }
      if api == "off" || count > refuseAfter {
        return .http(status: 404, body: Data("Not Found".utf8))
      }
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

  /// Transcripts' typed turns are examples: their intent is what the bot
  /// understands as written (a turn it does not is left out, and said); the
  /// fallback threshold is the confidence of its `nlu_fallback`; the failing
  /// variants become transcripts that check the intent at that confidence.
  @Test func transcriptTurnsAndTheBotsFallbackThreshold() throws {
    let server = try bot()
    let transcript = home.path + "/chat.yaml"
    try """
    name: A Russian speaker
    steps:
      - user: вид на жительство
      - button: Жильё
      - user: "2"
      - user: hello there
    """.write(toFile: transcript, atomically: true, encoding: .utf8)
    let folder = home.path + "/checks"
    let result = try run([
      "robustness", transcript, "--server", server.baseURL, "--classes", "transliteration",
      "--write-transcripts", folder,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.contains(
        "0 of 5 variants kept (0%), at confidence 0.35 or more (the bot's fallback threshold)."),
      "\(result.stdout)")
    #expect(
      result.stdout.contains(
        "Left out: 1 example the bot does not understand even as written: “hello there”."))
    #expect(result.stdout.contains("residence (5): transliteration 0%"))
    let asked = server.requests.compactMap { $0.bodyJSON?["text"] as? String }
    #expect(!asked.contains("Жильё") && !asked.contains("2"), "a click is not typed: \(asked)")
    #expect(result.stderr.contains("Wrote 5 transcripts to"))
    let written = try String(contentsOfFile: folder + "/robustness-residence.yaml", encoding: .utf8)
    #expect(written.contains("- user: \"vid na zhitelstvo\"\n  intent:\n    name: \"residence\""))
    #expect(written.contains("min: 0.35"))
    #expect(written.components(separatedBy: "\n---\n").count == 5)
  }

  /// `--black-box` against the offline assistant: judged by its answers; the
  /// failing variants are written as transcripts, and each fails against the
  /// same bot until it answers them as their example.
  @Test func blackBoxJudgesByTheAnswerAndWritesTranscriptsThatFail() throws {
    let nlu = home.path + "/offline.yml"
    try """
    nlu:
    - intent: housing
      examples: |
        - жильё
        - housing
    """.write(toFile: nlu, atomically: true, encoding: .utf8)
    let folder = home.path + "/answers"
    let report = home.path + "/answers.json"
    let result = try run([
      "robustness", "--offline", "--nlu", nlu, "--write-transcripts", folder, "--report", report,
      "--threshold", "99%",
    ])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stdout.contains("the bot answered them as it answered their example"))
    #expect(result.stdout.contains("Variants the bot answered otherwise than their example:"))
    // The layouts: the offline assistant reads them, and says what it searched for.
    #expect(result.stdout.contains("  keyboard-layout          3  100%"), "\(result.stdout)")
    let json =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))
      as? [String: Any]
    #expect(json?["judged_by"] as? String == "answer")
    let failures = (json?["failures"] as? [[String: Any]])?.count ?? 0
    #expect(failures > 0)
    let replay = try run(["replay", folder, "--offline"])
    #expect(replay.status == 1)
    #expect(replay.stdout.contains("0 passed, \(failures) failed"), "\(replay.stdout)")
  }

  /// `--black-box` over the REST channel: an example whose answer changes from one
  /// conversation to the next cannot judge its variants, and is left out.
  @Test func anAnswerThatChangesByItselfIsLeftOut() throws {
    let count = Mutex(0)
    let server = try LoopbackHTTPServer { request in
      let text = request.bodyJSON?["message"] as? String ?? ""
      let n = count.withLock { n in
        n += 1
        return n
      }
      let answer = text == "hello" ? "Hi number \(n)" : "Residence permits"
      return .json(#"[{"recipient_id":"x","text":"\#(answer)"}]"#)
    }
    let nlu = home.path + "/greet.yml"
    try """
    nlu:
    - intent: greet
      examples: |
        - hello
    - intent: residence
      examples: |
        - residence permit
    """.write(toFile: nlu, atomically: true, encoding: .utf8)
    let result = try run([
      "robustness", "--black-box", "--server", server.baseURL, "--nlu", nlu, "--classes",
      "case-punctuation",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("2 of 2 variants kept (100%)"), "\(result.stdout)")
    #expect(
      result.stdout.contains(
        "Left out: 1 example the bot answers differently from one conversation to the next"))
    #expect(!server.requests.contains { $0.path == "/model/parse" }, "no API asked")
  }

  /// Nothing to vary is an error, not "0 of 0 kept (100%)" passing a threshold; a
  /// refusal part-way reports what was measured before it, and exits 2.
  @Test func nothingToVaryAndARefusalPartWay() throws {
    let server = try bot()
    let nlu = try nluFile()
    let none = try run([
      "robustness", "--server", server.baseURL, "--nlu", nlu, "--lang", "en", "--threshold", "90%",
    ])
    #expect(none.status == 2)
    #expect(none.stderr.contains("Nothing to vary: of 2 examples, none is in en"), "\(none.stderr)")
    #expect(server.requests.isEmpty, "nothing asked")
    let refusing = try bot(refuseAfter: 6)
    let partWay = try run([
      "robustness", "--server", refusing.baseURL, "--nlu", nlu, "--jobs", "1", "--report",
      home.path + "/partial.json",
    ])
    #expect(partWay.status == 2)
    #expect(partWay.stderr.contains("--enable-api"), "\(partWay.stderr)")
    #expect(partWay.stderr.contains("Stopped before the end"))
    #expect(partWay.stdout.contains("of 5 variants kept"), "\(partWay.stdout)")
    let json =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: home.path + "/partial.json")))
      as? [String: Any]
    #expect(json?["variants"] as? Double == 5)
  }
}
