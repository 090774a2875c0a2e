import Foundation
import MigrantChatCore
import MigrantChatIO
import TestSupport
import Testing

/// Every recording of any session replays green against the same bot: a property
/// checked over generated sessions of buttons (by number and by title), free text,
/// `/restart`, `/new` and `/lang`, against the offline assistant.
@Suite struct RecordingReplayTests {
  static let freeText = [
    "health insurance", "work permit", "школа", "житло", "страховка", "xyz", "Brno", "2.",
  ]

  func line(for session: ChatSession, using random: inout SeededRandom) async -> String {
    let choices = await session.choices
    switch Int.random(in: 0..<10, using: &random) {
    case 0..<4 where !choices.isEmpty:
      return String(Int.random(in: 1...choices.count, using: &random))
    case 4..<6 where !choices.isEmpty:
      let title = choices.randomElement(using: &random)?.title ?? ""
      return Bool.random(using: &random) ? title.lowercased() : title
    case 6: return "/restart"
    case 7: return "/new"
    case 8: return "/lang " + (Language.allCases.randomElement(using: &random)?.rawValue ?? "en")
    default: return Self.freeText.randomElement(using: &random) ?? "help"
    }
  }

  @Test(arguments: 0..<60)
  func aRecordingReplaysGreen(seed: Int) async throws {
    var random = SeededRandom(seed: UInt64(seed))
    let tree = SampleGuidance.tree()
    let language = Language.allCases.randomElement(using: &random) ?? .en
    let session = ChatSession(
      transport: OfflineTransport(assistant: OfflineAssistant(tree: tree, stemmer: LightStemmer())),
      store: TransientSessionStore(), language: language, senderID: "recorded-\(seed)",
      startMessage: "/start")
    _ = await session.start()
    var typed: [String] = []
    for _ in 0..<Int.random(in: 3...14, using: &random) {
      let next = await line(for: session, using: &random)
      typed.append(next)
      _ = await session.handle(next)
    }
    let start = RecordedTurn(line: "/start", messages: await session.startReply ?? [])
    let yaml = try TranscriptWriter.yaml(
      name: "seed \(seed)", language: session.openingLanguage, start: start,
      turns: await session.log)
    let transcripts = try TranscriptParser.parse(yaml, file: "seed-\(seed).yaml")
    let runner = TranscriptRunner(language: .en) {
      OfflineTransport(assistant: OfflineAssistant(tree: tree, stemmer: LightStemmer()))
    }
    let result = await runner.run(try #require(transcripts.first))
    #expect(
      result.passed,
      "typed \(typed): \(result.failure?.reasons ?? []) at \(result.failure?.location.line ?? 0)")
  }
}
