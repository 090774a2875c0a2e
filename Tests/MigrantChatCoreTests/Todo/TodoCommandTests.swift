import Testing

@testable import MigrantChatCore

@Suite struct TodoCommandTests {
  @Test func parsesWhatFollowsTodo() {
    #expect(TodoCommand(argument: nil) == .list(.open))
    #expect(TodoCommand(argument: "all") == .list(.all))
    #expect(TodoCommand(argument: "DONE") == .list(.done))
    #expect(TodoCommand(argument: "done 3") == .done("3"))
    #expect(
      TodoCommand(argument: "add Call the office") == .add(title: "Call the office", due: nil))
    #expect(
      TodoCommand(argument: "add Call --due через 3 дні") == .add(title: "Call", due: "через 3 дні")
    )
    #expect(TodoCommand(argument: "add Call --due=1.12.") == .add(title: "Call", due: "1.12."))
    #expect(TodoCommand(argument: "add #2") == .addMessage(2))
    #expect(TodoCommand(argument: "add 2") == .addMessage(2))
    #expect(TodoCommand(argument: "add 2026 plans") == .add(title: "2026 plans", due: nil))
    #expect(TodoCommand(argument: "add") == .needsTitle)
    #expect(TodoCommand(argument: "save") == .save(guideID: nil))
    #expect(TodoCommand(argument: "zap") == .unknown("zap"))
  }

  @Test func theSaveButtonsPayload() {
    let payload = TodoCommand.savePayload(guideID: 10)
    #expect(TodoCommand.savedGuide(payload: payload) == 10)
    #expect(TodoCommand.savedGuide(payload: #"/todo_save{"id":"12"}"#) == 12)
    #expect(TodoCommand.savedGuide(payload: "/todo_save") == nil)
    #expect(TodoCommand.savedGuide(payload: #"/faq_item{"id":10}"#) == nil)
    #expect(TodoCommand.savedGuide(payload: nil) == nil)
  }
}
