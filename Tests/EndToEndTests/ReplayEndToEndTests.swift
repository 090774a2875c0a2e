import Foundation
import Synchronization
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

  /// A card check whose id is not in the local directory says where cards are looked
  /// up (here, not on the bot's server) and how to give it the bot's data.
  @Test func aCardMissingLocallySaysWhereCardsComeFrom() throws {
    let bot = try LoopbackHTTPServer { _ in
      .json(#"[{"text":"These can help:","custom":{"contacts":[4242424]}}]"#)
    }
    let transcript = try write(
      "cards.yaml",
      """
      name: Cards
      language: en
      steps:
        - user: help
          bot:
            - contacts:
                - {name: Somewhere}
      """)
    let result = try replay([transcript, "--server", bot.baseURL])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains(
        "contact 4242424 is not in the local directory, where replay looks up the ids of card checks"
      ), "\(result.stdout)")
    #expect(result.stdout.contains("migrant-chat contacts sync --data-api URL"))
  }

  /// Where the reports go is checked before anything runs; the run's own input and
  /// a database are never written over.
  /// `--ignore REGEX` from the command line masks a value that changes on every answer;
  /// without it the same transcript fails; a pattern that matches nothing at all or
  /// does not compile is a translated usage error.
  @Test func ignoreMasksAChangingValue() throws {
    let counter = Mutex(100)
    let bot = try LoopbackHTTPServer { _ in
      let value = counter.withLock { value in
        defer { value += 1 }
        return value
      }
      return .json(#"[{"text":"Your balance is \#(value) CZK"}]"#)
    }
    let transcript = try write(
      "balance.yaml",
      """
      name: Balance
      steps:
        - user: balance
          bot:
            - text: Your balance is 1 CZK
      """)
    let strict = try replay([transcript, "--server", bot.baseURL])
    #expect(strict.status == 1, "\(strict.stdout)")
    let masked = try replay([transcript, "--server", bot.baseURL, "--ignore", "[0-9]+"])
    #expect(masked.status == 0, "\(masked.stdout)\(masked.stderr)")
    #expect(masked.stdout.contains("1 passed, 0 failed"))
    let empty = try replay([transcript, "--server", bot.baseURL, "--ignore", "[0-9]*"])
    #expect(empty.status == 2)
    #expect(empty.stderr.contains("'[0-9]*' matches the empty text"), "\(empty.stderr)")
    let broken = try replay([transcript, "--server", bot.baseURL, "--ignore", "(", "--lang", "ru"])
    #expect(broken.status == 2)
    #expect(broken.stderr.contains("--ignore ожидает регулярное выражение"), "\(broken.stderr)")
  }

  @Test func aReportThatCannotBeWrittenIsSaidBeforeTheRun() throws {
    let transcript = try write("pass.yaml", Self.passing)
    let missing = try replay(["--offline", "--report", home.path + "/no/r.json", transcript])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("Could not write the report: \(home.path)/no: no such folder"))
    #expect(!missing.stdout.contains("passed"), "nothing ran")
    let own = try replay(["--offline", "--junit", transcript, transcript])
    #expect(own.status == 2 && own.stderr.contains("a file this run reads"), "\(own.stderr)")
    #expect(try String(contentsOfFile: transcript, encoding: .utf8) == Self.passing)
    let database = try write("user.sqlite", "SQLite format 3\0rest")
    let db = try replay(["--offline", "--report", database, transcript])
    #expect(db.status == 2 && db.stderr.contains("SQLite database"), "\(db.stderr)")
    #expect(try String(contentsOfFile: database, encoding: .utf8) == "SQLite format 3\0rest")
    // `-` is standard output, which then holds the report alone (the summary: stderr).
    let stdout = try replay(["--offline", "--report", "-", transcript])
    #expect(stdout.status == 0)
    let json = try JSONSerialization.jsonObject(with: Data(stdout.stdout.utf8)) as? [String: Any]
    #expect(json?["passed"] as? Int == 1, "\(stdout.stdout)")
    #expect(stdout.stderr.contains("1 passed"))
    #expect(!FileManager.default.fileExists(atPath: home.path + "/-"))
    // A transcript found in a folder is an input too; so is the interval log's path.
    let folder = home.path + "/suite"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let inside = folder + "/a.yaml"
    try Data(Self.passing.utf8).write(to: URL(fileURLWithPath: inside))
    let found = try replay(["--offline", "--junit", inside, folder])
    #expect(found.status == 2 && found.stderr.contains("a file this run reads"), "\(found.stderr)")
    let hlog = try replay(["--offline", "--duration", "1", "--hlog", inside, folder])
    #expect(hlog.status == 2, "\(hlog.stderr)")
    let hlogDatabase = try replay(["--offline", "--duration", "1", "--hlog", database, folder])
    #expect(hlogDatabase.status == 2 && hlogDatabase.stderr.contains("SQLite database"))
    #expect(try String(contentsOfFile: inside, encoding: .utf8) == Self.passing)
    // Two outputs into one file: one would be lost.
    let twice = try replay([
      "--offline", "--report", home.path + "/same", "--junit", home.path + "/same", transcript,
    ])
    #expect(twice.status == 2 && twice.stderr.contains("named for two outputs"), "\(twice.stderr)")
  }

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
    #expect(result.stdout.contains("\n1 passed, 1 failed\nbot latency per turn (3 turns): p50 "))
    // Reports hold what the user typed: 0600, like every file with a user's words.
    #expect(try fileMode(home.path + "/j.xml") == 0o600)
    #expect(try fileMode(home.path + "/r.json") == 0o600)
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

  /// A bad file in a directory does not stop the others: every bad file is named (its
  /// problem in the user's language, the YAML reader's text quoted), the good ones run,
  /// and the exit status is 1.
  @Test func badFilesAreReportedAndTheOthersRun() throws {
    let folder = home.path + "/suite"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try Self.passing.write(toFile: folder + "/a.yaml", atomically: true, encoding: .utf8)
    try "name: [unclosed\n".write(toFile: folder + "/b.yaml", atomically: true, encoding: .utf8)
    try "name: t\nsteps:\n  - usr: hi\n".write(
      toFile: folder + "/c.yaml", atomically: true, encoding: .utf8)
    // Nothing in it, only `---`, a folder named like a file, a binary file: each is named
    // with why (an empty one was passed over silently, and CI went green).
    try "".write(toFile: folder + "/d.yaml", atomically: true, encoding: .utf8)
    try "---\n".write(toFile: folder + "/e.yml", atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(
      atPath: folder + "/f.yaml", withIntermediateDirectories: true)
    try Data([0x6E, 0x61, 0x00, 0xFF, 0xFE, 0x01]).write(
      to: URL(fileURLWithPath: folder + "/g.yaml"))
    let result = try replay([folder, "--offline", "--lang", "uk"])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    // The report is in the user's language too, with the plural rules and a decimal comma.
    #expect(result.stdout.contains("ПРОЙДЕНО  Greeting  ("))
    #expect(result.stdout.contains(" с)\n"))
    #expect(result.stdout.contains("1 пройдено, 0 провалено"))
    #expect(result.messages.contains("b.yaml"))
    #expect(result.messages.contains("це неправильний YAML (помилка читання YAML: «"))
    #expect(result.messages.contains("c.yaml:3:5"))
    #expect(result.messages.contains("d.yaml:1: у файлі немає транскрипту"))
    #expect(result.messages.contains("e.yml:1: у файлі немає транскрипту"))
    #expect(result.messages.contains("f.yaml:1: це каталог, а не файл транскрипту"))
    #expect(result.messages.contains("g.yaml:1: це не текстовий файл"))
    #expect(!result.messages.contains("\u{FFFD}"))
    #expect(result.messages.contains("6 файлів не вдалося прочитати (див. вище); їх не запускали."))
    // Alone, an empty file is named as such, not "no transcripts found".
    let alone = try replay([folder + "/d.yaml", "--offline"])
    #expect(alone.status == 2)
    #expect(alone.messages.contains("the file holds no transcript"), "\(alone.messages)")
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
    #expect(try fileMode(recorded) == 0o600)
    #expect(try fileMode(saved) == 0o600)
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

  /// A recording that cannot be written is an error (shown once, not every turn) and
  /// fails the run; `/save` to a bare file name writes in the current directory.
  @Test func savingFailuresAreErrorsAndBareNamesWork() throws {
    let blocker = home.path + "/not-a-folder"
    try "x".write(toFile: blocker, atomically: true, encoding: .utf8)
    let run = try chat(
      ["--offline", "--record", blocker + "/rec.yaml"], input: "1\n2\n/save \(blocker)/s.yaml\n",
      home: home)
    #expect(run.status == 1)
    let failures =
      run.stderr.components(separatedBy: "Could not save the conversation to").count - 1
    #expect(failures == 2, "once for --record, once for /save: \(run.stderr)")
    #expect(run.stderr.replacingOccurrences(of: "\n", with: "").contains("\(blocker)/rec.yaml"))
    #expect(!run.messages.contains("settings"))

    let script = #"cd "$1" && printf '1\n/save bare.yaml\n' | "$0" --offline --record rec.yaml"#
    let bare = try ProcessRunner.run(
      "/bin/bash", ["-c", script, ProcessRunner.binaryPath, home.path],
      environment: home.environment())
    #expect(bare.status == 0, "\(bare.stderr)")
    #expect(try fileMode(home.path + "/bare.yaml") == 0o600)
    #expect(try fileMode(home.path + "/rec.yaml") == 0o600)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: home.path)
      .filter { $0.hasSuffix(".tmp") }
    #expect(leftovers.isEmpty)
  }

  private func fileMode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  @Test func saveNeedsAFileName() throws {
    let result = try chat(["--offline", "--start-message", ""], input: "/save\n", home: home)
    #expect(result.status == 1)
    #expect(result.messages.contains("/save needs a file name"))
  }

  static let rasaFile = """
    metadata:
      - ukrainian:
          language: uk
    fixtures:
      - premium:
          - tier: premium
    test_cases:
      - test_case: greets
        steps:
          - user: hello
          - utter: utter_greet
          - bot: Hi there
          - slot_was_set:
              - greeted: true
              - mood
      - test_case: greets in ukrainian
        metadata: ukrainian
        fixtures: [premium]
        steps:
          - user: привіт
          - bot: Вітаю
    """

  /// A Rasa-like bot with its HTTP API: a tracker per sender with the events Rasa records.
  func rasaLikeBot(withAPI: Bool) throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer { request in
      if request.path.hasPrefix("/conversations/") {
        guard withAPI else { return .http(status: 404, body: Data("Not Found".utf8)) }
        return .json(
          #"{"events":[{"event":"user","text":"hello"},{"event":"action","name":"utter_greet"},{"event":"bot","text":"Hi there","metadata":{"utter_action":"utter_greet"}},{"event":"slot","name":"greeted","value":true},{"event":"slot","name":"mood","value":"ok"}]}"#
        )
      }
      let body = request.bodyJSON ?? [:]
      let language = body["language"] as? String ?? "en"
      return .json(
        language == "uk"
          ? #"[{"text":"Вітаю"}]"#
          : #"[{"text":"(typing)"},{"text":"Hi there"},{"image":"https://i.example/w.png"}]"#)
    }
  }

  @Test func rasaEndToEndFilesWithTheTracker() throws {
    let bot = try rasaLikeBot(withAPI: true)
    let file = try write("e2e.yml", Self.rasaFile)
    let result = try replay([file, "--server", bot.baseURL])
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stdout.contains("PASS  greets  ("))
    #expect(result.stdout.contains("PASS  greets in ukrainian  ("))
    #expect(result.stdout.contains("2 passed, 0 failed\n"), "the fixtures were set, not skipped")
    let languages = bot.requests.compactMap { $0.bodyJSON?["language"] as? String }
    #expect(languages.contains("uk"))
    // The fixture's slot went in through the tracker's events API before the message.
    let posts = bot.requests.filter { $0.method == "POST" && $0.path.contains("/tracker/events") }
    #expect(posts.count == 1)
    let fixture = posts.first.map { String(decoding: $0.body, as: UTF8.self) } ?? ""
    #expect(fixture == #"[{"event":"slot","name":"tier","value":"premium"}]"#, "\(fixture)")
    let ukrainian = bot.requests.first { ($0.bodyJSON?["message"] as? String) == "привіт" }
    #expect(((ukrainian?.bodyJSON?["metadata"] as? [String: Any])?["language"] as? String) == "uk")
    if let post = posts.first, let message = ukrainian {
      #expect(
        post.path.contains(message.bodyJSON?["sender"] as? String ?? "-"), "the same conversation")
    }
  }

  /// `--coverage DOMAIN`: what of the domain the conversations reached, read from their
  /// trackers, in all and per language, in text and JSON; refused before the run when
  /// the bot gives no trackers.
  @Test func coverageFromTheTrackers() throws {
    let bot = try rasaLikeBot(withAPI: true)
    let file = try write("e2e.yml", Self.rasaFile)
    let domain = try write(
      "domain.yml",
      """
      intents:
        - greet
        - goodbye:
            use_entities: []
      responses:
        utter_greet: [{text: Hi there}]
        utter_bye: [{text: Bye}]
      actions: [action_check, utter_greet]
      slots:
        greeted: {type: bool, mappings: [{type: custom}]}
        mood: {type: text, mappings: [{type: custom}]}
        tier: {type: text, mappings: [{type: custom}]}
      """)
    let report = home.path + "/coverage.json"
    let result = try replay([
      file, "--server", bot.baseURL, "--coverage", domain, "--coverage-report", report,
    ])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stdout.contains(
        "Coverage of \(domain), from 2 conversations' trackers: intents 0/2 (0%), responses 1/2 (50%), actions 0/1 (0%), slots 2/3 (67%)\n"
      ), "\(result.stdout)")
    #expect(
      result.stdout.contains("  uk: intents 0/2 (0%), responses 1/2 (50%)"), "\(result.stdout)")
    #expect(result.stdout.contains("  not reached, responses: utter_bye\n"), "\(result.stdout)")
    #expect(result.stdout.contains("  not reached, slots: tier\n"), "\(result.stdout)")
    let json =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))
      as? [String: Any] ?? [:]
    let slots = (json["kinds"] as? [String: Any])?["slots"] as? [String: Any]
    #expect(slots?["reached"] as? [String] == ["greeted", "mood"])
    #expect(slots?["not_reached"] as? [String] == ["tier"])
    #expect((json["languages"] as? [String: Any])?.keys.sorted() == ["en", "uk"])

    // Without the API: said before anything is sent, exit 2.
    let noAPI = try rasaLikeBot(withAPI: false)
    let refused = try replay([file, "--server", noAPI.baseURL, "--coverage", domain])
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("with Rasa's --enable-api"), "\(refused.stderr)")
    #expect(!noAPI.requests.contains { $0.path.contains("webhook") }, "nothing was replayed")
    let missing = try replay([file, "--server", bot.baseURL, "--coverage", home.path + "/no.yml"])
    #expect(missing.status == 2 && missing.stderr.contains("There is no file"), "\(missing.stderr)")
    let load = try replay([file, "--server", bot.baseURL, "--coverage", domain, "--rate", "5"])
    #expect(load.status == 2 && load.stderr.contains("not with --rate"), "\(load.stderr)")
  }

  /// A Rasa-like model behind the HTTP API: greet → utter_greet, a form runs while active,
  /// else listen. Without the API, every path is 404.
  func storyModel(withAPI: Bool) throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer { request in
      guard withAPI else { return .http(status: 404, body: Data("Not Found".utf8)) }
      if request.path == "/domain" { return .json(#"{"forms": {}, "slots": {}}"#) }
      guard request.path == "/model/predict",
        let events = try? JSONSerialization.jsonObject(with: request.body) as? [[String: Any]]
      else { return .http(status: 400, body: Data()) }
      let last = events.last ?? [:]
      let intent = ((last["parse_data"] as? [String: Any])?["intent"] as? [String: Any])?["name"]
      let action = intent as? String == "greet" ? "utter_greet" : "action_listen"
      let scores = ["action_listen", "utter_greet", "utter_happy"].map {
        "{\"action\": \"\($0)\", \"score\": \($0 == action ? 0.9 : 0.05)}"
      }
      return .json(
        #"{"scores": ["# + scores.joined(separator: ",") + #"], "policy": "RulePolicy"}"#)
    }
  }

  static let storiesFile = """
    version: "3.1"
    stories:
    - story: greets
      steps:
      - user: |
          hello there
        intent: greet
      - action: utter_greet
    - story: wrong on purpose
      steps:
      - intent: greet
      - action: utter_happy
    """

  /// `replay` judges Rasa's test stories through the model's API, as rasa test core
  /// does: the wrong action fails its story at its line, `--failed-stories` writes it as
  /// Rasa writes failed_test_stories.yml, the report holds every prediction.
  @Test func testStoriesAreJudgedByTheModel() throws {
    let model = try storyModel(withAPI: true)
    let file = try write("test_stories.yml", Self.storiesFile)
    let failed = home.path + "/failed.yml"
    let result = try replay([
      file, "--server", model.baseURL, "--failed-stories", failed, "--report",
      home.path + "/r.json", "--junit", home.path + "/j.xml",
    ])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("PASS  greets  ("), "\(result.stdout)")
    #expect(result.stdout.contains("FAIL  wrong on purpose  ("), "\(result.stdout)")
    #expect(result.stdout.contains("  at \(file):12\n"), "\(result.stdout)")
    #expect(
      result.stdout.contains(
        "expected utter_happy, the model predicted utter_greet (RulePolicy, 0.90)"),
      "\(result.stdout)")
    #expect(result.stdout.contains("1 passed, 1 failed"), "\(result.stdout)")
    let written = try String(contentsOfFile: failed, encoding: .utf8)
    #expect(
      written == """
        version: "3.1"
        stories:
        - story: "wrong on purpose (\(file))"
          steps:
          - intent: greet
          - action: utter_happy  # predicted: utter_greet

        """, "\(written)")
    let report = try String(contentsOfFile: home.path + "/r.json", encoding: .utf8)
    #expect(
      report.contains(#""expected":"utter_happy""#)
        && report.contains(#""predicted":"utter_greet""#))
    let junit = try String(contentsOfFile: home.path + "/j.xml", encoding: .utf8)
    #expect(junit.contains("<failure") && junit.contains("wrong on purpose"))
    // The user's text was sent nowhere: the story's own intent stands, as in rasa test core.
    #expect(!model.requests.contains { $0.path.contains("webhook") || $0.path == "/model/parse" })

    let noAPI = try storyModel(withAPI: false)
    let refused = try replay([file, "--server", noAPI.baseURL])
    #expect(refused.status == 2)
    #expect(
      refused.stderr.contains("Test stories are judged by the bot's model through Rasa's HTTP API")
        && refused.stderr.contains("/domain: HTTP 404"), "\(refused.stderr)")
    let offline = try replay([file, "--offline"])
    #expect(
      offline.status == 2 && offline.stderr.contains("not by the offline assistant"),
      "\(offline.stderr)")
    #expect(result.stderr.contains("Failed stories written to \(failed): 1"), "\(result.stderr)")
    let repeated = try replay([file, "--server", model.baseURL, "--repeat", "2"])
    #expect(repeated.status == 2 && repeated.stderr.contains("not with --repeat"))
    // A server that is not running is not one without the API: no --enable-api advice.
    let down = try replay([file, "--server", "http://127.0.0.1:\(unusedLoopbackPort())"])
    #expect(down.status == 2, "\(down.stderr)")
    #expect(
      down.stderr.contains("could not be reached") && !down.stderr.contains("--enable-api"),
      "\(down.stderr)")
    // Stories judged by prediction make no conversations: --coverage would measure 0 %.
    let domain = try write("domain.yml", "intents:\n- greet\n")
    let covered = try replay([file, "--server", model.baseURL, "--coverage", domain])
    #expect(
      covered.status == 2 && covered.stderr.contains("add --stories execute"), "\(covered.stderr)")
    // An empty output path is said before the run, not after it (hiding its verdict).
    for option in ["--failed-stories", "--junit", "--report"] {
      let empty = try replay([file, "--server", model.baseURL, option, ""])
      #expect(empty.status == 2, "\(option): \(empty.stdout)")
      #expect(empty.stderr.contains("an empty path names no file"), "\(empty.stderr)")
      #expect(!empty.stdout.contains("PASS"), "nothing ran: \(empty.stdout)")
    }
  }

  /// A Rasa-like bot that runs what it is sent: "hello there" or `/greet` runs
  /// utter_greet; each conversation's tracker (user, actions, listen) is kept per sender.
  func executingBot() throws -> LoopbackHTTPServer {
    let trackers = Mutex<[String: [String]]>([:])
    return try LoopbackHTTPServer { request in
      if request.path == "/domain" { return .json(#"{"forms": {}, "slots": {}}"#) }
      if request.path == "/webhooks/rest/webhook", let body = request.bodyJSON,
        let sender = body["sender"] as? String, let message = body["message"] as? String
      {
        let greet = message == "hello there" || message == "/greet"
        let user =
          #"{"event": "user", "text": "\#(message)", "parse_data": {"intent": {"name": "\#(greet ? "greet" : "other")"}}}"#
        let actions = (greet ? ["utter_greet"] : []) + ["action_listen"]
        trackers.withLock {
          $0[sender, default: []] +=
            [user]
            + actions.map {
              #"{"event": "action", "name": "\#($0)", "policy": "RulePolicy", "confidence": 1.0}"#
            }
        }
        return .json(greet ? #"[{"text": "Hey!"}]"# : "[]")
      }
      let parts = request.path.split(separator: "/")
      if parts.count == 3, parts[0] == "conversations", parts[2] == "tracker" {
        let events = trackers.withLock { $0[String(parts[1])] ?? [] }
        return .json(#"{"events": ["# + events.joined(separator: ",") + "]}")
      }
      return .http(status: 404, body: Data())
    }
  }

  /// `--stories execute`: each user line is sent as written, an intent as its payload,
  /// and the actions the tracker shows the bot ran are compared with the story's; the
  /// first difference fails the story, marked `# executed:` in --failed-stories.
  @Test func testStoriesAreExecutedAgainstTheBot() throws {
    let bot = try executingBot()
    let file = try write("test_stories.yml", Self.storiesFile)
    let failed = home.path + "/failed.yml"
    let result = try replay([
      file, "--stories", "execute", "--server", bot.baseURL, "--failed-stories", failed,
    ])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("PASS  greets  ("), "\(result.stdout)")
    #expect(
      result.stdout.contains(
        "expected utter_happy, the bot ran utter_greet (RulePolicy, 1.00); nothing more was sent"),
      "\(result.stdout)")
    let sent = bot.requests.filter { $0.path == "/webhooks/rest/webhook" }.compactMap {
      $0.bodyJSON?["message"] as? String
    }
    #expect(sent == ["hello there", "/greet"], "\(sent)")
    #expect(!bot.requests.contains { $0.path == "/model/predict" }, "nothing is predicted")
    let written = try String(contentsOfFile: failed, encoding: .utf8)
    #expect(written.contains("  - action: utter_happy  # executed: utter_greet\n"), "\(written)")
    let bogus = try replay([file, "--stories", "run", "--server", bot.baseURL])
    #expect(bogus.status == 2 && bogus.stderr.contains("predict, execute"), "\(bogus.stderr)")
  }

  @Test func rasaChecksAreSkippedWithoutTheAPIAndFailWhenWrong() throws {
    let noAPI = try rasaLikeBot(withAPI: false)
    let file = try write("e2e.yml", Self.rasaFile)
    // Fixtures need the API: the test case that has them fails, saying how to go on.
    let noFixtures = try replay([file, "--server", noAPI.baseURL])
    #expect(noFixtures.status == 1, "\(noFixtures.stdout)")
    #expect(
      noFixtures.stdout.contains(
        "\(file):18: fixtures (premium) could not be set: HTTP 404 (no --enable-api?)"),
      "\(noFixtures.stdout)")
    #expect(noFixtures.stdout.contains("--skip-fixtures replays without them"))
    let skipped = try replay([file, "--server", noAPI.baseURL, "--skip-fixtures"])
    #expect(skipped.status == 0, "\(skipped.stdout)")
    #expect(skipped.stdout.contains("\(file):18: fixtures (premium) not set (--skip-fixtures)"))
    #expect(
      skipped.stdout.contains(
        "3 tracker checks: intents, entities, slots, actions and utters cannot be seen over the REST channel"
      ))
    #expect(skipped.stdout.contains("2 passed, 0 failed, 2 skipped"))

    let api = try rasaLikeBot(withAPI: true)
    let wrong = try write(
      "wrong.yml",
      Self.rasaFile.replacingOccurrences(of: "utter_greet", with: "utter_goodbye")
        .replacingOccurrences(of: "greeted: true", with: "greeted: false"))
    let failed = try replay([wrong, "--server", api.baseURL])
    #expect(failed.status == 1)
    #expect(
      failed.stdout.contains(
        "utter: expected utter_goodbye after this turn; the tracker shows [utter_greet, utter_greet]"
      ))
    #expect(failed.stdout.contains("slot_was_set: greeted expected false, got true"))
    // The failure shows the turn as the tracker saw it.
    #expect(failed.stdout.contains("the turn's tracker events:"))
    #expect(failed.stdout.contains("    user: \"hello\""))
    #expect(failed.stdout.contains("    action: utter_greet"))
    let ours = try write(
      "ours.yaml",
      """
      name: intent and actions
      steps:
        - user: hello
          intent: greet
          action: utter_greet
          not: {action: action_fallback}
        - user: hello
          intent: {name: goodbye, confidence: {min: 0.5}}
          slot_was_not_set: [mood]
      """)
    let mixed = try replay([ours, "--server", api.baseURL])
    #expect(mixed.status == 1)
    #expect(mixed.stdout.contains("intent: expected greet, got -"), "\(mixed.stdout)")
    let offline = try replay([file, "--offline"])
    #expect(offline.status == 1, "the offline assistant does not say Hi there")
  }
}
