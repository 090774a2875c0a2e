import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct ChatSessionDirectoryTests {
  let store = MemoryContactStore()
  let favourites = MemoryFavouriteStore()

  func makeSession(
    api: FakeDataAPI? = nil, reply: BotReply = BotReply(messages: [])
  ) throws -> (ChatSession, FakeTransport) {
    try store.replaceContacts(
      [Contact(id: 138503, name: "Centre"), Contact(id: 138504, name: "Labour Office")],
      source: .sample)
    // One clock for the sync and the directory, which stands still: "within the
    // minute" holds however slowly a busy machine runs the test.
    let now = Date()
    let sync = api.map {
      DirectorySync(api: $0, store: store, policy: .once, sleep: { _ in }, now: { now })
    }
    let directory = ContactDirectory(
      store: store, favourites: favourites, sync: sync, now: { now })
    let transport = FakeTransport { _ in reply }
    let session = ChatSession(
      transport: transport, store: TransientSessionStore(), language: .en, senderID: "s",
      startMessage: "", directory: directory)
    return (session, transport)
  }

  @Test func contactIDsInARepliesBecomeCards() async throws {
    let reply = BotReply(messages: [
      BotMessage(custom: .object(["contacts": .array([.number(138503), .string("999999")])]))
    ])
    let (session, _) = try makeSession(reply: reply)
    let events = await session.handle("health")
    guard case .reply(_, let cards)? = events.first else {
      Issue.record("no reply: \(events)")
      return
    }
    #expect(cards.resolved)
    #expect(cards.found["138503"]?.name == "Centre")
    #expect(cards.found["999999"] == nil)
    #expect(events.count == 1, "no data API: no sync and no sync message")
    #expect(await session.failedTurns == 0)
  }

  @Test func lateContactIDsBecomeCardsToo() async throws {
    var reply = BotReply(messages: [BotMessage(text: "now")])
    reply.late = [BotMessage(custom: .object(["contacts": .array([.number(138504)])]))]
    let (session, _) = try makeSession(reply: reply)
    let events = await session.handle("health")
    guard case .late(_, let cards)? = events.first else {
      Issue.record("no late messages first: \(events)")
      return
    }
    #expect(cards.found["138504"]?.name == "Labour Office")
  }

  @Test func anUnknownIDSyncsOnceAndAFailedSyncIsShown() async throws {
    let api = FakeDataAPI { _ in
      .failure(.unreachable(server: "http://data.test", reason: .connectionRefused))
    }
    let reply = BotReply(messages: [
      BotMessage(custom: .object(["contacts": .array([.number(999999)])]))
    ])
    let (session, _) = try makeSession(api: api, reply: reply)
    let events = await session.handle("x")
    #expect(events.count == 2)
    #expect(
      events.last
        == .directory(
          .synced(.failed(.unreachable(server: "http://data.test", reason: .connectionRefused)))))
    // Within the minute: no second try, and so no second message.
    #expect(await session.handle("x").count == 1)
    #expect(api.requests.count == 1)
  }

  @Test func searchListAndShow() async throws {
    let (session, _) = try makeSession()
    guard case .contactList(let listing)? = await session.handle("/contacts labour").first else {
      Issue.record("no list")
      return
    }
    #expect(listing.query == "labour")
    #expect(listing.result.contacts.map(\.id) == [138504])
    #expect(listing.isSample)
    guard case .contactList(let all)? = await session.handle("/contacts").first else {
      Issue.record("no list")
      return
    }
    #expect(all.query == nil && all.result.total == 2)
    #expect(
      await session.handle("/contact 138503") == [
        .contactCard(Contact(id: 138503, name: "Centre"), favourite: false)
      ])
    #expect(
      await session.handle("/contact #138504").first.map {
        if case .contactCard = $0 { true } else { false }
      } == true)
  }

  @Test func favouritesAddAndRemove() async throws {
    let (session, _) = try makeSession()
    #expect(
      await session.handle("/fav 138503")
        == [.directory(.favouriteAdded(Contact(id: 138503, name: "Centre")))])
    #expect(try favourites.favourites() == [138503])
    #expect(
      await session.handle("/contact 138503")
        == [.contactCard(Contact(id: 138503, name: "Centre"), favourite: true)])
    // Again: said as it is, not "Added" a second time.
    #expect(
      await session.handle("/fav 138503")
        == [.directory(.alreadyFavourite(Contact(id: 138503, name: "Centre")))])
    #expect(
      await session.handle("/unfav 138503")
        == [.directory(.favouriteRemoved(id: 138503, contact: Contact(id: 138503, name: "Centre")))]
    )
    #expect(await session.handle("/unfav 138503") == [.directory(.notAFavourite(id: 138503))])
    #expect(await session.failedTurns == 0)
  }

  @Test func badIDsAreInputErrorsAndSendNothing() async throws {
    let (session, transport) = try makeSession()
    // The example in the hint is an id this directory has.
    #expect(
      await session.handle("/contact")
        == [.inputError(.needsContactID(command: "/contact", example: 138503))])
    #expect(
      await session.handle("/fav") == [
        .inputError(.needsContactID(command: "/fav", example: 138503))
      ])
    #expect(
      await session.handle("/fav 12x") == [.inputError(.badContactID("12x", example: 138503))])
    #expect(
      await session.handle("/unfav -3") == [.inputError(.badContactID("-3", example: 138503))])
    #expect(await session.handle("/fav 424242") == [.directory(.contactMissing(id: "424242"))])
    #expect(await session.handle("/contact 424242") == [.directory(.contactMissing(id: "424242"))])
    #expect(transport.messages.isEmpty)
    #expect(await session.unusableLines == 4, "input errors")
    #expect(await session.failedTurns == 2, "contacts that are not there")
    #expect(try favourites.favourites().isEmpty)
  }

  @Test func syncCommand() async throws {
    let (offline, _) = try makeSession()
    #expect(await offline.handle("/sync") == [.directory(.synced(.notConfigured))])
    #expect(await offline.failedTurns == 1)
    let api = FakeDataAPI { _ in .success(FakeDataAPI.items([1, 2, 3])) }
    let (online, _) = try makeSession(api: api)
    #expect(await online.handle("/sync") == [.directory(.synced(.updated(count: 3, skipped: 0)))])
    #expect(await online.failedTurns == 0)
    // `/sync now` is not the command: it goes to the bot.
    #expect(UserInput(line: "/sync now", choices: []) == .text("/sync now"))
  }
}
