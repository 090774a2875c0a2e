import Foundation
import Testing

@testable import MigrantChatCore

/// `history export N --transcript`: a conversation's entries as a transcript's turns.
@Suite struct HistoryTranscriptTests {
  let now = Date(timeIntervalSince1970: 1_780_000_000)

  func bot(_ text: String, late: Bool = false) -> HistoryEntry {
    HistoryEntry(
      kind: late ? .late : .bot, at: now, language: .en, messages: [BotMessage(text: text)])
  }

  func user(_ text: String, chose: String? = nil) -> HistoryEntry {
    var entry = HistoryEntry(kind: .user, at: now, language: .en, text: text)
    entry.chose = chose
    return entry
  }

  @Test func entriesBecomeTheStartAndTheSteps() {
    let (start, turns) = HistoryExport.turns([
      bot("Hello"), bot("Choose a topic"),
      user("2", chose: "Housing"), bot("Housing: choose a guide"), bot("a late card", late: true),
      user("/lang uk"), HistoryEntry(kind: .language, at: now, language: .uk, text: "uk"),
      user("житло"), HistoryEntry(kind: .failure, at: now, language: .uk, text: "timed out"),
    ])
    #expect(start?.map(\.text) == ["Hello", "Choose a topic"])
    #expect(turns.map(\.line) == ["2", "/lang uk", "житло"])
    #expect(
      turns.map(\.button) == ["Housing", nil, nil], "a number that chose a button is a click")
    #expect(turns[0].messages.map(\.text) == ["Housing: choose a guide", "a late card"])
    #expect(turns[2].messages.isEmpty, "a failed turn expects no answer")
  }

  @Test func aConversationWithoutAStartAnswerHasNoStart() {
    let (start, turns) = HistoryExport.turns([user("hi"), bot("Hello")])
    #expect(start == nil)
    #expect(turns == [RecordedTurn(line: "hi", messages: [BotMessage(text: "Hello")])])
    #expect(HistoryExport.turns([]).turns.isEmpty)
  }
}
