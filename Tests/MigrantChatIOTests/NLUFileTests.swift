import Foundation
import MigrantChatCore
import TestSupport
import Testing

@testable import MigrantChatIO

@Suite struct NLUFileTests {
  /// Rasa's own formats: a block of lines, a list of `text:` entries, and what is not
  /// an intent's examples.
  @Test func bothFormsOfExamplesAreRead() throws {
    let examples = try NLUFile.examples(
      yaml: """
        version: "3.1"
        nlu:
        - intent: ask_residence
          examples: |
            - где получить [вид на жительство](document)
            - Як отримати посвідку?
            - где получить [вид на жительство](document)
        - intent: greet
          examples:
          - text: "привет"
            metadata:
              sentiment: neutral
          - text: hello
        - synonym: Brno
          examples: |
            - Брно
        - regex: postcode
          examples: |
            - \\d{3} ?\\d{2}
        """)
    #expect(
      examples == [
        RobustnessExample(
          intent: "ask_residence", annotated: "где получить [вид на жительство](document)"),
        RobustnessExample(intent: "ask_residence", text: "Як отримати посвідку?"),
        RobustnessExample(intent: "greet", text: "привет"),
        RobustnessExample(intent: "greet", text: "hello"),
      ])
  }

  /// The entities survive in the written variants: the same words of the variant,
  /// its own trailing punctuation outside the brackets; a variant whose words moved
  /// (a typo joined two) has none placed, and is left out of --write-nlu.
  @Test func entitiesAreMarkedInTheVariants() {
    let example = RobustnessExample(
      intent: "residence", annotated: #"нужен ВНЖ в [Брно](city)? и [Праге]{"entity": "city"}"#)
    #expect(example.text == "нужен ВНЖ в Брно? и Праге")
    // Spelled otherwise, the mark gets the example's value, so the slot is still right.
    #expect(
      example.annotated("nuzhen VNZh v Brno? i Prage")
        == #"nuzhen VNZh v [Brno]{"entity":"city","value":"Брно"}? i [Prage]{"entity":"city","value":"Праге"}"#
    )
    #expect(
      example.annotated("ye;ty DYO d <hyj& b Ghfut")
        == #"ye;ty DYO d [<hyj]{"entity":"city","value":"Брно"}& b [Ghfut]{"entity":"city","value":"Праге"}"#
    )
    #expect(
      example.annotated("нужен ВНЖ в Брно и Праге")
        == #"нужен ВНЖ в [Брно](city) и [Праге]{"entity": "city"}"#)
    // What the variant adds after the entity stays outside it.
    #expect(
      example.annotated("нужен ВНЖ в Брно? и Праге??")
        == #"нужен ВНЖ в [Брно](city)? и [Праге]{"entity": "city"}??"#)
    // Brackets of the variant's own (х on QWERTY is `[`) would read as marks: left out.
    #expect(example.annotated("[jxe DYO d <hyj& b Ghfut") == nil)
    // An entity in parentheses: the signs before it stay outside too.
    let inParentheses = RobustnessExample(intent: "housing", annotated: "квартира ([Прага](city))")
    #expect(
      inParentheses.annotated("kvartira (Praga)")
        == #"kvartira ([Praga]{"entity":"city","value":"Прага"})"#)
    #expect(example.annotated("нужен ВНЖ вБрно? и Праге") == nil)
    let outcome = RobustnessOutcome(
      example: example, variant: UtteranceVariant(.typo, "one-edit", "нужен ВНЖ вБрно? и Праге"),
      understood: "nlu_fallback", confidence: 0.3)
    let written = RobustnessReport(outcomes: [outcome], minConfidence: 0.3).nluYAML
    #expect(written.hasPrefix("# 1 variant(s) left out"))
    #expect(!written.contains("вБрно"))
  }

  @Test(arguments: ["", "nlu: 3", "- a\n- b", "nlu: [", "rules:\n- rule: x"])
  func notTrainingDataIsAFailure(text: String) {
    #expect(throws: NLUFile.Failure.self) { try NLUFile.examples(yaml: text) }
  }

  /// The Rasa tier's bot: its training data reads.
  @Test func theTestBotsTrainingData() throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("RasaBot/data/nlu.yml").path
    let examples = try NLUFile.examples(path: path)
    #expect(examples.count > 20)
    #expect(!examples.contains { $0.text.contains("](") })
  }
}

/// `robustness --write-transcripts`: each failing variant a transcript the parser
/// reads back, checking the intent at the run's confidence or the example's answer.
@Suite struct RobustnessRecordingTests {
  @Test func theWrittenTranscriptsReadBackAsChecks() throws {
    let folder = TemporaryDirectory()
    var example = RobustnessExample(intent: "ask residence", text: "вид на жительство")
    var outcomes = [
      RobustnessOutcome(
        example: example,
        variant: UtteranceVariant(.transliteration, "informal", "vid na zhitelstvo"),
        understood: "nlu_fallback", confidence: 0.3),
      RobustnessOutcome(
        example: example, variant: UtteranceVariant(.typo, "one-edit", "вид на жительсвто"),
        understood: "ask residence", confidence: 0.9),
    ]
    var report = RobustnessReport(outcomes: outcomes, minConfidence: 0.3)
    #expect(try RobustnessRecording.write(report, to: folder.path) == 1)
    let file = folder.path + "/robustness-ask-residence.yaml"
    let read = try TranscriptParser.load(path: file)
    #expect(read.count == 1)
    #expect(read.first?.steps.first?.user == "vid na zhitelstvo")
    #expect(read.first?.steps.first?.trackerCheckCount == 1)
    #expect(read.first?.language == .ru)

    // Judged by answers: the example's answer is what the variant must get.
    example.answer = RobustnessAnswer(messages: [
      BotMessage(text: "Residence: \u{1B}[2J", buttons: [Button(title: "Back")])
    ])
    outcomes = [
      RobustnessOutcome(
        example: example,
        variant: UtteranceVariant(.keyboardLayout, "russian", "dbl yf ;bntkmcndj"),
        reply: .answer(RobustnessAnswer(messages: [BotMessage(text: "Sorry?")])))
    ]
    report = RobustnessReport(outcomes: outcomes, minConfidence: 0.5)
    report.blackBox = true
    #expect(try RobustnessRecording.write(report, to: folder.path) == 1)
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(!text.contains("\u{1B}"), "a control character is escaped")
    let answers = try TranscriptParser.load(path: file)
    #expect(answers.first?.steps.first?.bot?.count == 1)
    #expect(answers.first?.steps.first?.trackerCheckCount == 0)
    // An answer that quotes the example is expected to quote the variant instead.
    #expect(
      RobustnessRecording.echoing(
        "helth", for: "health", in: BotMessage(text: "Guides that match 'health':")
      ).text
        == "Guides that match 'helth':")
    #expect(RobustnessRecording.slug("Rasa, Russian / ВНЖ") == "rasa-russian-внж")
    #expect(RobustnessRecording.slug("!!!") == "examples")
  }
}
