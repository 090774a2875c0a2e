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
    #expect(
      nlu.contains(
        #"    - gde poluchit [vid na zhitelstvo]{"entity":"document","value":"вид на жительство"}"#
          + "\n"), "\(nlu)")
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
        "--threshold: '120%' is not valid; expected a percentage such as 90% or a number from 0"
      ),
      (
        ["robustness", "--server", server.baseURL, "--nlu", nlu, "--min-confidence", "nan"],
        "--min-confidence: 'nan' is not valid; expected a percentage"
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
    let folder = home.path + "/a-folder"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for (arguments, message) in [
      (
        ["robustness", "--offline", "--server", server.baseURL, "--nlu", nlu],
        "--offline and --server cannot be given together"
      ),
      (
        [
          "robustness", "--black-box", "--server", server.baseURL, "--nlu", nlu, "--min-confidence",
          "0.8",
        ],
        "--black-box and --min-confidence cannot be given together"
      ),
      (
        ["robustness", "--offline", folder, "--write-nlu", home.path + "/x.yml"],
        "--write-nlu needs examples with intents"
      ),
      (
        [
          "robustness", "--offline", "--nlu", nlu, "--report", "same.yml", "--write-nlu",
          "./same.yml",
        ],
        "--report and --write-nlu name the same file"
      ),
      (["robustness", "--offline", "--nlu", folder], "it is a folder, not a file"),
      (["robustness", "--offline", "--nlu", "/dev/zero"], "it is not UTF-8 text"),
    ] {
      let result = try run(arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
    // The API off: said for this command, status 2.
    let off = try bot(api: "off")
    let result = try run(["robustness", "--server", off.baseURL, "--nlu", nlu])
    #expect(result.status == 2)
    #expect(result.stderr.contains("does not answer POST /model/parse"), "\(result.stderr)")
    #expect(!result.stderr.contains("chat goes on"), "\(result.stderr)")
  }

  /// `--lang` lists the examples' languages: the command speaks the user's language.
  @Test func langChoosesExamplesNotTheLanguageSpoken() throws {
    let environment = home.environment(["MIGRANT_CHAT_LANG": "uk"])
    let bad = try ProcessRunner.run(
      ProcessRunner.binaryPath,
      ["robustness", "--offline", "--nlu", try nluFile(), "--lang", "de"],
      environment: environment)
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("--lang приймає мови"), "\(bad.stderr)")
    let russian = try ProcessRunner.run(
      ProcessRunner.binaryPath,
      ["robustness", "--offline", "--nlu", try nluFile(), "--lang", "ru", "--classes", "typo"],
      environment: environment)
    #expect(russian.stdout.hasPrefix("Зараховано "), "\(russian.stdout)")
  }

  /// Ctrl-C: what was measured is printed and saved, and the status is 130.
  @Test func ctrlCReportsWhatWasMeasuredWithStatus130() throws {
    let slow = try LoopbackHTTPServer { request in
      guard request.path == "/model/parse" else { return .json("[]") }
      Thread.sleep(forTimeInterval: 0.05)
      return .json(#"{"text":"","intent":{"name":"residence","confidence":0.9}}"#)
    }
    let report = home.path + "/interrupted.json"
    let process = Process()
    // Never the test run's own stdin: CI's may be a pipe that never ends.
    process.standardInput = FileHandle.nullDevice
    process.executableURL = URL(fileURLWithPath: ProcessRunner.binaryPath)
    process.arguments = [
      "robustness", "--server", slow.baseURL, "--nlu", try nluFile(), "--jobs", "1", "--rate", "5",
      "--report", report,
    ]
    process.environment = home.environment()
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // The sign: variants are being asked (the probe and the two examples as written
    // come first). Never a fixed wait: a busy machine starts the program late.
    #expect(waitUntil { slow.requests.count >= 6 }, "the run never asked a variant")
    kill(process.processIdentifier, SIGINT)
    let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 130, "\(stdout)\(stderr)")
    #expect(stderr.contains("Interrupted: the figures are of what was measured before."))
    #expect(stdout.contains(" variants kept"), "\(stdout)")
    // Said first: the figures are of part of the run (#49).
    #expect(stdout.hasPrefix("Stopped early: "), "\(stdout)")
    #expect(FileManager.default.fileExists(atPath: report), "the report is saved")
    let saved =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))
      as? [String: Any]
    #expect(saved?["complete"] as? Bool == false)
  }

  /// Ctrl-C as the run begins (as soon as the program hears it, while it still reads
  /// the examples): its line and 130, not a death by signal.
  @Test func ctrlCAsTheRunBeginsEndsWith130() throws {
    let server = try bot()
    let process = Process()
    // Never the test run's own stdin: CI's may be a pipe that never ends.
    process.standardInput = FileHandle.nullDevice
    process.executableURL = URL(fileURLWithPath: ProcessRunner.binaryPath)
    process.arguments = ["robustness", "--server", server.baseURL, "--nlu", try nluFile()]
    process.environment = home.environment()
    let output = PipeCollector()
    let errors = PipeCollector()
    process.standardOutput = output.pipe
    process.standardError = errors.pipe
    try process.run()
    // The sign: a handler for SIGINT exists (the program installs it first of all).
    #expect(waitUntil { catchesSignal(process.processIdentifier, SIGINT) })
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    let stderr = errors.all()
    #expect(process.terminationReason == .exit, "ended by the signal: \(stderr)")
    #expect(process.terminationStatus == 130, "\(output.all())\(stderr)")
    #expect(stderr.contains("Interrupted: the figures are of what was measured before."))
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
    // English on a Cyrillic layout only when asked by name (#49): жильё's one here.
    #expect(result.stdout.contains("  keyboard-layout          1  100%"), "\(result.stdout)")
    #expect(
      result.stdout.contains(
        "  en: no-diacritics, typo, case-punctuation (transliteration, ru-uk-mix: the examples have no Cyrillic; keyboard-layout: English on a Cyrillic layout, left out for English unless --classes names it; entity-swap: no example marks a city, name, number or date; negation: judged by intent only"
      ), "\(result.stdout)")
    let named = try run([
      "robustness", "--offline", "--nlu", nlu, "--classes", "keyboard-layout",
    ])
    #expect(named.stdout.contains("  keyboard-layout         3  100%"), "\(named.stdout)")
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
    // Every example left out (the bot understands none as written): why, and status 2.
    let latin = home.path + "/latin.yml"
    try "nlu:\n- intent: residence\n  examples: |\n    - residence permit\n".write(
      toFile: latin, atomically: true, encoding: .utf8)
    let leftOut = try run(["robustness", "--server", server.baseURL, "--nlu", latin])
    #expect(leftOut.status == 2)
    #expect(
      leftOut.stdout.hasPrefix("Left out: 1 example the bot does not understand"),
      "\(leftOut.stdout)")
    #expect(!leftOut.stdout.contains("0 of 0"))
    #expect(leftOut.stderr.contains("No example could be measured"), "\(leftOut.stderr)")
    let refusing = try bot(refuseAfter: 6)
    let partWay = try run([
      "robustness", "--server", refusing.baseURL, "--nlu", nlu, "--jobs", "1", "--report",
      home.path + "/partial.json",
    ])
    #expect(partWay.status == 2)
    #expect(partWay.stderr.contains("--enable-api"), "\(partWay.stderr)")
    #expect(partWay.stderr.contains("Stopped before the end"))
    // Asked: the nonsense probe, the two examples as written, three variants; refused.
    #expect(partWay.stdout.contains("0 of 3 variants kept"), "\(partWay.stdout)")
    let json =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: home.path + "/partial.json")))
      as? [String: Any]
    #expect(json?["variants"] as? Double == 3)
  }

  /// Entities judged (#49): swapped towns must come back as entities, a negation is
  /// reported apart, templates are minimum-functionality tests, --sample draws.
  @Test func entitiesSwapsNegationsAndTemplates() throws {
    let server = try LoopbackHTTPServer { request in
      guard request.path == "/model/parse" else { return .json("[]") }
      return .json(EvaluateEndToEndTests.parse(request.bodyJSON?["text"] as? String ?? ""))
    }
    let nlu = home.path + "/entities.yml"
    try """
    nlu:
    - intent: housing
      examples: |
        - I need a flat in [Brno](city)
        - a flat in [Prague](city:Praha) please
    - intent: greet
      examples: |
        - hello
    """.write(toFile: nlu, atomically: true, encoding: .utf8)
    let templates = home.path + "/templates.yml"
    try """
    lexicons:
      city: [Brno, Liberec]
    templates:
      - text: "a flat in {city}"
        intent: housing
        entities: [city]
    """.write(toFile: templates, atomically: true, encoding: .utf8)
    let report = home.path + "/entities.json"
    let written = home.path + "/entities-nlu.yml"
    let result = try run([
      "robustness", "--server", server.baseURL, "--nlu", nlu, "--classes",
      "entity-swap,negation,case-punctuation", "--templates", templates, "--report", report,
      "--write-nlu", written,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    // The loopback bot knows Brno and Prague only, as written (its regex is case
    // sensitive): the towns swapped in but Brno are lost, and so is "brno".
    #expect(result.stdout.contains("  entity-swap              4   25%"), "\(result.stdout)")
    #expect(
      result.stdout.contains(
        "I need a flat in Brno → I need a flat in Liberec: housing 0.95; lost city=liberec"))
    #expect(
      result.stdout.contains(
        "I need a flat in Brno → i need a flat in brno: housing 0.95; lost city=brno"))
    #expect(result.stdout.contains("7 variants kept the intent but lost or changed an entity"))
    #expect(
      result.stdout.contains(
        "Negation (directional, not counted): 1 example negated; the bot took 1"))
    #expect(
      result.stdout.contains(
        "a flat in {city} (housing): 1 of 2; “a flat in Liberec”: housing 0.95, lost city"))
    let json =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))
      as? [String: Any]
    #expect(json?["lost_entity"] as? Int == 7)
    let nluText = try String(contentsOfFile: written, encoding: .utf8)
    // The swapped town is marked as the new entity, without the old value.
    #expect(nluText.contains("    - I need a flat in ["), "\(nluText)")
    #expect(!nluText.contains("negat") && !nluText.contains("don't"), "\(nluText)")
    // --sample: one example of three, said.
    let sampled = try run([
      "robustness", "--server", server.baseURL, "--nlu", nlu, "--sample", "1", "--classes",
      "case-punctuation",
    ])
    #expect(sampled.stderr.contains("Asking about 1 of 3 examples, drawn with seed 1 (--sample)."))
    // Templates judged by answers: refused before anything is asked.
    let blackBox = try run(["robustness", "--offline", "--nlu", nlu, "--templates", templates])
    #expect(blackBox.status == 2)
    #expect(blackBox.stderr.contains("--offline and --templates cannot be given together"))
  }
}
