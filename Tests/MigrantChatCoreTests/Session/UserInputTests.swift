import Testing

@testable import MigrantChatCore

@Suite struct UserInputTests {
  let choices = [
    Button(title: "Health insurance", payload: "/health"),
    Button(title: "Житло", payload: "/housing"),
  ]

  @Test func numbersPickButtons() {
    #expect(UserInput(line: "1", choices: choices) == .choice(choices[0]))
    #expect(UserInput(line: " 2 ", choices: choices) == .choice(choices[1]))
  }

  @Test func numbersOutOfRangeAreErrors() {
    #expect(UserInput(line: "3", choices: choices) == .noSuchChoice(number: 3, count: 2))
    #expect(UserInput(line: "0", choices: choices) == .noSuchChoice(number: 0, count: 2))
    #expect(UserInput(line: "-1", choices: choices) == .noSuchChoice(number: -1, count: 2))
  }

  @Test func numbersWithoutAnyButtonsAreText() {
    #expect(UserInput(line: "5", choices: []) == .text("5"))
  }

  @Test func titlesMatchCaseInsensitivelyAndNormalized() {
    #expect(UserInput(line: "health INSURANCE", choices: choices) == .choice(choices[0]))
    #expect(UserInput(line: "ЖИТЛО", choices: choices) == .choice(choices[1]))
    let decomposed = [Button(title: "Caf\u{E9}", payload: "/cafe")]
    #expect(UserInput(line: "cafe\u{301}", choices: decomposed) == .choice(decomposed[0]))
  }

  @Test func commands() {
    #expect(UserInput(line: "/help", choices: []) == .command(.help))
    #expect(UserInput(line: "/HELP", choices: []) == .command(.help))
    #expect(UserInput(line: "/restart", choices: []) == .command(.restart))
    #expect(UserInput(line: "/new", choices: []) == .command(.newConversation))
    #expect(UserInput(line: "/lang", choices: []) == .command(.language(nil)))
    #expect(UserInput(line: "/lang uk", choices: []) == .command(.language("uk")))
    #expect(UserInput(line: "/quit", choices: []) == .command(.quit))
    #expect(UserInput(line: "/exit", choices: []) == .command(.quit))
  }

  @Test func otherSlashTextGoesToTheBot() {
    #expect(UserInput(line: "/greet", choices: []) == .text("/greet"))
    #expect(UserInput(line: #"/faq_item{"id":10}"#, choices: []) == .text(#"/faq_item{"id":10}"#))
    #expect(UserInput(line: "//help", choices: []) == .text("/help"))
    #expect(UserInput(line: "/restart now", choices: []) == .text("/restart now"))
  }

  @Test func blankLinesAreEmpty() {
    #expect(UserInput(line: "   ", choices: choices) == .empty)
    #expect(UserInput(line: "", choices: choices) == .empty)
  }
}
