import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct ChatSessionPlacesTests {
  let contacts = MemoryContactStore()
  let favourites = MemoryFavouriteStore()
  let store = RecordingStore()

  func makeSession(home: HomePlace? = nil) throws -> (ChatSession, FakeTransport) {
    try contacts.replaceContacts(SampleDirectory.contacts(), source: .sample)
    let directory = ContactDirectory(store: contacts, favourites: favourites, sync: nil)
    let transport = FakeTransport { _ in BotReply(messages: []) }
    let session = ChatSession(
      transport: transport, store: store, language: .en, senderID: "s", startMessage: "",
      directory: directory, home: home)
    return (session, transport)
  }

  @Test func commandsAreTheClients() {
    #expect(UserInput(line: "/near u Brna", choices: []) == .command(.near("u Brna")))
    #expect(UserInput(line: "/map", choices: []) == .command(.map(nil)))
    #expect(UserInput(line: "/place off", choices: []) == .command(.place("off")))
    // Typed with the Cyrillic layout on.
    #expect(UserInput(line: "/здфсу Брно", choices: []) == .command(.place("Брно")))
  }

  @Test func placeIsRememberedAndUsedByNearAndMap() async throws {
    let (session, transport) = try makeSession()
    guard case .placeSet(let home?)? = await session.handle("/place около Оломоуца").first else {
      Issue.record("not set")
      return
    }
    #expect(home.name == "Olomouc")
    #expect(store.places.withLock { $0 } == [home])
    guard case .nearby(let listing)? = await session.handle("/near").first else {
      Issue.record("no listing")
      return
    }
    #expect(listing.result.offices.first?.contact.id == 138511)
    #expect(listing.result.offices.count == ChatSession.nearLimit)
    guard case .officeMap(let map)? = await session.handle("/map").first else {
      Issue.record("no map")
      return
    }
    #expect(map.place == .home(home))
    #expect(await session.handle("/place off") == [.placeSet(nil)])
    #expect(store.places.withLock { $0 }.last == .some(nil))
    #expect(await session.handle("/near") == [.placeProblem(.noPlaceSet)])
    // Nothing went to the bot.
    #expect(transport.messages.isEmpty)
  }

  @Test func aBadPlaceKeepsTheOldOne() async throws {
    let home = HomePlace(name: "Brno", point: GeoPoint(latitude: 49.19522, longitude: 16.60796))
    let (session, _) = try makeSession(home: home)
    for bad in [
      "/place Atlantis", "/place 100.5,100", "/place " + String(repeating: "x", count: 300),
    ] {
      guard case .placeProblem? = await session.handle(bad).first else {
        Issue.record("\(bad) was taken")
        continue
      }
    }
    #expect(await session.home == home)
    #expect(await session.unusableLines == 3)
    #expect(store.places.withLock { $0 }.isEmpty)
  }
}
