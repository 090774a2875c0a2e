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

  /// A record folder that is a file, or a report in a missing folder: said before
  /// exploring, in the user's language, with exit status 2.
  @Test func outputsThatCannotBeWrittenAreSaidFirst() throws {
    let file = home.path + "/plain"
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    let folder = try run(["explore", "--offline", "--record-dir", file])
    #expect(folder.status == 2)
    #expect(folder.stderr.contains("\(file) is not a folder"), "\(folder.stderr)")
    #expect(!folder.stdout.contains("en: messages"), "nothing explored")
    let report = try run(["explore", "--offline", "--report", home.path + "/no/r.json"])
    #expect(report.status == 2 && report.stderr.contains("no such folder"), "\(report.stderr)")
    // The record folder is made, not the folders above it (a typo is an error).
    let tree = try run(["explore", "--offline", "--record-dir", home.path + "/nodir/sub"])
    #expect(tree.status == 2 && tree.stderr.contains("no such folder"), "\(tree.stderr)")
    #expect(!FileManager.default.fileExists(atPath: home.path + "/nodir"))
    // A file where a folder should be is named as such.
    let under = try run(["explore", "--offline", "--report", file + "/r.json"])
    #expect(
      under.status == 2 && under.stderr.contains("\(file) is not a folder"), "\(under.stderr)")
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

  /// A bot (Ukrainian) whose "Зламане" button gets the fallback, until it is fixed.
  final class FixableBot: @unchecked Sendable {
    let lock = NSLock()
    var fixed = false
    var server: LoopbackHTTPServer?

    init() throws {
      server = try LoopbackHTTPServer { [unowned self] request in
        let message = request.bodyJSON?["message"] as? String ?? ""
        let fixed = self.lock.withLock { self.fixed }
        switch message {
        case "/start":
          return .json(
            #"[{"text":"Привіт! Оберіть тему.","buttons":[{"title":"Страхування","payload":"/health"},{"title":"Зламане","payload":"/broken"}]}]"#
          )
        case "/health":
          return .json(#"[{"text":"Медичне страхування: зверніться до роботодавця."}]"#)
        case "/broken" where fixed: return .json(#"[{"text":"Житло: шукайте оголошення."}]"#)
        default: return .json(#"[{"text":"Вибачте, я не зрозумів."}]"#)
        }
      }
    }
  }

  /// A path through a defect is recorded as an expected failure that names it, not as
  /// a passing test of the defect: replay says XFAIL while the bot is broken, and FIXED
  /// (still exit 0) once it is fixed. An earlier run's files do not stay behind.
  @Test func recordedDefectsAreExpectedFailures() throws {
    let bot = try FixableBot()
    let url = try #require(bot.server?.baseURL)
    let paths = home.path + "/paths"
    try FileManager.default.createDirectory(atPath: paths, withIntermediateDirectories: true)
    try Data("name: old\nsteps: []\n".utf8).write(to: URL(fileURLWithPath: paths + "/uk-0099.yaml"))
    let explored = try run([
      "explore", "--server", url, "--lang", "uk", "--record-dir", paths, "--report",
      home.path + "/r.json",
    ])
    #expect(explored.status == 1, "the fallback is a finding: \(explored.stdout)")
    #expect(explored.stdout.contains("Вибачте, я не зрозумів."), "findings quote the answer")
    let files = try FileManager.default.contentsOfDirectory(atPath: paths).sorted()
    #expect(files == ["uk-0001.yaml", "uk-0002.yaml"], "\(files)")
    let recorded = try files.map { try String(contentsOfFile: paths + "/" + $0, encoding: .utf8) }
    let broken = try #require(recorded.first { $0.contains("name: \"explore uk: Зламане\"") })
    #expect(broken.contains("expected_failure: \"fallback: "), "\(broken)")
    let sound = try #require(recorded.first { $0.contains("name: \"explore uk: Страхування\"") })
    #expect(!sound.contains("expected_failure"), "\(sound)")

    let before = try run(["replay", paths, "--server", url])
    #expect(before.status == 0, "\(before.stdout)")
    #expect(before.stdout.contains("XFAIL  explore uk: Зламане"), "\(before.stdout)")
    #expect(before.stdout.contains("1 passed, 0 failed, 1 expected failure"), "\(before.stdout)")
    bot.lock.withLock { bot.fixed = true }
    let after = try run(["replay", paths, "--server", url])
    #expect(after.status == 0, "\(after.stdout)")
    #expect(after.stdout.contains("FIXED  explore uk: Зламане"), "\(after.stdout)")
    #expect(after.stdout.contains("the bot may have been fixed"), "\(after.stdout)")
  }

  /// A bot with a form asking for an amount (no buttons), over HTTP without the API.
  static func formBot() throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer { request in
      let message = request.bodyJSON?["message"] as? String ?? ""
      switch message {
      case "/start":
        return .json(
          #"[{"text":"Welcome","buttons":[{"title":"Transfer","payload":"/transfer"},{"title":"Bye","payload":"/bye"}]}]"#
        )
      case "/transfer": return .json(#"[{"text":"How much money do you want to transfer?"}]"#)
      case "/bye": return .json(#"[{"text":"Goodbye."}]"#)
      case let text where Int(text) != nil:
        return .json(#"[{"text":"Sent \#(text) CZK."}]"#)
      default: return .json(#"[{"text":"Sorry, I did not get that."}]"#)
      }
    }
  }

  /// `--answers`: the form's question is answered and walked past, the typed answer is
  /// recorded as typed and replays green; without it the question is a note, not a dead
  /// end. Two `--start`s: each is walked, and paths name theirs.
  @Test func formsAreWalkedWithAnswers() throws {
    let bot = try Self.formBot()
    let plain = try run(["explore", "--server", bot.baseURL, "--lang", "en"])
    #expect(plain.status == 0, "a question is a note: \(plain.stdout)")
    #expect(
      plain.stdout.contains("Needs an answer: “How much money do you want to transfer?”"),
      "\(plain.stdout)")
    let answers = home.path + "/answers.yml"
    try Data(
      "answers:\n  - prompt: how much\n    answers: [\"50\"]\n  - slot: travellers_name\n    answers: [x]\n"
        .utf8
    ).write(to: URL(fileURLWithPath: answers))
    let paths = home.path + "/form-paths"
    let answered = try run([
      "explore", "--server", bot.baseURL, "--lang", "en", "--answers", answers, "--start",
      "/start", "--start", "/transfer", "--record-dir", paths, "--report", home.path + "/f.json",
    ])
    #expect(answered.status == 0, "\(answered.stdout)\(answered.stderr)")
    #expect(!answered.stdout.contains("Needs an answer"), "\(answered.stdout)")
    // The entry that answered nothing is named, and why a slot entry cannot work here.
    #expect(
      answered.stderr.contains(
        "--answers: these entries answered no question: \(answers):4 (slot: travellers_name)."),
      "\(answered.stderr)")
    #expect(answered.stderr.contains("start Rasa with --enable-api, or name the question"))
    let findings = try json(home.path + "/f.json")["findings"] as? [[String: Any]] ?? []
    let deadEnds = findings.filter { $0["kind"] as? String == "dead-end" }.compactMap {
      $0["path"] as? [String]
    }
    // The answer is first reached from the second start (a shorter path): one node.
    #expect(deadEnds.contains(["/transfer", "“50”"]), "\(deadEnds)")
    #expect(deadEnds.contains(["/start", "Bye"]), "\(deadEnds)")
    let recorded = try FileManager.default.contentsOfDirectory(atPath: paths).map {
      try String(contentsOfFile: paths + "/" + $0, encoding: .utf8)
    }
    #expect(
      recorded.contains { $0.contains("user: \"50\"") && $0.contains("Sent 50 CZK.") },
      "\(recorded)")
    let replay = try run(["replay", paths, "--server", bot.baseURL])
    #expect(replay.status == 0, "\(replay.stdout)")
    #expect(replay.stdout.contains("\(recorded.count) passed, 0 failed"), "\(replay.stdout)")

    try Data("answers:\n  - prompt: how much\n    answer: [50]\n".utf8).write(
      to: URL(fileURLWithPath: answers))
    let typo = try run(["explore", "--server", bot.baseURL, "--answers", answers])
    #expect(typo.status == 2)
    #expect(
      typo.stderr.contains("Cannot read --answers: \(answers):3:5: ")
        && typo.stderr.contains("answer"), "\(typo.stderr)")
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
    let noAnswers = try run(["explore", "--offline", "--answers", home.path + "/none.yml"])
    #expect(noAnswers.status == 2)
    #expect(noAnswers.messages.contains("There is no file or directory"), "\(noAnswers.messages)")
    // An empty start would send nothing, an empty --skip-button skip nothing (#46).
    for option in ["--start", "--skip-button"] {
      let empty = try run(["explore", "--offline", option, " "])
      #expect(empty.status == 2)
      #expect(
        empty.messages.contains("\(option) needs a value that is not empty"), "\(empty.messages)")
    }
  }

  /// A start answered with no buttons is a path of one turn: recorded, and replays green.
  @Test func aStartAnsweredWithoutButtonsIsRecorded() throws {
    let bot = try Self.formBot()
    let paths = home.path + "/start-only"
    let result = try run([
      "explore", "--server", bot.baseURL, "--lang", "en", "--start", "/bye", "--record-dir", paths,
    ])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    let files = try FileManager.default.contentsOfDirectory(atPath: paths)
    #expect(files == ["en-0001.yaml"], "\(files)")
    let recorded = try String(contentsOfFile: paths + "/en-0001.yaml", encoding: .utf8)
    #expect(recorded.contains("Goodbye."), "\(recorded)")
    let replay = try run(["replay", paths, "--server", bot.baseURL])
    #expect(replay.status == 0, "\(replay.stdout)")
    #expect(replay.stdout.contains("1 passed, 0 failed"), "\(replay.stdout)")
  }

  /// A --skip-button that named no button offered is a typo: said after the walk, and a
  /// walk cut by --max-turns says what it did not reach may still be there.
  @Test func aSkipButtonThatSkippedNothingIsSaid() throws {
    let bot = try Self.formBot()
    let result = try run([
      "explore", "--server", bot.baseURL, "--lang", "en", "--skip-button", "bye",
      "--skip-button", "Talk to a human",
    ])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stderr.contains(
        "--skip-button: no button offered on the way was titled, or had the payload, “Talk to a human”"
      ),
      "\(result.stderr)")
    #expect(!result.stderr.contains("“bye”"), "\(result.stderr)")
    #expect(!result.stderr.contains("stopped at a limit"), "\(result.stderr)")
    let cut = try run([
      "explore", "--server", bot.baseURL, "--lang", "en", "--skip-button", "Talk to a human",
      "--max-turns", "2",
    ])
    #expect(cut.stderr.contains("The walk stopped at a limit"), "\(cut.stderr)")
  }
}
