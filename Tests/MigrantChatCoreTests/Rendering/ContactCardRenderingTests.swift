import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct ContactCardRenderingTests {
  static let sample = Dictionary(
    uniqueKeysWithValues: SampleDirectory.contacts().map { ($0.id, $0) })

  static func contact(_ id: Int64) -> Contact {
    sample[id] ?? Contact(id: id, name: "missing from the sample")
  }

  /// A reply with three cards (one a favourite), an unknown id and a non-numeric one,
  /// then the directory's own events.
  static func events() -> [ChatEvent] {
    var bare = Contact(id: 7, name: "Office with only a name")
    bare.city = "Zlín"
    let cards = ContactCards(
      found: ["138503": contact(138503), "138504": contact(138504), "7": bare],
      favourites: [138504], resolved: true)
    let reply = BotReply(messages: [
      BotMessage(text: "These offices can help:"),
      BotMessage(
        custom: .object([
          "contacts": .array([
            .number(138503), .string("138504"), .number(7), .number(999999), .string("abc"),
          ])
        ])),
    ])
    let listing = ContactListing(
      query: "brno",
      result: SearchResult(contacts: [contact(138504), contact(138503)], total: 5),
      favourites: [138504], isSample: true)
    return [
      .reply(reply, contacts: cards),
      .contactList(listing),
      .contactList(
        ContactListing(
          query: "zzz", result: SearchResult(contacts: [], total: 0), favourites: [],
          isSample: false)),
      .contactCard(contact(138510), favourite: false),
      .directory(.favouriteAdded(contact(138503))),
      .directory(.favouriteRemoved(id: 138503)),
      .directory(.notAFavourite(id: 1)),
      .directory(.contactMissing(id: "999999")),
      .directory(.synced(.updated(count: 12, skipped: 2))),
      .directory(.synced(.unchanged)),
      .directory(
        .synced(.failed(.unreachable(server: "http://127.0.0.1:9", reason: .connectionRefused)))),
      .directory(
        .synced(
          .failed(.badPayload(server: "http://127.0.0.1:9", table: "contacts", problem: .notJSON)))),
      .directory(.notice(.rebuilt(movedTo: "/cache/directory.sqlite.corrupt-20261122T101500Z"))),
      .inputError(.badContactID("12x", example: 7101)),
      .inputError(.needsContactID(command: "/fav", example: 7101)),
      .inputError(.needsContactID(command: "/contact", example: nil)),
    ]
  }

  @Test(arguments: Language.allCases, [40, 80])
  func cardsGolden(language: Language, width: Int) {
    let renderer = Renderer(width: width, color: false, language: language)
    let output = RendererTests.transcript(Self.events(), renderer: renderer)
    expectGolden(output, named: "cards-\(language.rawValue)-\(width)")
    // Nothing is wider than the screen but a link alone on its line, kept whole to be copied.
    for line in output.split(separator: "\n") {
      let isLoneLink =
        line.trimmingCharacters(in: .whitespaces).contains("://")
        && !line.trimmingCharacters(in: .whitespaces).contains(" ")
      #expect(DisplayWidth.of(line) <= width || isLoneLink, "too wide at \(width): \(line)")
    }
  }

  @Test(arguments: Language.allCases)
  func threeCardsFitA24LineScreenAt80Columns(language: Language) {
    let ids: [Int64] = [138503, 138505, 138506]
    let cards = ContactCards(
      found: Dictionary(uniqueKeysWithValues: ids.map { (String($0), Self.contact($0)) }),
      resolved: true)
    let reply = BotReply(messages: [
      BotMessage(text: "These offices can help you with health insurance:"),
      BotMessage(custom: .object(["contacts": .array(ids.map { .number(Double($0)) })])),
    ])
    let output = Renderer(width: 80, color: false, language: language)
      .render(.reply(reply, contacts: cards)).stdout
    let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count <= 22, "leaves room for the prompt and the user's line:\n\(output)")
    #expect(output.contains("#138506"))
  }

  @Test func hostileContactFieldsAreSanitized() {
    var evil = Contact(id: 1, name: "Evil\u{1B}]0;pwned\u{07} office\u{202E}")
    evil.address = "Street\u{9B}2J 1"
    evil.phone = "+420\u{0}123"
    evil.web = "https://x.example/\u{1B}[31m"
    let output = Renderer(width: 80, color: false, language: .en)
      .card(evil, favourite: false, full: true)
    #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B })
    #expect(!output.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0 })
    #expect(output.contains("Evil"))
  }

  @Test func withoutADirectoryTheIDsAreShownAsTheyAre() {
    let reply = BotReply(messages: [
      BotMessage(custom: .object(["contacts": .array([.number(138503)])]))
    ])
    let output = Renderer(width: 80, color: false, language: .en).render(.reply(reply)).stdout
    #expect(output == "  Contacts: 138503\n")
  }
}
