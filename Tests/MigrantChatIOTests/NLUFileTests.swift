import Foundation
import MigrantChatCore
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
        RobustnessExample(intent: "ask_residence", text: "где получить вид на жительство"),
        RobustnessExample(intent: "ask_residence", text: "Як отримати посвідку?"),
        RobustnessExample(intent: "greet", text: "привет"),
        RobustnessExample(intent: "greet", text: "hello"),
      ])
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
