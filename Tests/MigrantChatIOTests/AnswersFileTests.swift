import Foundation
import MigrantChatCore
import Testing

@testable import MigrantChatIO

/// `explore --answers FILE`: both forms read; every mistake named with its line.
@Suite struct AnswersFileTests {
  @Test func bothFormsAreRead() throws {
    let answers = try AnswersFile.parse(
      """
      answers:
        - slot: amount
          answers: ["50", 1000]
        - prompt: "your name"
          answers:
            en: Alice
            uk: [Олена, Ірина]
      """, file: "a.yml")
    #expect(answers.entries.count == 2)
    #expect(answers.entries[0].slot == "amount" && answers.entries[0].any == ["50", "1000"])
    #expect(answers.entries[1].answers == [.en: ["Alice"], .uk: ["Олена", "Ірина"]])
    #expect(answers.entries[1].line == 4)
    let bare = try AnswersFile.parse("- slot: date\n  answers: tomorrow\n", file: "b.yml")
    #expect(bare.entries.first?.any == ["tomorrow"])
  }

  @Test(arguments: [
    ("- slot: a\n  answer: [1]\n", "b.yml:2:3: ", "answer"),
    ("- slot: a\n", "b.yml:1:3: ", "answers"),
    ("- answers: [1]\n", "b.yml:1:3: ", "slot / prompt"),
    ("- prompt: \"(\"\n  answers: [1]\n", "b.yml:1:11: ", "("),
    ("- slot: a\n  answers: {de: [1]}\n", "b.yml:2:13: ", "de"),
    ("- slot: a\n  answers: [\"  \"]\n", "b.yml:2:12: ", "answers"),
    ("- slot: a\n  answers: []\n", "b.yml:2:12: ", "answers"),
    ("answers: []\n", "b.yml:1:10: ", ""),
    ("answers: [\n", "b.yml:2:1: ", ""),
    ("slot: a\n", "b.yml:1:1: ", "slot"),
    ("", "b.yml:1: ", ""),
  ])
  func mistakesAreNamedWithTheirLine(yaml: String, place: String, names: String) {
    do {
      _ = try AnswersFile.parse(yaml, file: "b.yml")
      Issue.record("read: \(yaml)")
    } catch {
      let message = error.message(Localizer(.en))
      #expect(
        message.hasPrefix(place) && (names.isEmpty || message.contains(names)), "\(message)")
    }
  }

  @Test func aFolderOrBinaryIsRefused() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "answers-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(throws: TranscriptParser.Problem.self) { try AnswersFile.load(path: folder.path) }
    let binary = folder.appendingPathComponent("a.yml")
    try Data([0, 1, 2]).write(to: binary)
    do {
      _ = try AnswersFile.load(path: binary.path)
      Issue.record("read a binary file")
    } catch {
      #expect(error.kind == .notText)
    }
  }
}
