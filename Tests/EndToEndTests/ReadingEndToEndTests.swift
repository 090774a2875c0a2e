import Foundation
import TestSupport
import Testing

/// A line typed with the wrong keyboard layout, or in Latin letters, is read
/// before it is sent (#48), as the built binary does it.
@Suite struct ReadingEndToEndTests {
  let home = TemporaryDirectory()

  func chat(_ arguments: [String], input: String, language: String = "uk") throws -> ProcessResult {
    try ProcessRunner.run(
      ProcessRunner.binaryPath, arguments, input: input,
      environment: home.environment(["MIGRANT_CHAT_LANG": language, "COLUMNS": "200"]))
  }

  static let sentAs = "Надіслано як «продовження посвідки» (набрано в англійській розкладці)"

  /// The issue's line: sent read, said so once; typed again right after, sent as typed.
  /// The history keeps both, and its transcript has what was sent.
  @Test func aLineOnTheEnglishLayoutIsSentAsMeant() throws {
    let result = try chat(["--offline"], input: "ghjljd;tyyz gjcdslrb\nghjljd;tyyz gjcdslrb\n")
    #expect(result.status == 0, "\(result.stderr)")
    let output = result.stdout + result.stderr
    #expect(output.components(separatedBy: Self.sentAs).count == 2, "\(output)")
    #expect(output.contains("«продовження посвідки»:"), "the offline assistant got the reading")
    let show = try chat(["history", "show", "1"], input: "")
    #expect(
      show.stdout.contains("> ghjljd;tyyz gjcdslrb (надіслано як «продовження посвідки»)"),
      "\(show.stdout)")
    let found = try chat(["history", "search", "продовження"], input: "")
    #expect(found.status == 0, "found by what was sent: \(found.stdout)")
    let path = home.path + "/read.yaml"
    #expect(try chat(["history", "export", "1", "--transcript", path], input: "").status == 0)
    let transcript = try String(contentsOfFile: path, encoding: .utf8)
    #expect(transcript.contains(#"- user: "продовження посвідки""#), "\(transcript)")
    #expect(transcript.contains(#"- user: "ghjljd;tyyz gjcdslrb""#), "typed again: as typed")
  }

  /// `--json` carries what was sent and what was typed.
  @Test func jsonCarriesSentAndTyped() throws {
    let result = try chat(["--offline", "--json"], input: "privet\n", language: "ru")
    #expect(result.status == 0, "\(result.stderr)")
    let notice = result.stdout.split(separator: "\n").first { $0.contains(#""code":"sent_as""#) }
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data((notice ?? "").utf8)) as? [String: Any])
    #expect(object["sent"] as? String == "привет")
    #expect(object["typed"] as? String == "privet")
    #expect(object["way"] as? String == "latin-letters")
    #expect(
      (object["message"] as? String)?.hasPrefix("Отправлено как «привет» (набрано латиницей)")
        == true)
  }

  /// `--no-rewrite` and `rewrite: false` send every line as typed; a bad value is refused.
  @Test func rewritingTurnsOff() throws {
    let flag = try chat(["--offline", "--no-rewrite"], input: "ghjljd;tyyz gjcdslrb\n")
    #expect(flag.status == 0)
    #expect(!(flag.stdout + flag.stderr).contains("Надіслано як"), "\(flag.stdout)")
    let folder = home.path + "/config/migrant-chat"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try "rewrite: false\n".write(toFile: folder + "/config.yaml", atomically: true, encoding: .utf8)
    let config = try chat(["--offline"], input: "ghjljd;tyyz gjcdslrb\n")
    #expect(config.status == 0, "\(config.stderr)")
    #expect(!(config.stdout + config.stderr).contains("Надіслано як"), "\(config.stdout)")
    try "rewrite: sometimes\n".write(
      toFile: folder + "/config.yaml", atomically: true, encoding: .utf8)
    let bad = try chat(["--offline"], input: "ghjljd;tyyz gjcdslrb\n")
    #expect(bad.status != 0)
    #expect(bad.stderr.contains("rewrite"), "\(bad.stderr)")
  }

  /// Czech, English, an e-mail and a button's title are sent as typed.
  @Test func linesTypedRightGoAsTyped() throws {
    let result = try chat(
      ["--offline"], input: "kde je urad prace\nolena.k@seznam.cz\nI need help\n", language: "ru")
    #expect(result.status == 0)
    #expect(!(result.stdout + result.stderr).contains("Отправлено как"), "\(result.stdout)")
  }
}

extension ReadingEndToEndTests {
  /// A transcript's steps go as written; a step with `read: true` is read as the chat
  /// reads a line (the offline assistant answers the reading).
  @Test func aTranscriptStepIsReadOnlyWhenItAsks() throws {
    let path = home.path + "/read.yaml"
    try """
    name: read steps
    language: uk
    steps:
      - user: "ghjljd;tyyz gjcdslrb"
        read: true
        bot:
          - text: {contains: "продовження посвідки"}
      - user: "ghjljd;tyyz gjcdslrb"
        bot:
          - text: {contains: "ghjljd;tyyz"}
    """.write(toFile: path, atomically: true, encoding: .utf8)
    let result = try chat(["replay", path, "--offline"], input: "")
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stdout.contains("1 passed, 0 failed") || result.stdout.contains("1 пройдено"),
      "\(result.stdout)")
    try "name: bad\nsteps:\n  - user: x\n    read: maybe\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    let bad = try chat(["replay", path, "--offline"], input: "")
    #expect(bad.status != 0)
    #expect((bad.stdout + bad.stderr).contains("read"), "\(bad.stderr)")
  }
}
