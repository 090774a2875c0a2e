import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct JSONLinesRendererTests {
  func objects(_ event: ChatEvent, language: Language = .en) throws -> [[String: Any]] {
    try JSONLinesRenderer(language: language).render(event).split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  @Test func contactCardsAndDirectoryEvents() throws {
    let reply = BotReply(messages: [
      BotMessage(custom: .object(["contacts": .array([.number(5), .number(6)])]))
    ])
    let cards = ContactCards(
      found: ["5": Contact(id: 5, name: "Five", localized: [.uk: .init(name: "П'ять")])],
      favourites: [5], resolved: true)
    let bot = try #require(try objects(.reply(reply, contacts: cards), language: .uk).first)
    let card = try #require((bot["cards"] as? [[String: Any]])?.first)
    #expect(card["name"] as? String == "П'ять")
    #expect(card["favourite"] as? Bool == true)
    #expect(bot["missing_contacts"] as? [Int] == [6])
    #expect(bot["contacts"] as? [Int] == [5, 6])
    #expect((bot["cards"] as? [[String: Any]])?.first?["id"] as? Int == 5, "one type for ids")

    let failed = try #require(
      try objects(
        .directory(.synced(.failed(.unreachable(server: "http://d", reason: .connectionRefused))))
      )
      .first)
    #expect(failed["type"] as? String == "error")
    #expect(failed["code"] as? String == "data_api_unreachable")
    let added = try #require(
      try objects(.directory(.favouriteAdded(Contact(id: 5, name: "Five")))).first)
    #expect(added["type"] as? String == "notice")
    #expect(added["code"] as? String == "favourite_added")
    let list = try #require(
      try objects(
        .contactList(
          ContactListing(
            query: "f", result: SearchResult(contacts: [Contact(id: 5, name: "Five")], total: 9),
            favourites: [], isSample: true))
      ).first)
    #expect(list["total"] as? Int == 9)
    #expect(list["sample"] as? Bool == true)
    #expect((list["contacts"] as? [[String: Any]])?.first?["id"] as? Int == 5)
    #expect(list["read_as"] == nil, "only when the query was read in another layout")
    let switched = try #require(
      try objects(
        .contactList(
          ContactListing(
            query: "ghfuf",
            result: SearchResult(
              contacts: [Contact(id: 5, name: "Five")], total: 1, readAs: "прага"),
            favourites: [], isSample: false))
      ).first)
    #expect(switched["read_as"] as? String == "прага")
    let text = Renderer(width: 80, color: false, language: .en).render(
      .contactList(
        ContactListing(
          query: "ghfuf",
          result: SearchResult(
            contacts: [Contact(id: 5, name: "Five")], total: 1, readAs: "прага\u{1B}[2J"),
          favourites: [], isSample: false))
    ).stdout
    #expect(
      text.hasPrefix("Searched for “прага”: the text as typed with the other keyboard layout on."))
    #expect(!text.contains("\u{1B}"), "what was read is cleaned as any text")
  }

  @Test func botMessageWithAllParts() throws {
    let reply = BotReply(
      messages: [
        BotMessage(
          text: "Pick\u{1B}[31m",
          buttons: [
            Button(title: "Yes", payload: "/affirm"),
            Button(title: "Site", url: "https://s.example"),
          ],
          image: "https://i.example",
          custom: .object(["contacts": .array([.number(1), .string("2")])]))
      ], problems: [.notAnObject(index: 2, got: "string")])
    let lines = try objects(.reply(reply))
    #expect(lines.count == 2)
    #expect(lines[0]["type"] as? String == "bot")
    #expect(lines[0]["text"] as? String == "Pick")
    let buttons = try #require(lines[0]["buttons"] as? [[String: Any]])
    #expect(buttons[0]["number"] as? Int == 1)
    #expect(buttons[0]["payload"] as? String == "/affirm")
    #expect(buttons[1]["number"] == nil)
    #expect(buttons[1]["url"] as? String == "https://s.example")
    #expect(lines[0]["contacts"] as? [Int] == [1, 2])
    #expect(lines[1]["type"] as? String == "problem")
  }

  @Test func errorsNoticesAndLanguage() throws {
    let failure = try objects(.failure(.timedOut(server: "http://x", seconds: 5)), language: .uk)
    #expect(failure[0]["type"] as? String == "error")
    #expect(failure[0]["code"] as? String == "timeout")
    #expect((failure[0]["message"] as? String)?.contains("5 с") == true)
    #expect(try objects(.noAnswer)[0]["type"] as? String == "no_answer")
    #expect(try objects(.languageChanged(.ru))[0]["language"] as? String == "ru")
    #expect(
      try objects(.inputError(.noSuchChoice(number: 4, count: 2)))[0]["code"] as? String
        == "no_such_button")
    #expect(try objects(.notice(.help))[0]["code"] as? String == "help")
    #expect(try objects(.quit).isEmpty)
  }

  @Test func userLine() throws {
    let line = JSONLinesRenderer(language: .en).renderUser("hi \u{7}")
    #expect(line == #"{"text":"hi ","type":"user"}"# + "\n")
  }
}
