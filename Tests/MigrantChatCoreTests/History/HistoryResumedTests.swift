import Foundation
import Testing

@testable import MigrantChatCore

/// What `--resume` shows (#47): the bot's last answer and what led to it.
@Suite struct HistoryResumedTests {
  let now = Date(timeIntervalSince1970: 1_780_000_000)

  func user(_ text: String) -> HistoryEntry {
    HistoryEntry(kind: .user, at: now, language: .en, text: text)
  }

  func bot(_ text: String) -> HistoryEntry {
    HistoryEntry(kind: .bot, at: now, language: .en, messages: [BotMessage(text: text)])
  }

  @Test func theLastAnswerAndTheLinesBeforeItNotTheCommandsAfter() {
    let entries = [
      user("work"), bot("Work: choose a guide."), user("/todo add call"), user("1"),
      bot("Finding a job"), user("/todo add a"), user("/report old"), user("/quit"),
    ]
    let shown = HistoryExport.resumed(entries, count: 12)
    #expect(shown.map(\.text) == ["work", "", "1", ""])
    #expect(shown.last?.messages.first?.text == "Finding a job")
  }

  @Test func aShortTailBeginsWithWhatWasTyped() {
    let entries = [user("a"), bot("A1"), bot("A2"), user("b"), bot("B")]
    let shown = HistoryExport.resumed(entries, count: 4)
    #expect(shown.map(\.kind) == [.user, .bot], "not in the middle of A's answer")
    #expect(HistoryExport.resumed([user("/todo")], count: 4).isEmpty)
    #expect(HistoryExport.resumed([user("hello")], count: 4).map(\.text) == ["hello"])
  }
}
