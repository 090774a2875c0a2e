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

/// A domain split into a folder, as Rasa reads it (`rasa train --domain domain/`).
@Suite struct DomainFolderTests {
  @Test func theFilesUnderAFolderAreOneDomain() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "domain-" + UUID().uuidString)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("forms"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("intents:\n- greet\nresponses:\n  utter_greet:\n  - text: Hi\n".utf8).write(
      to: folder.appendingPathComponent("base.yml"))
    try Data(
      "intents:\n- transfer\nslots:\n  amount:\n    type: text\nforms:\n  transfer_form: {}\nresponses:\n  utter_ask_amount:\n  - text: How much?\n"
        .utf8
    ).write(to: folder.appendingPathComponent("forms/transfer.yaml"))
    try Data("not yaml: [".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    let names = try DomainFile.names(path: folder.path)
    #expect(names[.intents] == ["greet", "transfer"])
    #expect(names[.responses] == ["utter_greet", "utter_ask_amount"])
    #expect(names[.slots] == ["amount"] && names[.forms] == ["transfer_form"])
    let coverage = try DomainFile.coverage(path: folder.path)
    #expect(coverage.responses.keys.sorted() == ["utter_ask_amount", "utter_greet"])

    let empty = folder.appendingPathComponent("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    #expect(throws: DomainFile.Failure.self) { try DomainFile.names(path: empty.path) }
  }

  @Test func aMissingFileIsSaidInTheUsersLanguage() {
    do {
      _ = try DomainFile.names(path: "/no/such/domain.yml")
      Issue.record("read")
    } catch {
      #expect(error.message(Localizer(.en)) != error.message(Localizer(.uk)))
      #expect(!error.message(Localizer(.en)).contains("NSCocoaErrorDomain"))
    }
  }
}
