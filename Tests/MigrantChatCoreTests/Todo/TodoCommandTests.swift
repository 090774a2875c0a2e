import Testing

@testable import MigrantChatCore

@Suite struct TodoCommandTests {
  static func add(_ title: String, due: String? = nil) -> TodoCommand {
    .add(title: title, fields: TodoFieldsText(due: due))
  }

  @Test func parsesWhatFollowsTodo() {
    #expect(TodoCommand(argument: nil) == .list(.open))
    #expect(TodoCommand(argument: "all") == .list(.all))
    #expect(TodoCommand(argument: "DONE") == .list(.done))
    #expect(TodoCommand(argument: "done 3") == .done(["3"]))
    #expect(TodoCommand(argument: "done 4 5 6") == .done(["4", "5", "6"]))
    #expect(TodoCommand(argument: "add Call the office") == Self.add("Call the office"))
    #expect(
      TodoCommand(argument: "add Call --due через 3 дні") == Self.add("Call", due: "через 3 дні"))
    #expect(TodoCommand(argument: "add Call --due=1.12.") == Self.add("Call", due: "1.12."))
    #expect(TodoCommand(argument: "add #2") == .addMessage(2))
    #expect(TodoCommand(argument: "add 2") == .addMessage(2))
    #expect(TodoCommand(argument: "add 2026 plans") == Self.add("2026 plans"))
    #expect(TodoCommand(argument: "add") == .needsTitle)
    #expect(TodoCommand(argument: "save") == .save(guideID: nil))
    #expect(TodoCommand(argument: "zap") == .unknown("zap"))
  }

  /// Chat commands take the same words as the command line, quoted as a shell would.
  @Test func quotesGroupWordsAsAShellDoes() {
    #expect(
      TodoCommand(argument: #"add "Купить полис" --due "в понедельник""#)
        == Self.add("Купить полис", due: "в понедельник"))
    #expect(TodoCommand(argument: #"add "Купить полис""#) == Self.add("Купить полис"))
    #expect(
      TodoCommand(argument: "add 'Call the office' --due=friday")
        == Self.add("Call the office", due: "friday"))
    #expect(TodoCommand(argument: #"add Say \"hi\""#) == Self.add(#"Say "hi""#))
    // An apostrophe in a word is a letter, and an unclosed quote is kept as typed.
    #expect(TodoCommand(argument: "add Зв'язатися з офісом") == Self.add("Зв'язатися з офісом"))
    #expect(TodoCommand(argument: #"add "Call"#) == Self.add(#""Call"#))
    #expect(
      TodoCommand(argument: "add Visa --place Brno --description \"bring photos\" --contact 12")
        == .add(
          title: "Visa",
          fields: TodoFieldsText(description: "bring photos", place: "Brno", contacts: ["12"])))
    #expect(TodoCommand(argument: "add Visa --colour red") == .badOption("--colour"))
    #expect(TodoCommand(argument: "add Visa --due") == .badOption("--due"))
    #expect(TodoCommand(argument: "add -- --due is a word") == Self.add("--due is a word"))
    // The quotes and dashes keyboards and autocorrect make.
    #expect(
      TodoCommand(argument: "add «Купить полис» --due «в понедельник»")
        == Self.add("Купить полис", due: "в понедельник"))
    #expect(TodoCommand(argument: "add “Call” —due friday") == Self.add("Call", due: "friday"))
    #expect(TodoCommand(argument: "add Pay – 100 CZK") == Self.add("Pay – 100 CZK"))
    // Options without a title: the title is missing (the message picker is for `add` alone).
    #expect(
      TodoCommand(argument: "add --due tomorrow")
        == .add(title: "", fields: TodoFieldsText(due: "tomorrow")))
  }

  @Test func shellWords() {
    #expect(ShellWords.split("") == [])
    #expect(ShellWords.split("  a   b ") == ["a", "b"])
    #expect(ShellWords.split(#"a "b c" 'd e'"#) == ["a", "b c", "d e"])
    #expect(ShellWords.split(#"x"y z"w"#) == ["xy zw"])
    #expect(ShellWords.split(#"a\ b"#) == ["a b"])
    #expect(ShellWords.split(#"'it\'s'"#) == [#"it\s'"#])
    #expect(ShellWords.split("don't stop") == ["don't", "stop"])
    #expect(ShellWords.split("'п'ятниця'") == ["п'ятниця"])
    #expect(ShellWords.split(#""""#) == [""])
  }

  @Test func taskNumbers() {
    #expect(TodoNumbers.read(["4", "5", "#6"], command: "c") == .success([4, 5, 6]))
    #expect(TodoNumbers.read(["4,5", "4"], command: "c") == .success([4, 5]))
    #expect(
      TodoNumbers.read(["4", "x"], command: "c")
        == .failure(.needsTaskNumber(command: "c", typed: "x")))
    #expect(
      TodoNumbers.read([], command: "c") == .failure(.needsTaskNumber(command: "c", typed: nil)))
    #expect(
      TodoNumbers.read(["0"], command: "c") == .failure(.needsTaskNumber(command: "c", typed: "0")))
    #expect(
      TodoNumbers.read(["99999999999999999999"], command: "c")
        == .failure(.needsTaskNumber(command: "c", typed: "99999999999999999999")))
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
