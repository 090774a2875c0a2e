import Foundation
import TestSupport
import Testing

/// The hostile-server table of docs/reliability.md, one test per row: the built client
/// against a loopback server that misbehaves in one way, in English and in
/// Ukrainian. For every row the session goes on, the message reached the
/// bot once, nothing on disk is lost, and no control character is printed.
@Suite struct HostileServerEndToEndTests {
  static let languages = [("en_GB.UTF-8", \HostileRow.en), ("uk_UA.UTF-8", \HostileRow.uk)]

  @Test(arguments: HostileBot.rows)
  func theChatGoesOn(row: HostileRow) throws {
    let bot = try HostileBot.make()
    for (locale, fragments) in Self.languages {
      let home = TemporaryDirectory()
      let postsBefore = bot.requests.count { $0.bodyJSON?["message"] as? String == row.id }
      let result = try chat(
        ["--server", bot.baseURL, "--timeout", "1"],
        input: "/fav 138503\n\(row.id)\nstill here\n", home: home,
        environment: ["LANG": locale])
      expectShown(row, result, fragments: row[keyPath: fragments], locale: locale)
      // The session went on, and the message was posted once (or once per redirect).
      #expect(result.stdout.contains("still here ("), "\(locale): \(result.stdout)")
      let posts = bot.requests.count { $0.bodyJSON?["message"] as? String == row.id }
      #expect(posts - postsBefore == (row.id == "redirect-loop" ? 4 : 1))
      try expectNothingLost(home: home, favourite: "#138503")
    }
  }

  @Test func aSelfSignedCertificateIsRefusedWithTheWayOut() throws {
    let tls = try SelfSignedTLSServer()
    defer { tls.stop() }
    for (locale, fragment) in [
      ("en_GB.UTF-8", "could not be verified"), ("uk_UA.UTF-8", "Не вдалося перевірити TLS"),
    ] {
      let home = TemporaryDirectory()
      let chatResult = try chat(
        ["--server", tls.baseURL], input: "/fav 138503\nhello\n", home: home,
        environment: ["LANG": locale])
      #expect(chatResult.status == 1)
      #expect(chatResult.messages.contains(fragment) && chatResult.messages.contains("--insecure"))
      let sync = try contacts(
        ["sync", "--data-api", tls.baseURL], home: home, environment: ["LANG": locale])
      #expect(sync.status == 1)
      #expect(sync.messages.contains(locale.hasPrefix("en") ? "could not be verified" : "TLS"))
      #expect(terminalControls(in: chatResult.stderr + sync.stderr) == [])
      try expectNothingLost(home: home, favourite: "#138503")
    }
  }

  @Test(arguments: HostileDataAPI.cases)
  func theDirectoryIsKept(scenario: HostileDataAPI.Case) throws {
    let row = scenario.row
    let home = TemporaryDirectory()
    let kept = try HostileDataAPI.makeKept()
    #expect(try contacts(["sync", "--data-api", kept.baseURL], home: home).status == 0)
    _ = try chat(["--offline"], input: "/fav 1\n", home: home)
    let api = try HostileDataAPI.make(scenario.table, row.answer)
    for (locale, fragments) in Self.languages {
      let result = try contacts(
        ["sync", "--data-api", api.baseURL, "--timeout", "1"], home: home,
        environment: ["LANG": locale])
      expectShown(row, result, fragments: row[keyPath: fragments], locale: locale)
    }
    let fetches = api.requests.count { $0.path == scenario.table.rawValue }
    switch row.id {
    case "429", "500-html", "slow", "cut-body", "reset":
      // Four tries per sync, as the retry policy says; libcurl may add one
      // more GET when a kept-alive connection gave nothing.
      #expect((8...10).contains(fetches), "\(fetches) fetches")
    case "redirect-loop":
      #expect(fetches == 8, "one try per sync, and three redirects each")
    default:
      #expect(fetches == 2, "no retry of an answer that will not change")
    }
    try expectNothingLost(home: home, favourite: "#1")

    // What the user finds now: the old table, or the new one read liberally.
    let list = try contacts(["list"], home: home)
    let offline = try chat(["--offline"], input: "1\n", home: home)
    let shown = list.stdout + offline.stdout
    #expect(terminalControls(in: shown + list.stderr + offline.stderr) == [])
    for fragment in row.never { #expect(!shown.contains(fragment)) }
    let old = scenario.table == .contacts ? "Old Office" : "Old guide"
    if scenario.replaces {
      #expect(!shown.contains(old), "\(shown)")
      let third =
        switch row.id {
        case "wrong-types": "Float id"
        case "invalid-utf8": "Caf\u{FFFD}\u{FFFD}( name"
        default: "Evil"
        }
      #expect(shown.contains(third), "\(shown)")
    } else {
      #expect(shown.contains(old), "\(shown)")
    }
  }

  @Test func theReliabilityGuideHasARowForEveryScenario() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let readme = try String(
      contentsOf: root.appendingPathComponent("docs/reliability.md"), encoding: .utf8)
    guard let start = readme.range(of: "## Hostile servers") else {
      Issue.record("docs/reliability.md has no '## Hostile servers' section")
      return
    }
    let table = readme[start.upperBound...].components(separatedBy: "\n#").first ?? ""
    let ids = Set(HostileBot.rows.map(\.id) + HostileDataAPI.cases.map(\.row.id) + ["tls"])
    for id in ids.sorted() {
      #expect(table.contains("| `\(id)` |"), "docs/reliability.md lacks a row for \(id)")
    }
  }
}

/// What a row's run must show: its exit status, its message, nothing it must
/// not show, and no control character at all.
func expectShown(_ row: HostileRow, _ result: ProcessResult, fragments: [String], locale: String) {
  let output = result.stdout + "\n" + result.messages
  #expect(result.status == row.status, "\(locale): \(output)")
  for fragment in fragments {
    #expect(output.contains(fragment), "\(locale): \(output)")
  }
  for fragment in row.never { #expect(!output.contains(fragment)) }
  #expect(terminalControls(in: result.stdout + result.stderr) == [])
}

/// The user's files after a bad answer: the favourite is still there, the
/// cache opens without complaint, and no temporary file was left behind.
func expectNothingLost(home: TemporaryDirectory, favourite: String) throws {
  let list = try contacts(["list", "--lang", "en"], home: home)
  #expect(list.status == 0, "\(list.stderr)")
  #expect(!list.messages.contains("damaged"))
  #expect(
    list.stdout.split(separator: "\n").contains { $0.contains("★") && $0.contains(favourite) },
    "\(list.stdout)")
  let leftovers = FileManager.default.enumerator(atPath: home.path)?.compactMap { $0 as? String }
    .filter { $0.contains(".tmp") || $0.hasSuffix("~") || $0.contains(".corrupt-") }
  #expect(leftovers == [])
}
