import Foundation
import TestSupport
import Testing

/// `migrant-chat history`: every chat kept as it was shown, found, shared and forgotten.
@Suite struct HistoryEndToEndTests {
  let home = TemporaryDirectory()

  func run(_ arguments: [String], input: String = "") throws -> ProcessResult {
    try ProcessRunner.run(
      ProcessRunner.binaryPath, arguments, input: input,
      environment: home.environment(["MIGRANT_CHAT_LANG": "en", "COLUMNS": "80"]))
  }

  /// A conversation from the history becomes a transcript that replays green against
  /// the same bot (#46): the start's answer, lines typed as `user:`, a button chosen by
  /// its number as `button:` (replayed by title), a `/lang` as a step. One edited to
  /// expect another answer fails: the checks are real.
  @Test func aConversationBecomesATranscriptThatReplays() throws {
    let chat = try run(["--offline"], input: "health insurance\n1\n/lang ru\nнужна страховка\n")
    #expect(chat.status == 0, "\(chat.stderr)")
    let path = home.path + "/from-history.yaml"
    let export = try run(["history", "export", "1", "--transcript", path])
    #expect(export.status == 0, "\(export.stderr)")
    #expect(export.stdout == "Saved 4 turns as a transcript: \(path)\n", "\(export.stdout)")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(#"name: "Conversation 1 from the history: health insurance""#), "\(text)")
    #expect(text.contains("start:\n  user: \"/start\""), "\(text)")
    #expect(text.contains("- button: \"Health insurance\""), "the number typed is a click")
    #expect(text.contains("- user: \"/lang ru\""))
    let replay = try run(["replay", path, "--offline"])
    #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
    #expect(replay.stdout.contains("1 passed, 0 failed"), "\(replay.stdout)")
    // A wrong expectation fails: what was exported is checked, not only sent.
    let edited = home.path + "/edited.yaml"
    try text.replacingOccurrences(of: "Health insurance: choose a guide.", with: "Something else.")
      .write(toFile: edited, atomically: true, encoding: .utf8)
    let failing = try run(["replay", edited, "--offline"])
    #expect(failing.status == 1, "\(failing.stdout)")
    // Rasa Pro's format: the number typed goes as the button's payload; replays green.
    let e2e = home.path + "/e2e.yml"
    #expect(try run(["history", "export", "1", "--transcript", e2e, "--as-e2e"]).status == 0)
    let e2eText = try String(contentsOfFile: e2e, encoding: .utf8)
    #expect(e2eText.contains("- user: \"/faq_item"), "the click as its payload: \(e2eText)")
    #expect(e2eText.contains("- user: \"/start\""))
    let e2eReplay = try run(["replay", e2e, "--offline"])
    #expect(e2eReplay.status == 0, "\(e2eReplay.stdout)\(e2eReplay.stderr)")
    // A folder or a number the history does not have: said, nothing written.
    let folder = try run(["history", "export", "1", "--transcript", home.path])
    #expect(folder.status == 1)
    #expect(folder.stderr.contains("Could not save the conversation to"), "\(folder.stderr)")
    let missing = try run(["history", "export", "9", "--transcript", home.path + "/x.yaml"])
    #expect(missing.status != 0)
    #expect(!FileManager.default.fileExists(atPath: home.path + "/x.yaml"))
  }

  /// A chat is kept as it was seen: listed, shown, found by words typed in
  /// another script, exported, and forgotten without a trace.
  @Test func aChatIsKeptFoundSharedAndForgotten() throws {
    let chat = try run(["--offline"], input: "health insurance\n1\n/lang ru\nнужна страховка\n")
    #expect(chat.status == 0, "\(chat.stderr)")
    let list = try run(["history"])
    #expect(list.stdout.contains("   1  "), "\(list.stdout)")
    #expect(list.stdout.contains("  offline  en  health insurance\n"), "\(list.stdout)")
    let show = try run(["history", "show", "1"])
    #expect(show.stdout.hasPrefix("Conversation 1, "))
    #expect(show.stdout.contains("> health insurance\nHealth insurance: choose a guide.\n"))
    #expect(show.stdout.contains("Health Insurance Branch, Ostrava  #138508"), "the card as shown")
    #expect(show.stdout.contains("Язык изменён: русский."))
    let found = try run(["history", "search", "strakhovku"])
    #expect(found.status == 0)
    #expect(found.stdout.contains("нужна страховка"), "\(found.stdout)")
    let none = try run(["history", "search", "visa", "Liberec"])
    #expect(none.status == 1)
    #expect(none.stdout.contains("No conversation has “visa Liberec”."))
    // For a caseworker's scripts: the list and the search as JSON (#47).
    let listed =
      try JSONSerialization.jsonObject(
        with: Data(try run(["history", "list", "--json"]).stdout.utf8))
      as? [[String: Any]] ?? []
    #expect(listed.count == 1)
    #expect(listed.first?["number"] as? Int == 1 && listed.first?["language"] as? String == "en")
    #expect(listed.first?["topic"] as? String == "health insurance", "\(listed)")
    #expect(listed.first?["sender"] == nil, "never the sender id")
    let searched = try run(["history", "search", "strakhovku", "--json"])
    let hits =
      try JSONSerialization.jsonObject(with: Data(searched.stdout.utf8)) as? [[String: Any]] ?? []
    #expect(hits.first?["line"] as? String == "нужна страховка", "\(searched.stdout)")
    let noHits = try run(["history", "search", "visa", "Liberec", "--json"])
    #expect(noHits.status == 1 && noHits.stdout == "[]\n", "\(noHits.stdout)")
    let json = try run(["history", "export", "1", "--json"])
    let object =
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let entries = object?["entries"] as? [[String: Any]] ?? []
    #expect(
      entries.contains { $0["kind"] as? String == "language" && $0["text"] as? String == "ru" })
    #expect(entries.contains { ($0["contacts"] as? [String: Any])?["138508"] != nil })
    let markdown = try run(["history", "export", "1"])
    #expect(markdown.stdout.hasPrefix("# Conversation 1, "))
    #expect(markdown.stdout.contains("**You:** health insurance"))
    #expect(markdown.stdout.contains("**You:** 1 (Health insurance)"), "the button a number chose")
    // Made-up sample guides and offices say so in what is shared, as in the chat.
    #expect(markdown.stdout.contains("*\\[Sample guide: made up"), "\(markdown.stdout)")
    #expect(markdown.stdout.contains("**Health Insurance Branch, Ostrava** \\[sample\\]"))
    #expect(markdown.stdout.contains("+420 500 000 006"), "phones stay readable")
    // Found by a card's street: the line shown is the address.
    let street = try run(["history", "search", "Jureckova"])
    #expect(street.stdout.contains("      Jurečkova 1"), "\(street.stdout)")
    // What was typed is in readline's input history too: forgetting takes it out.
    let typed = home.path + "/state/migrant-chat/history"
    try "health insurance\nsomething else\n".write(toFile: typed, atomically: true, encoding: .utf8)
    let forget = try run(["history", "forget", "1"])
    #expect(forget.stdout.contains("Forgot 1 conversation"))
    let file = try Data(
      contentsOf: URL(fileURLWithPath: home.path + "/state/migrant-chat/conversations.sqlite"))
    #expect(file.range(of: Data("нужна страховка".utf8)) == nil)
    #expect(try String(contentsOfFile: typed, encoding: .utf8) == "something else\n")
    #expect(try run(["history"]).stdout.contains("No conversation is kept yet"))
    #expect(try run(["history", "list", "--json"]).stdout == "[]\n")
    #expect(try run(["history", "show", "1"]).status == 1)
  }

  /// `--no-history` keeps nothing; `history: {keep_days: N}` forgets older ones at start.
  @Test func noHistoryAndKeepDays() throws {
    _ = try run(["--offline", "--no-history"], input: "housing\n")
    #expect(try run(["history"]).stdout.contains("No conversation is kept yet"))
    _ = try run(["--offline"], input: "housing\n")
    #expect(try run(["history"]).stdout.contains("housing"))
    let config = home.path + "/config/migrant-chat"
    try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
    try "history: {keep_days: 0}\n".write(
      toFile: config + "/config.yaml", atomically: true, encoding: .utf8)
    let bad = try run(["--offline"], input: "hello\n")
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("'history'"), "\(bad.stderr)")
    try "history: {keep_days: 30}\n".write(
      toFile: config + "/config.yaml", atomically: true, encoding: .utf8)
    _ = try run(["--offline"], input: "work\n")
    #expect(try run(["history"]).stdout.contains("work"), "recent ones stay")
  }

  /// A chat killed with SIGKILL keeps what was on the screen.
  @Test func killedKeepsWhatWasShown() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ProcessRunner.binaryPath)
    process.arguments = ["--offline"]
    process.environment = home.environment(["MIGRANT_CHAT_LANG": "en"])
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    input.fileHandleForWriting.write(Data("schools\n".utf8))
    var seen = Data()
    let deadline = Date().addingTimeInterval(hangGuard)
    while Date() < deadline, seen.range(of: Data("Schools: choose a guide.".utf8)) == nil {
      seen += output.fileHandleForReading.availableData
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    let show = try run(["history", "show", "1"])
    #expect(show.stdout.contains("> schools\nSchools: choose a guide."), "\(show.stdout)")
  }

  /// `/history` in the chat lists the conversations kept; `/history N` shows one.
  @Test func historyInTheChat() throws {
    _ = try run(["--offline"], input: "schools\n")
    let chat = try run(["--offline"], input: "/history\n/history 1\n/history x\n")
    #expect(chat.stdout.contains("  offline  en  schools\n"), "\(chat.stdout)")
    #expect(chat.stdout.contains("Conversation 1, "))
    #expect(chat.stdout.contains("> schools\nSchools: choose a guide."))
    #expect(chat.stderr.contains("'x' is not a conversation's number"), "\(chat.stderr)")
    let off = try run(["--offline", "--no-history"], input: "/history\n")
    #expect(off.stdout.contains("Conversations are not kept in this session (--no-history)."))
  }

  /// `--resume` shows the last conversation's end and goes on with it; the "Last
  /// time" line is for a terminal, never a pipe.
  @Test func resumeGoesOnWithTheLastConversation() throws {
    let nothing = try run(["--offline", "--resume"], input: "work\n")
    #expect(nothing.stderr.contains("No earlier conversation here is kept"))
    let again = try run(["--offline", "--resume"], input: "1\nschools\n")
    #expect(again.stdout.hasPrefix("Conversation 1, "), "\(again.stdout)")
    #expect(again.stdout.contains("> work\nWork: choose a guide."))
    // The buttons shown last are the ones a number chooses, as they were then.
    let after = again.stdout.components(separatedBy: "— the conversation goes on —\n").last ?? ""
    #expect(after.hasPrefix("> 1\n") && after.contains("Finding a job"), "\(after)")
    #expect(!after.contains("What do you need help with?"), "no start message: \(after)")
    #expect(!again.stderr.contains("Last time"), "not in a pipe")
    let list = try run(["history"])
    #expect(!list.stdout.contains("   2  "), "one conversation, gone on with: \(list.stdout)")
    #expect(try run(["history", "show", "1"]).stdout.contains("> schools"))
  }

  /// `--resume` shows the bot's last answer and what led to it, not the client's own
  /// commands typed after it (#47: a caseworker's `/todo add` ×4 pushed the advice out).
  @Test func resumeShowsTheLastAnswerNotTheCommandsAfterIt() throws {
    let typed = ["work"] + (1...14).map { "/todo add task \($0)" } + ["/contacts brno"]
    _ = try run(["--offline"], input: typed.joined(separator: "\n") + "\n")
    let again = try run(["--offline", "--resume"], input: "")
    let shown = again.stdout.components(separatedBy: "— the conversation goes on —").first ?? ""
    #expect(shown.contains("> work\nWork: choose a guide."), "\(shown)")
    #expect(!shown.contains("/todo add") && !shown.contains("/contacts"), "\(shown)")
  }

  /// `history` speaks the command line's language (flag, environment, config), never
  /// the `/lang` a client typed last in the chat (#47).
  @Test func historyFollowsTheCommandLineNotTheClientsLang() throws {
    // No MIGRANT_CHAT_LANG here: the locale (C, so English) is what the command line says.
    func plain(_ arguments: [String], input: String = "") throws -> ProcessResult {
      try ProcessRunner.run(
        ProcessRunner.binaryPath, arguments, input: input, environment: home.environment())
    }
    _ = try plain(["--offline", "--lang", "en"], input: "work\n/lang ru\n")
    #expect(try plain(["--offline"]).stdout.contains("С чем вам помочь"), "remembered")
    let list = try plain(["history"]).stdout
    #expect(list.contains("offline") && !list.contains("офлайн"), "\(list)")
    let shown = try plain(["history", "show", "1"]).stdout
    #expect(shown.hasPrefix("Conversation 1, "), "\(shown)")
    let ukrainian = try plain(["history", "show", "1", "--lang", "uk"]).stdout
    #expect(ukrainian.hasPrefix("Розмова 1, "), "\(ukrainian)")
  }

  /// A caseworker labels conversations (`--label`, `/label`, #47): the list shows the
  /// label, search finds it (and shows it as the line that matched), exports carry it;
  /// `/new` begins another conversation without it.
  @Test func labelsTellClientsApart() throws {
    _ = try run(
      ["--offline", "--label", "Olena K., case 42"], input: "housing\n/label\n/new\nwork\n")
    _ = try run(["--offline"], input: "schools\n/label Petro S.\n/label\n")
    let list = try run(["history"]).stdout
    #expect(list.contains("Olena K., case 42: housing"), "\(list)")
    #expect(list.contains("Petro S.: schools"), "\(list)")
    #expect(!list.contains("case 42: work"), "/new leaves the label behind: \(list)")
    let found = try run(["history", "search", "case", "42"])
    #expect(found.status == 0, "\(found.stderr)")
    #expect(found.stdout.contains("Olena K., case 42"), "\(found.stdout)")
    #expect(!found.stdout.contains("Petro"))
    let json = try run(["history", "list", "--json"]).stdout
    #expect(json.contains(#""label":"Petro S.""#) && json.contains(#""label":null"#), "\(json)")
    let markdown = try run(["history", "export", "1"]).stdout
    #expect(markdown.contains("Label: Olena K., case 42"), "\(markdown)")
    #expect(try run(["history", "show", "3"]).stdout.contains("Label: Petro S."))
    // Said back in the chat, and taken off.
    let chat = try run(["--offline", "--resume"], input: "/label\n/label off\n/label\n")
    #expect(chat.stdout.contains("This conversation is labelled “Petro S.”."), "\(chat.stdout)")
    #expect(chat.stdout.contains("This conversation has no label."), "\(chat.stdout)")
    #expect(!(try run(["history"]).stdout.contains("Petro")))
  }

  /// What the client itself showed (`/contacts`, `/near`, `/map`, `/todo`) is kept after
  /// the line that asked for it, and exported with it (#47); a map as its list.
  @Test func whatTheClientShowedIsKeptWithItsLine() throws {
    let typed =
      "housing\n/contacts Brno\n/near Brno\n/map Brno\n/todo add \"Call the office\"\n/quit\n"
    _ = try run(["--offline"], input: typed)
    let markdown = try run(["history", "export", "1"]).stdout
    #expect(
      markdown.contains("**You:** /contacts Brno\n\n```text\n  #138504 Labour Office, Brno branch"),
      "\(markdown)")
    #expect(markdown.contains("Call the office"), "the line typed: \(markdown)")
    #expect(!markdown.contains("/quit"), "leaving is not part of the conversation")
    // Not the to-do list: on a shared laptop it holds other clients' tasks.
    #expect(!markdown.contains("1. [ ] Call the office"), "\(markdown)")
    // The sample offices' note goes with them.
    #expect(markdown.contains("sample data bundled with migrant-chat"), "\(markdown)")
    #expect(!markdown.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) }, "a list")
    let text = try run(["history", "show", "1"]).stdout
    #expect(text.contains("> /near Brno\nOffices near Brno"), "\(text)")
    let json = try run(["history", "export", "1", "--json"]).stdout
    #expect(json.contains(#""kind":"shown""#), "\(json)")
    // Found by what /contacts showed; left out of a transcript (the client's own).
    #expect(try run(["history", "search", "Letohrad"]).status == 0)
  }

  /// `/new` ends the conversation: what follows is kept as another.
  @Test func newStartsAnotherConversation() throws {
    _ = try run(["--offline"], input: "work\n/new\nschools\n")
    let list = try run(["history"]).stdout
    #expect(list.contains("   2  ") && list.contains("schools"), "\(list)")
    #expect(list.contains("   1  ") && list.contains("work"), "\(list)")
    #expect(!(try run(["history", "show", "1"]).stdout.contains("> schools")))
  }

  /// Two chats at once keep their own conversations; the file is the user's alone.
  @Test func twoChatsAtOnceAndTheFilesMode() throws {
    let processes = try ["housing", "schools"].map { line in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: ProcessRunner.binaryPath)
      process.arguments = ["--offline"]
      process.environment = home.environment(["MIGRANT_CHAT_LANG": "en"])
      let input = Pipe()
      process.standardInput = input
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      input.fileHandleForWriting.write(Data((line + "\n" + line + "\n").utf8))
      try input.fileHandleForWriting.close()
      return process
    }
    for process in processes { process.waitUntilExit() }
    let list = try run(["history"]).stdout
    #expect(list.contains("  housing\n") && list.contains("  schools\n"), "\(list)")
    let attributes = try FileManager.default.attributesOfItem(
      atPath: home.path + "/state/migrant-chat/conversations.sqlite")
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
  }

  /// A history that cannot be written: said once, and the chat goes on.
  @Test func aHistoryThatCannotBeWrittenIsSaidOnce() throws {
    try FileManager.default.createDirectory(
      atPath: home.path + "/state/migrant-chat/conversations.sqlite",
      withIntermediateDirectories: true)
    let chat = try run(["--offline"], input: "housing\nschools\n")
    #expect(chat.status == 0)
    #expect(chat.stdout.contains("> schools\nGuides that match 'schools':"))
    #expect(
      chat.stderr.components(separatedBy: "cannot be kept in the history").count == 2,
      "\(chat.stderr)")
  }

  /// Forgetting one conversation leaves the input lines another kept one has too.
  @Test func forgettingKeepsWhatAnotherConversationTyped() throws {
    _ = try run(["--offline"], input: "work\n1\n")
    _ = try run(["--offline"], input: "schools\n1\n")
    let typed = home.path + "/state/migrant-chat/history"
    try "work\n1\nschools\n1\n".write(toFile: typed, atomically: true, encoding: .utf8)
    #expect(try run(["history", "forget", "1"]).status == 0)
    #expect(try String(contentsOfFile: typed, encoding: .utf8) == "1\nschools\n1\n")
    let none = try run(["history", "forget", "--before", "2001-01-01"])
    #expect(none.stdout.contains("No conversation matched: nothing was forgotten."))
  }

  /// Lines that must not break or leak it: a number no button has (nor any Int can
  /// take one from), a line started with a space (kept out, as readline keeps it out
  /// of the input history), and `--json --resume`, whose stdout stays JSON lines.
  @Test func oddLinesAndJSON() throws {
    let chat = try run(["--offline"], input: "work\n-9223372036854775808\n secret plan\n")
    #expect(chat.status == 0 || chat.status == 1, "no crash: \(chat.status) \(chat.stderr)")
    let shown = try run(["history", "show", "1"]).stdout
    #expect(shown.contains("> work") && !shown.contains("secret plan"), "\(shown)")
    let json = try run(["--offline", "--resume", "--json"], input: "1\n")
    for line in json.stdout.split(separator: "\n") {
      #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)")
    }
  }

  /// `keep_days` forgets the conversations' typed lines from the input history too.
  @Test func keepDaysForgetsTheTypedLinesToo() throws {
    _ = try run(["--offline"], input: "work\n")
    let file = home.path + "/state/migrant-chat/conversations.sqlite"
    // Make the conversation 40 days old, as time would.
    _ = try ProcessRunner.run(
      "/usr/bin/env",
      [
        "python3", "-c",
        "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('UPDATE conversation SET updated_at = updated_at - 40*86400'); c.commit()",
        file,
      ],
      environment: ProcessInfo.processInfo.environment)
    let typed = home.path + "/state/migrant-chat/history"
    try "work\nsomething\n".write(toFile: typed, atomically: true, encoding: .utf8)
    let config = home.path + "/config/migrant-chat"
    try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
    try "history: {keep_days: 30}\n".write(
      toFile: config + "/config.yaml", atomically: true, encoding: .utf8)
    _ = try run(["--offline"], input: "")
    #expect(try String(contentsOfFile: typed, encoding: .utf8) == "something\n")
    #expect(try run(["history"]).stdout.contains("No conversation is kept yet"))
  }

  @Test func badInputIsAClearError() throws {
    for (arguments, status, message) in [
      (["history", "show", "7"], Int32(1), "No conversation 7"),
      (["history", "forget"], 2, "Say what to forget"),
      (["history", "forget", "--before", "yesterday"], 2, "a day as YYYY-MM-DD"),
      (["history", "forget", "1", "--all"], 2, "Say what to forget"),
    ] {
      let result = try run(arguments)
      #expect(result.status == status, "\(arguments)")
      #expect((result.stdout + result.stderr).contains(message), "\(arguments): \(result.stderr)")
    }
  }
}
