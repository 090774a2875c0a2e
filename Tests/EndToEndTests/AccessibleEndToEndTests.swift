import Foundation
import TestSupport
import Testing

/// `config.yaml` in `home`'s configuration folder.
private func writeConfig(_ home: TemporaryDirectory, _ text: String) throws {
  let folder = home.path + "/config/migrant-chat"
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  try text.write(toFile: folder + "/config.yaml", atomically: true, encoding: .utf8)
}

/// The accessible mode from the built binary (#47): each way to turn it on, in a pipe;
/// the raw bytes of whole chats in a terminal are the journeys' (Tests/Journeys).
@Suite struct AccessibleEndToEndTests {
  static let input = "2\n/near Brno\n/contact 138503\n"

  /// The marks of the mode: the speaker word, the answer's end, list rows name first.
  static func isAccessible(_ stdout: String) -> Bool {
    stdout.contains("Bot: ") && stdout.contains("End of the answer, ")
      && stdout.contains("Centre for Foreigners (Brno), 0.3 km, id 138503")
  }

  @Test(
    arguments: [
      (["--accessible"], [:], nil),
      ([], ["ACCESSIBLE": "1"], nil),
      ([], ["TERM": "dumb"], nil),
      ([], [:], "accessible: true\n"),
    ] as [([String], [String: String], String?)])
  func eachWayTurnsItOn(flags: [String], environment: [String: String], config: String?) throws {
    let home = TemporaryDirectory()
    if let config { try writeConfig(home, config) }
    let result = try chat(
      ["--offline", "--lang", "en"] + flags, input: Self.input, home: home,
      environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(Self.isAccessible(result.stdout), "\(result.stdout)")
    #expect(!result.stdout.contains("#138503") && !result.stdout.contains("[1]"))
  }

  /// The nearer setting wins: `ACCESSIBLE=0` over the config file and TERM=dumb, whose
  /// escapes stay off all the same (`--color always` sends none there).
  @Test func accessibleZeroTurnsItOffButTermDumbStillSendsNoEscape() throws {
    let home = TemporaryDirectory()
    try writeConfig(home, "accessible: true\n")
    let result = try chat(
      ["--offline", "--lang", "en", "--color", "always"], input: Self.input, home: home,
      environment: ["ACCESSIBLE": "0", "TERM": "dumb"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(!Self.isAccessible(result.stdout) && result.stdout.contains("[1]"))
    #expect(!result.stdout.contains("\u{1B}") && !result.stderr.contains("\u{1B}"))
    // The control: the same run under xterm is coloured, so the check above could fail.
    let coloured = try chat(
      ["--offline", "--lang", "en", "--color", "always"], input: Self.input, home: home,
      environment: ["ACCESSIBLE": "0", "TERM": "xterm"])
    #expect(coloured.stdout.contains("\u{1B}["))
  }

  /// A bad value in the config file is an error naming the key and the line, translated.
  @Test func aBadValueInTheConfigFileIsSaid() throws {
    let home = TemporaryDirectory()
    try writeConfig(home, "lang: uk\naccessible: так\n")
    let result = try chat(["--offline", "--lang", "uk"], input: "", home: home)
    #expect(result.status == 2)
    #expect(
      result.messages.contains("'accessible'") && result.messages.contains("true або false"),
      "\(result.stderr)")
  }

  /// Machine-readable output is not reworded: a CSV in a pipe keeps its bytes, glyphs and
  /// all, and the JSON of `contacts near` its distances.
  @Test func csvAndJSONInAPipeAreLeftAsWritten() throws {
    let home = TemporaryDirectory()
    let plain = try chat(
      ["contacts", "near", "Brno", "--csv"], input: "", home: home,
      environment: ["ACCESSIBLE": "1"])
    let ordinary = try chat(["contacts", "near", "Brno", "--csv"], input: "", home: home)
    #expect(plain.status == 0 && plain.stdout == ordinary.stdout, "\(plain.stderr)")
    #expect(plain.stdout.contains("\r\n"))
  }
}
