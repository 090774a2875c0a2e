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

  /// The place `text` names, or why it names none; `readAs`: the text as read in the
  /// other keyboard layout, when it was.
  public static func resolve(_ text: String) throws(PlaceProblem) -> (
    place: NearbyPlace, readAs: String?
  ) {
    switch PlaceLookup.find(text) {
    case .place(let place, let readAs): return (.place(place), readAs)
    case .point(let point): return (.point(point), nil)
    case .abroad(let place): throw .abroad(place)
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
    case .home: false
    }
  }
}

/// Why a place could not be used.
public enum PlaceProblem: Error, Sendable, Hashable {
  case empty
  case tooLong(count: Int)
  case outOfRange(latitude: Double, longitude: Double)
  case unknown(String, suggestions: [String])
  case abroad(Place)
  /// `/near` or `/map` without a place, and none remembered.
  case noPlaceSet
}

/// Offices near a place, for `contacts near` and `/near`.
public struct NearbyListing: Sendable, Hashable {
  public var place: NearbyPlace
  public var readAs: String?
  public var result: NearbyOffices.Result
  public var within: Double?
  /// With nothing within reach: the nearest office beyond it.
  public var nearestBeyond: NearbyOffice?
  public var favourites: Set<Int64>
  public var isSample: Bool

  public var outsideCzechia: Bool { place.isOutsideCzechia }
}

/// A map of offices, for `contacts map` and `/map`: drawn by the renderer, at its
/// width and height.
public struct OfficeMap: Sendable, Hashable {
  public var place: NearbyPlace?
  public var readAs: String?
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
    // The whole country: its biggest towns; closer in, the biggest places in view.
    let towns: [MapOutline.Town] =
      place == nil
      ? outline.towns
      : PlaceTable.czech.lazy.filter { view.contains($0.point) }.prefix(12).map {
        MapOutline.Town(name: $0.name, point: $0.point, population: $0.population)
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
    favourites: Set<Int64>, isSample: Bool
  ) throws(PlaceProblem) -> NearbyListing {
    let (place, readAs) = try place(text, home: home)
    let result = NearbyOffices.find(in: contacts, from: place.point, within: within, limit: limit)
    var nearest: NearbyOffice?
    if result.offices.isEmpty, within != nil {
      nearest =
        NearbyOffices.find(in: contacts, from: place.point, within: nil, limit: 1)
        .offices.first
    }
    return NearbyListing(
      place: place, readAs: readAs, result: result, within: within, nearestBeyond: nearest,
      favourites: favourites, isSample: isSample)
  }

  /// The map's offices and place: of Czechia without one (and no `home`).
  public static func map(
    _ contacts: [Contact], text: String?, home: HomePlace?, within: Double?, isSample: Bool
  ) throws(PlaceProblem) -> OfficeMap {
    var place: NearbyPlace?
    var readAs: String?
    if text != nil || home != nil {
      (place, readAs) = try self.place(text, home: home)
    }
    let all = NearbyOffices.find(
      in: contacts, from: place?.point ?? MapOutline.czechia.bounds.center, within: nil,
      limit: nil)
    return OfficeMap(
      place: place, readAs: readAs, offices: all.offices, within: within,
      unplaced: all.unplaced, isSample: isSample)
  }

  static func place(_ text: String?, home: HomePlace?) throws(PlaceProblem) -> (
    NearbyPlace, String?
  ) {
    if let text { return try NearbyPlace.resolve(text) }
    guard let home else { throw .noPlaceSet }
    return (.home(home), nil)
  }
}

extension MapView {
  var center: GeoPoint {
    GeoPoint(latitude: (south + north) / 2, longitude: (west + east) / 2)
  }
}
