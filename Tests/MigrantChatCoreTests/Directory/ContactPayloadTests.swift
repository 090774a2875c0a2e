import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct ContactPayloadTests {
  /// The contract's `examples/contacts.json`.
  static let contractExample = """
    {"items": [
      {"id": 138503, "name": "Centre for Foreigners", "color": "#E91E63", "order": 8,
       "address": "Example street 1, 602 00 Brno", "city": "Brno", "phone": "+420 500 000 001",
       "email": "info@centre.example", "web": "https://centre.example",
       "latitude": 49.1951, "longitude": 16.6068, "openingHours": "Mo-Fr 09:00-16:00",
       "localizedAttributes": {"ru": {"name": "Центр для иностранцев"},
         "uk": {"name": "Центр для іноземців"}, "en": {"name": "Centre for Foreigners"}}},
      {"id": "138504", "name": "Labour Office, Brno branch", "address": "Example square 2, 602 00 Brno",
       "phone": "+420 500 000 002",
       "localizedAttributes": {"ru": {"name": "Бюро по труду, филиал Брно"}, "uk": {"name": "Бюро праці, філія Брно"}}}
    ]}
    """

  @Test func contractExample() throws {
    let payload = try ItemsPayloadDecoder.contacts(Data(Self.contractExample.utf8))
    #expect(payload.skipped == 0)
    #expect(payload.items.map(\.id) == [138503, 138504])
    let centre = payload.items[0]
    #expect(centre.name(in: .uk) == "Центр для іноземців")
    #expect(centre.city == "Brno")
    #expect(centre.order == 8)
    #expect(
      centre.mapURL
        == "https://www.openstreetmap.org/?mlat=49.1951&mlon=16.6068")
    // No English override: the default name.
    #expect(payload.items[1].name(in: .en) == "Labour Office, Brno branch")
    #expect(payload.items[1].mapURL == nil)
  }

  @Test func invalidItemsAreSkippedAndCounted() throws {
    let body = """
      {"items": [
        {"id": 1, "name": "Good"},
        {"name": "No id"},
        {"id": "12a", "name": "Bad id"},
        {"id": 1.5, "name": "Fractional id"},
        {"id": 2, "name": ""},
        {"id": 3, "name": "Wrong type", "phone": 123456},
        {"id": 4, "name": "Bad coordinates", "latitude": "north"},
        "not an object",
        {"id": "5", "name": "Also good", "latitude": "50.08", "unknown": {"ignored": true}}
      ]}
      """
    let payload = try ItemsPayloadDecoder.contacts(Data(body.utf8))
    #expect(payload.items.map(\.id) == [1, 5])
    #expect(payload.items[1].latitude == 50.08)
    #expect(payload.skipped == 7)
  }

  @Test(arguments: [
    ("<html>", ItemsPayloadFailure.notJSON),
    ("[1,2]", .notAnItemsObject(got: "array")),
    (#"{"items": {"id": 1}}"#, .notAnItemsObject(got: "object")),
    (#"{"data": []}"#, .notAnItemsObject(got: "object")),
  ])
  func unusablePayloadsAreErrors(body: String, failure: ItemsPayloadFailure) {
    #expect(throws: failure) { try ItemsPayloadDecoder.contacts(Data(body.utf8)) }
  }

  @Test func emptyLocalizedNameFallsBack() {
    let contact = Contact(id: 1, name: "Default", localized: [.ru: .init(name: "")])
    #expect(contact.name(in: .ru) == "Default")
  }

  @Test func searchFolding() {
    #expect(SearchText.fold("Mečová") == "mecova")
    #expect(SearchText.fold("BRNO") == "brno")
    #expect(SearchText.fold("Letohrad").hasPrefix(SearchText.fold("leto")))
    #expect(SearchText.fold("Центр ДЛЯ") == "центр для")
    #expect(SearchText.keys("  Úřad práce, Brno-střed ") == ["urad", "prace", "brno", "stred"])
  }
}
