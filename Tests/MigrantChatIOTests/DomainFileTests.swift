import Foundation
import MigrantChatCore
import Testing

@testable import MigrantChatIO

@Suite struct DomainFileTests {
  @Test func responsesAndTheirButtonsIntents() throws {
    let coverage = try DomainFile.coverage(
      yaml: """
        version: "3.1"
        intents: [greet, visa]
        responses:
          utter_greet:
            - text: "Hello!"
              buttons:
                - {title: Visa, payload: /visa}
                - {title: Brno, payload: '/city{"city": "Brno"}'}
            - text: "Hi {name}"
          utter_map:
            - image: https://example.org/map.png
        """)
    #expect(coverage.responses == ["utter_greet": ["Hello!", "Hi {name}"]])
    #expect(coverage.buttonIntents == ["visa", "city"])
    // The test bot's own domain reads.
    let bot = try DomainFile.coverage(path: "Tests/RasaBot/domain.yml")
    #expect(bot.responses["utter_goodbye"] == ["Goodbye!"])
  }

  @Test func notADomainSaysWhy() {
    #expect(throws: DomainFile.Failure.self) { try DomainFile.coverage(yaml: "- a\n- b\n") }
    #expect(throws: DomainFile.Failure.self) { try DomainFile.coverage(yaml: "a: [\n") }
    #expect(throws: DomainFile.Failure.self) {
      try DomainFile.coverage(path: "/no/such/domain.yml")
    }
  }
}

/// `--coverage DOMAIN`: the names a domain declares, in each of Rasa's spellings.
@Suite struct DomainNamesTests {
  @Test func everyKindIsRead() throws {
    let names = try DomainFile.names(
      yaml: """
        version: "3.1"
        intents:
          - greet
          - inform:
              use_entities: [amount]
        responses:
          utter_greet: [{text: Hi}]
        actions: [action_check, utter_greet]
        slots:
          amount: {type: text, mappings: [{type: from_text}]}
        forms:
          transfer_form: {required_slots: [amount]}
        """)
    #expect(names[.intents] == ["greet", "inform"])
    #expect(names[.responses] == ["utter_greet"])
    #expect(names[.actions] == ["action_check"], "a response among the actions is a response")
    #expect(names[.slots] == ["amount"] && names[.forms] == ["transfer_form"])
  }

  @Test(arguments: ["", "- a list\n", "version: '3.1'\n", "intents: [\n"])
  func aFileWithNothingToCountIsRefused(yaml: String) {
    #expect(throws: DomainFile.Failure.self) { try DomainFile.names(yaml: yaml) }
  }
}
