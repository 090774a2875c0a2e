import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A server's (or a user's) hostile text through every writer the binary has: the
/// terminal, JSON lines, the replay and explore reports (JSON), JUnit, CSV,
/// iCalendar, DOT, Mermaid and transcripts (YAML). None may carry what a terminal
/// acts on (C0, DEL, C1 with NEL, ESC sequences, OSC 52, bidi overrides and
/// isolates) or a line separator, raw; each must still be its format (JSON that
/// parses, XML that parses, CSV rows of the right width, folded iCalendar lines).
@Suite struct HostileTextEveryWriterTests {
  let home = TemporaryDirectory()

  /// Every kind of dangerous character, as a JSON string's contents (a lone
  /// surrogate too, which Swift's strings cannot hold and the decoder replaces).
  static let hostile =
    #"\u001b]0;PWNED\u0007\u001b[2J\u001b]52;c;ZXZpbA==\u0007\u009b31m\u0085\u202e\u2066\u2028\u2029\u0000\u0008\u007f\ud800 end"#

  /// The same characters as Swift text, for what the user types.
  static let typed =
    "\u{1B}]0;PWNED\u{07}\u{1B}[2J\u{1B}]52;c;ZXZpbA==\u{07}\u{9B}31m\u{85}\u{202E}\u{2066}\u{2028}\u{2029}\u{08}\u{7F} end"

  /// What no writer may put raw into what it writes.
  static func unsafe(in text: String) -> [String] {
    text.unicodeScalars.filter { scalar in
      let value = scalar.value
      return (value < 0x20 && scalar != "\n" && scalar != "\r" && scalar != "\t")
        || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
        || (0x2066...0x2069).contains(value) || value == 0x2028 || value == 0x2029
    }.map { String(format: "U+%04X", $0.value) }
  }

  func run(_ arguments: [String], input: String = "") throws -> ProcessResult {
    try ProcessRunner.run(
      ProcessRunner.binaryPath, arguments, input: input, environment: home.environment())
  }

  func file(_ name: String) throws -> String {
    try String(contentsOfFile: home.path + "/" + name, encoding: .utf8)
  }

  /// A bot whose every answer is hostile text with a hostile button.
  func hostileBot() throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer { _ in
      .json(
        #"[{"text":"Hello \#(Self.hostile)","buttons":[{"title":"Go \#(Self.hostile)","payload":"/go"},{"title":"B1\nInjected line","payload":"/b1"}]}]"#
      )
    }
  }

  @Test func theChatsTerminalJSONLinesAndRecording() throws {
    let bot = try hostileBot()
    let text = try run(
      ["--server", bot.baseURL, "--start-message", "", "--record", home.path + "/chat.yaml"],
      input: "hi\n1\n")
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("Hello"))
    #expect(Self.unsafe(in: text.stdout + text.stderr).isEmpty, "terminal")
    #expect(Self.unsafe(in: try file("chat.yaml")).isEmpty, "--record transcript")
    let json = try run(["--server", bot.baseURL, "--start-message", "", "--json"], input: "hi\n")
    #expect(json.status == 0)
    #expect(Self.unsafe(in: json.stdout).isEmpty, "JSON lines")
    let lines = json.stdout.split(separator: "\n")
    #expect(!lines.isEmpty)
    for line in lines {
      #expect(
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
    }
    #expect(json.stdout.contains("Hello") && json.stdout.contains(" end"))
  }

  @Test func replaysJSONReportAndJUnit() throws {
    let bot = try hostileBot()
    let transcript = home.path + "/t.yaml"
    try """
    name: expects something else
    steps:
      - user: hi
        bot:
          - text: Something else
    """.write(toFile: transcript, atomically: true, encoding: .utf8)
    let result = try run([
      "replay", "--server", bot.baseURL, "--report", home.path + "/r.json", "--junit",
      home.path + "/j.xml", transcript,
    ])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(Self.unsafe(in: result.stdout + result.stderr).isEmpty, "replay's terminal")
    let report = try file("r.json")
    #expect(Self.unsafe(in: report).isEmpty, "report JSON")
    #expect((try? JSONSerialization.jsonObject(with: Data(report.utf8))) != nil)
    #expect(report.contains("PWNED"))
    let junit = try file("j.xml")
    #expect(Self.unsafe(in: junit).isEmpty, "JUnit")
    #expect(XMLParser(data: Data(junit.utf8)).parse(), "JUnit is XML")
    #expect(junit.contains("PWNED"))
  }

  @Test func exploresReportGraphsAndRecordedTranscripts() throws {
    let bot = try hostileBot()
    let result = try run([
      "explore", "--server", bot.baseURL, "--lang", "en", "--report", home.path + "/e.json",
      "--graph", home.path + "/g.dot", "--record-dir", home.path + "/paths",
    ])
    #expect(Self.unsafe(in: result.stdout + result.stderr).isEmpty, "explore's terminal")
    // A title with a line break writes no line of its own in the summary.
    #expect(!result.stdout.split(separator: "\n").contains { $0.hasPrefix("Injected") })
    let report = try file("e.json")
    #expect(Self.unsafe(in: report).isEmpty, "explore report JSON")
    #expect((try? JSONSerialization.jsonObject(with: Data(report.utf8))) != nil)
    let dot = try file("g.dot")
    #expect(Self.unsafe(in: dot).isEmpty, "DOT")
    #expect(dot.hasPrefix("digraph explore {") && dot.hasSuffix("}\n"))
    _ = try run([
      "explore", "--server", bot.baseURL, "--lang", "en", "--graph", home.path + "/g.mmd",
    ])
    let mermaid = try file("g.mmd")
    #expect(Self.unsafe(in: mermaid).isEmpty, "Mermaid")
    #expect(mermaid.hasPrefix("flowchart LR\n"))
    let recorded = try FileManager.default.contentsOfDirectory(atPath: home.path + "/paths")
    #expect(!recorded.isEmpty)
    for name in recorded {
      #expect(Self.unsafe(in: try file("paths/" + name)).isEmpty, "transcript \(name)")
    }
    // What was recorded replays against the same bot: the writer kept the text.
    let replay = try run(["replay", "--server", bot.baseURL, home.path + "/paths"])
    #expect(replay.status == 0, "\(replay.stdout)")
  }

  @Test func contactsAsCSVAndJSON() throws {
    let api = try DataAPIServer()
    api.setContacts([
      #"{"id":7,"name":"Office \#(Self.hostile)","city":"=cmd|' /C calc'!A0","address":"Street, 1\n2","phone":"+420 1"}"#
    ])
    let sync = try contacts(["sync", "--data-api", api.baseURL], home: home)
    #expect(sync.status == 0, "\(sync.stderr)")
    let csv = try contacts(["list", "--csv"], home: home)
    #expect(Self.unsafe(in: csv.stdout).isEmpty, "CSV")
    let rows = Self.csvRecords(csv.stdout)
    #expect(rows.count >= 2 && Set(rows.map(\.count)).count == 1, "\(rows)")
    #expect(csv.stdout.contains("'=cmd"), "formula defused")
    let json = try contacts(["list", "--json"], home: home)
    #expect(Self.unsafe(in: json.stdout).isEmpty, "contacts JSON")
    #expect((try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil)
  }

  @Test func theToDoListAsCSVJSONAndICalendar() throws {
    let added = try todo(
      ["add", "Pay " + Self.typed, "--place", Self.typed, "--due", "2099-01-01"], home: home)
    #expect(added.status == 0, "\(added.stderr)")
    #expect(Self.unsafe(in: added.stdout + added.stderr).isEmpty, "todo's terminal")
    let csv = try todo(["list", "--csv"], home: home)
    #expect(Self.unsafe(in: csv.stdout).isEmpty, "todo CSV")
    let rows = Self.csvRecords(csv.stdout)
    #expect(rows.count == 2 && rows[0].count == rows[1].count, "\(rows)")
    let json = try todo(["list", "--json"], home: home)
    #expect(Self.unsafe(in: json.stdout).isEmpty, "todo JSON")
    #expect((try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil)
    let ics = try todo(["export", "--ics", "-"], home: home)
    #expect(ics.status == 0)
    #expect(Self.unsafe(in: ics.stdout).isEmpty, "iCalendar")
    let lines = ics.stdout.components(separatedBy: "\r\n")
    #expect(lines.first == "BEGIN:VCALENDAR")
    #expect(lines.allSatisfy { $0.utf8.count <= 75 && !$0.contains("\n") }, "folded lines")
  }

  /// RFC 4180 records: fields split at commas outside quotes, records at line ends outside quotes.
  static func csvRecords(_ text: String) -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var field = ""
    var quoted = false
    var characters = Array(text)[...]
    while let character = characters.popFirst() {
      if quoted {
        if character == "\"" {
          if characters.first == "\"" {
            field.append("\"")
            characters.removeFirst()
          } else {
            quoted = false
          }
        } else {
          field.append(character)
        }
      } else if character == "\"" {
        quoted = true
      } else if character == "," {
        record.append(field)
        field = ""
      } else if character == "\n" || character == "\r\n" {
        record.append(field)
        records.append(record)
        (record, field) = ([], "")
      } else {
        field.append(character)
      }
    }
    if !field.isEmpty || !record.isEmpty { records.append(record + [field]) }
    return records
  }
}
