import Foundation
import MigrantChatCore
import MigrantChatIO
import Testing

@Suite struct TranscriptParserTests {
  func parse(_ text: String) throws -> [Transcript] {
    try TranscriptParser.parse(text, file: "x.yaml")
  }

  func problem(_ text: String) -> TranscriptParser.Problem? {
    do {
      _ = try TranscriptParser.parse(text, file: "x.yaml")
      return nil
    } catch {
      return error
    }
  }

  @Test func everyKeyAndMatchMode() throws {
    let transcripts = try parse(
      """
      name: All of it
      language: uk
      sender: tester
      start: /start
      steps:
        - user: 2
          messages: 3
          allow_extra: true
          bot:
            - text: Hello
            - text: {contains: hel, ignore_case: true}
              buttons: {contains: [A]}
              contacts: [138503, "138504"]
              image: {glob: "https://*"}
              custom: {slot: {a: 1, b: yes, c: text}}
            - text: {any_of: [a, {regex: "^b"}]}
              not: {text: {exact: x}}
        - button: Health insurance
      ---
      name: Second
      steps:
        - user: hi
      """)
    #expect(transcripts.count == 2)
    let first = try #require(transcripts.first)
    #expect(first.language == .uk && first.sender == "tester" && first.start == "/start")
    #expect(first.location == SourceLocation(file: "x.yaml", line: 1))
    let step = first.steps[0]
    #expect(step.user == "2" && step.messageCount == 3 && step.allowExtra)
    #expect(step.location.line == 6)
    let bot = try #require(step.bot)
    #expect(bot[0].text == .exact("Hello", ignoreCase: false))
    #expect(bot[1].text == .contains("hel", ignoreCase: true))
    #expect(bot[1].buttons == .contains(["A"]))
    #expect(bot[1].contacts == .exact(["138503", "138504"]))
    #expect(bot[1].image == .glob("https://*", ignoreCase: false))
    #expect(
      bot[1].custom
        == .object(["slot": .object(["a": .number(1), "b": .bool(true), "c": .string("text")])]))
    #expect(
      bot[2].text == .anyOf([.exact("a", ignoreCase: false), .regex("^b", ignoreCase: false)]))
    #expect(bot[2].not.first?.text == .exact("x", ignoreCase: false))
    #expect(bot[2].location.line == 16)
    #expect(first.steps[1].user == "Health insurance")
    #expect(transcripts[1].location.line == 20)
  }

  @Test func contactCardFields() throws {
    let transcript = try #require(
      try parse(
        """
        name: Cards
        steps:
          - user: hi
            bot:
              - contacts:
                  - {name: {contains: Centre}, city: Brno}
                  - {id: "138504"}
        """
      ).first)
    let cards = try #require(transcript.steps[0].bot?[0].cards)
    #expect(cards.count == 2)
    #expect(cards[0]["name"] == .contains("Centre", ignoreCase: false))
    #expect(cards[0]["city"] == .exact("Brno", ignoreCase: false))
    #expect(cards[1]["id"] == .exact("138504", ignoreCase: false))
    #expect(
      problem("name: x\nsteps:\n  - user: a\n    bot:\n      - contacts: [{nmae: x}]\n")?.kind
        == .unknownKey(key: "nmae", allowed: MessageExpectation.cardFields))
  }

  @Test func unknownKeysNameTheKeyAndWhereItIs() {
    let typo = problem(
      """
      name: Typo
      steps:
        - user: hi
          bot:
            - txet: hello
      """)
    #expect(typo?.line == 5)
    #expect(
      typo?.kind
        == .unknownKey(
          key: "txet", allowed: ["text", "buttons", "contacts", "image", "custom", "not"]))
    #expect(typo?.message(Localizer(.en)).hasPrefix("x.yaml:5:") == true)
    #expect(
      problem("name: x\nsteps: []\nstpes: []\n")?.kind
        == .unknownKey(
          key: "stpes",
          allowed: [
            "name", "language", "sender", "start", "expected_failure", "ignore", "steps",
          ]))
    #expect(
      problem("name: x\nsteps:\n  - user: a\n    bot:\n      - text: {contians: b}\n")?.line == 5)
  }

  @Test func malformedYAMLHasLineAndColumn() {
    let broken = problem("name: x\nsteps: [\n")
    #expect(broken?.line == 3)
    #expect(broken?.column != nil)
    if case .notYAML? = broken?.kind {} else { Issue.record("\(String(describing: broken))") }
  }

  @Test func badValues() {
    #expect(problem("steps: []\n")?.kind == .missing(key: "name"))
    #expect(problem("name: x\n")?.kind == .missing(key: "steps"))
    #expect(problem("name: x\nlanguage: de\nsteps: []\n")?.kind == .badLanguage(value: "de"))
    #expect(problem("name: x\nsteps:\n  - bot: []\n")?.kind == .missing(key: "user"))
    #expect(
      problem("name: x\nsteps:\n  - user: a\n    button: b\n")?.kind
        == .conflicting(keys: ["user", "button"]))
    #expect(
      problem("name: x\nsteps:\n  - user: a\n    bot:\n      - text: {regex: \"(\"}\n")?.kind
        == .badRegex(pattern: "("))
    #expect(
      problem("name: x\nsteps:\n  - user: a\n    bot:\n      - text: {contains: a, glob: b}\n")?
        .kind == .conflicting(keys: ["contains", "glob"]))
    #expect(
      problem("name: x\nsteps:\n  - user: a\n    messages: many\n")?.kind
        == .expected(what: "a number", key: "messages"))
    #expect(problem("- just a list\n")?.kind == .expected(what: "a mapping", key: "transcript"))
    // Translated.
    let russian = problem("name: x\nlanguage: de\nsteps: []\n")?.message(Localizer(.ru))
    #expect(russian == "x.yaml:2:11: «de» — не язык: выберите en, ru или uk")
  }

  /// `ignore:` takes one pattern or a list; one that does not compile, or that matches
  /// the empty text (it would mask everything), is refused where it is written.
  @Test func ignorePatterns() throws {
    let one = try parse("name: x\nignore: '[0-9]+'\nsteps: []\n")
    #expect(one.first?.ignore == ["[0-9]+"])
    let two = try parse("name: x\nignore: ['[0-9]+', 'ID-\\w+']\nsteps: []\n")
    #expect(two.first?.ignore == ["[0-9]+", #"ID-\w+"#])
    #expect(problem("name: x\nignore: '('\nsteps: []\n")?.kind == .badRegex(pattern: "("))
    let empty = problem("name: x\nignore: ['[0-9]*']\nsteps: []\n")
    #expect(empty?.kind == .ignoreMatchesEmpty(pattern: "[0-9]*"))
    #expect(empty?.line == 2)
    #expect(empty?.message(Localizer(.uk)).contains("збігається з порожнім текстом") == true)
  }

  @Test func theRepositorysTranscriptsParse() throws {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "Transcripts/offline")
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
      $0.hasSuffix(".yaml")
    }
    #expect(files.count >= 3)
    for file in files {
      #expect(try !TranscriptParser.load(path: directory.appendingPathComponent(file).path).isEmpty)
    }
  }
}
