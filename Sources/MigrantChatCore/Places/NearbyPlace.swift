import Foundation

/// The place a person said they live in (`/place`), kept between runs.
public struct HomePlace: Sendable, Hashable, Codable {
  /// As shown back: the town's Czech name, or the coordinates typed.
  public var name: String
  public var latitude: Double
  public var longitude: Double

  public init(name: String, point: GeoPoint) {
    self.name = name
    latitude = point.latitude
    longitude = point.longitude
  }

  public var point: GeoPoint { GeoPoint(latitude: latitude, longitude: longitude) }
}

/// Where distances are measured from.
public enum NearbyPlace: Sendable, Hashable {
  case place(Place)
  case point(GeoPoint)
  /// The remembered place (`/place`), when no place is given.
  case home(HomePlace)

  public var point: GeoPoint {
    switch self {
    case .place(let place): place.point
    case .point(let point): point
    case .home(let home): home.point
    }
  }

  /// As remembered by `/place`: the town's name, or the coordinates.
  public var asHome: HomePlace {
    switch self {
    case .place(let place): HomePlace(name: place.name, point: place.point)
    case .point(let point):
      HomePlace(name: "\(point.latitude), \(point.longitude)", point: point)
    case .home(let home): home
    }
  }

  /// The place `text` names, or why it names none.
  /// `preferring`: the keyboard layout read first (`PlaceLookup.find`).
  public static func resolve(_ text: String, preferring: KeyboardLayout = .russian)
    throws(PlaceProblem) -> PlaceReading
  {
    switch PlaceLookup.find(text, preferring: preferring) {
    case .place(let place, let readAs, let guessed):
      return PlaceReading(
        place: .place(place), typed: text.trimmingWhitespace(), readAs: readAs, guessed: guessed,
        namesakes: PlaceLookup.namesakes(of: place))
    case .point(let point):
      // Pasted the other way round (longitude first): read so, and said, when only
      // that way is in or near Czechia.
      let swapped = GeoPoint(latitude: point.longitude, longitude: point.latitude)
      let outline = MapOutline.czechia
      if !outline.holds(point), swapped.isValid, outline.holds(swapped) {
        return PlaceReading(place: .point(swapped), typed: text, swapped: true)
      }
      return PlaceReading(place: .point(point), typed: text)
    case .abroad(let place): throw .abroad(place, typed: text.trimmingWhitespace())
    case .unknown(let suggestions):
      throw .unknown(text.trimmingWhitespace(), suggestions: suggestions)
    case .empty: throw .empty
    case .tooLong: throw .tooLong(count: text.count)
    case .outOfRange(let latitude, let longitude):
      throw .outOfRange(latitude: latitude, longitude: longitude)
    }
  }

  /// Whether the place is outside Czechia (a town abroad, or coordinates there).
  public var isOutsideCzechia: Bool {
    switch self {
    case .place(let place): place.isAbroad
    case .point(let point): !MapOutline.czechia.holds(point)
    case .home(let home): !MapOutline.czechia.holds(home.point)
    }
  }
}

/// A place as read from what was typed, and how it was read.
public struct PlaceReading: Sendable, Hashable {
  public var place: NearbyPlace
  /// What was typed, for saying it back.
  public var typed: String?
  /// The text as read in the other keyboard layout, when it was.
  public var readAs: String?
  /// Not found as typed: the closest name (a typo, or some of the words).
  public var guessed = false
  /// Coordinates read the other way round.
  public var swapped = false
  /// The other Czech places of the name found (the lookup took the one spelled as
  /// typed, else the biggest): said, so that nobody measures from the wrong Lhota.
  public var namesakes: [Place] = []

  public init(
    place: NearbyPlace, typed: String? = nil, readAs: String? = nil, guessed: Bool = false,
    swapped: Bool = false, namesakes: [Place] = []
  ) {
    self.place = place
    self.typed = typed
    self.readAs = readAs
    self.guessed = guessed
    self.swapped = swapped
    self.namesakes = namesakes
  }

  /// Not the text as typed: the closest name (a typo, some of the words, marks the
  /// name does not have), or the text read in the other keyboard layout. `contacts
  /// near` and `map` exit with 3 for it unless `--accept-guess`.
  public var isGuess: Bool { guessed || readAs != nil }
}

/// Why a place could not be used.
public enum PlaceProblem: Error, Sendable, Hashable {
  case empty
  case tooLong(count: Int)
  case outOfRange(latitude: Double, longitude: Double)
  case unknown(String, suggestions: [String])
  /// A place abroad too far away, and the name as typed (said back, not GeoNames' own).
  case abroad(Place, typed: String)
  /// `/near` or `/map` without a place, and none remembered.
  case noPlaceSet
  /// `--within` for a map of the whole country.
  case withinNeedsPlace
  /// `/near PLACE --limit X` with X not a number of offices.
  case badLimit(String)
  /// `/near PLACE --within X` with X not a distance.
  case badDistance(String)
  /// `/place` with a name found only as a guess: not kept until typed as found.
  case guessNotKept(typed: String, place: Place)
}

/// Offices near a place, for `contacts near` and `/near`.
public struct NearbyListing: Sendable, Hashable {
  public var reading: PlaceReading
  public var place: NearbyPlace { reading.place }
  public var result: NearbyOffices.Result
  public var within: Double?
  /// With nothing within reach: the nearest office beyond it.
  public var nearestBeyond: NearbyOffice?
  public var favourites: Set<Int64>
  public var isSample: Bool

}

/// A map of offices, for `contacts map` and `/map`: drawn by the renderer, at its
/// width and height.
public struct OfficeMap: Sendable, Hashable {
  public var reading: PlaceReading?
  public var place: NearbyPlace? { reading?.place }
  /// Every office placed, nearest to the place (or to the middle) first.
  public var offices: [NearbyOffice]
  public var within: Double?
  public var unplaced: Int
  public var isSample: Bool

  /// Czechia without a place; around the place, to `within` km or to take in its
  /// three nearest offices (at least 25 km, at most 300), with one.
  public var view: MapView {
    guard let place else { return MapOutline.czechia.bounds.widened(by: 0.02) }
    let reach =
      within ?? min(300, max(25, (offices.prefix(3).last?.distance ?? 25) * 1.15))
    return MapView(around: place.point, radius: reach)
  }

  public func drawing(columns: Int, maxRows: Int) -> TerminalMap {
    let view = view
    let outline = MapOutline.czechia
    let rows = TerminalMap.rows(for: view, columns: columns, maxRows: maxRows)
    // The whole country: its biggest towns; closer in, the biggest places in view,
    // but for those within 5 km of a bigger one (the parts of a town GeoNames counts
    // apart, Brno's Bohunice or Prague's Smíchov: their labels would hide the town's).
    var towns: [MapOutline.Town] = place == nil ? outline.towns : []
    if place != nil {
      for candidate in PlaceTable.czech where view.contains(candidate.point) {
        if towns.count == 12 { break }
        guard towns.allSatisfy({ $0.point.distance(to: candidate.point) > 5 }) else { continue }
        towns.append(
          MapOutline.Town(
            name: candidate.name, point: candidate.point, population: candidate.population))
      }
    }
    return TerminalMap(
      view: view, outline: outline, offices: offices.filter { view.contains($0.point) },
      place: place?.point, towns: towns, columns: columns, rows: rows)
  }
}

/// What `near` and `map` do with the directory's offices: shared by the command
/// line and the chat.
public enum OfficeFinder {
  /// The list nearest first; `text` nil uses `home`.
  public static func listing(
    _ contacts: [Contact], text: String?, home: HomePlace?, within: Double?, limit: Int?,
    favourites: Set<Int64>, isSample: Bool, preferring: KeyboardLayout = .russian
  ) throws(PlaceProblem) -> NearbyListing {
    let reading = try place(text, home: home, preferring: preferring)
    // Every office placed once; the reach and the limit are taken from that.
    let all = NearbyOffices.find(in: contacts, from: reading.place.point, within: nil, limit: nil)
    var result = all
    if let within {
      result.offices = all.offices.filter { $0.shownDistance <= within }
      result.total = result.offices.count
    }
    if let limit, result.offices.count > limit {
      result.offices.removeLast(result.offices.count - limit)
    }
    let nearest = result.offices.isEmpty && within != nil ? all.offices.first : nil
    return NearbyListing(
      reading: reading, result: result, within: within, nearestBeyond: nearest,
      favourites: favourites, isSample: isSample)
  }

  /// The map's offices and place: of Czechia without one (and no `home`), or when
  /// the text names the whole country (`all`, `Česko`, `Чехія`).
  public static func map(
    _ contacts: [Contact], text: String?, home: HomePlace?, within: Double?, isSample: Bool,
    preferring: KeyboardLayout = .russian
  ) throws(PlaceProblem) -> OfficeMap {
    var reading: PlaceReading?
    if let text, isWholeCountry(text) {
      reading = nil
    } else if text != nil || home != nil {
      reading = try place(text, home: home, preferring: preferring)
    }
    // KM around nothing: said, not ignored.
    if reading == nil, within != nil { throw .withinNeedsPlace }
    let all = NearbyOffices.find(
      in: contacts, from: reading?.place.point ?? MapOutline.czechia.bounds.center,
      within: nil, limit: nil)
    return OfficeMap(
      reading: reading, offices: all.offices, within: within, unplaced: all.unplaced,
      isSample: isSample)
  }

  /// Every office of the directory, its favourites, and whether it is the sample.
  public static func offices(
    in directory: ContactDirectory, language: Language
  ) async throws(DirectoryError) -> (contacts: [Contact], favourites: Set<Int64>, isSample: Bool) {
    let contacts = try await directory.search("", language: language, limit: Int.max).contacts
    let favourites = try await directory.favourites()
    let isSample = (try? await directory.status().source?.isSample) == true
    return (contacts, favourites, isSample)
  }

  /// Whether `text` names the whole country rather than a place in it.
  public static func isWholeCountry(_ text: String) -> Bool {
    wholeCountry.contains(SearchText.keys(text).joined(separator: " "))
  }

  private static let wholeCountry: Set<String> = Set(
    [
      "all", "cz", "czechia", "czech republic", "česko", "čechy", "чехия", "чехія", "вся чехия",
      "вся чехія", "celé česko",
    ].map { SearchText.keys($0).joined(separator: " ") })

  static func place(_ text: String?, home: HomePlace?, preferring: KeyboardLayout)
    throws(PlaceProblem) -> PlaceReading
  {
    if let text { return try NearbyPlace.resolve(text, preferring: preferring) }
    guard let home else { throw .noPlaceSet }
    return PlaceReading(place: .home(home))
  }
}

extension MapView {
  var center: GeoPoint {
    GeoPoint(latitude: (south + north) / 2, longitude: (west + east) / 2)
  }
}

/// Distances as people type them.
public enum PlaceDistance {
  /// A distance in km above 0 and at most 20,000 (half the way round the Earth):
  /// `10`, `10.5`, `10,5`, `10km`, `10 км`.
  public static func kilometres(_ text: String) -> Double? {
    var typed = text.trimmingWhitespace().lowercased()
    for unit in ["km", "км"] where typed.hasSuffix(unit) {
      typed = String(typed.dropLast(unit.count))
    }
    typed = typed.trimmingWhitespace().replacingOccurrences(of: ",", with: ".")
    guard typed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let km = Double(typed),
      km.isFinite, km > 0, km <= 20_000
    else { return nil }
    return km
  }
}
