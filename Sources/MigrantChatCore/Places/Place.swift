import Foundation

/// A town or village people can name: the Czech ones of the bundled table (GeoNames
/// places of 1,000 people or more) and a few abroad (see `Geography/`).
public struct Place: Sendable, Hashable {
  /// The Czech name, with diacritics (the name on the signs).
  public var name: String
  public var point: GeoPoint
  public var population: Int
  /// The region (kraj), for telling apart places of one name.
  public var region: String?
  /// The ISO 3166 code of a place abroad; nil in Czechia.
  public var country: String?
  /// Other names: exonyms (Olmütz), other spellings, Cyrillic names.
  public var otherNames: [String]

  public var isAbroad: Bool { country != nil }
}

/// The bundled tables, read once from the text embedded in the binary.
public enum PlaceTable {
  /// The Czech places, most populous first.
  public static let czech: [Place] = parse(
    String(decoding: PackageResources.places_tsv, as: UTF8.self), abroad: false)

  /// Towns near the border in the neighbouring countries, and every capital.
  public static let abroad: [Place] = parse(
    String(decoding: PackageResources.foreign_tsv, as: UTF8.self), abroad: true)

  /// Rows of `places.tsv` (`name lat lon population region othernames`) or of
  /// `foreign.tsv` (`name cc lat lon othernames`); `#` lines are comments. A row
  /// that does not parse is skipped (the tests check that none is).
  static func parse(_ text: String, abroad: Bool) -> [Place] {
    var places: [Place] = []
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      let others = { (field: String) in
        field.split(separator: "|").map(String.init).filter { !$0.isEmpty }
      }
      if abroad {
        guard fields.count >= 4, let latitude = Double(fields[2]),
          let longitude = Double(fields[3])
        else { continue }
        places.append(
          Place(
            name: fields[0], point: GeoPoint(latitude: latitude, longitude: longitude),
            population: 0, region: nil, country: fields[1],
            otherNames: fields.count > 4 ? others(fields[4]) : []))
      } else {
        guard fields.count >= 4, let latitude = Double(fields[1]),
          let longitude = Double(fields[2]), let population = Int(fields[3])
        else { continue }
        places.append(
          Place(
            name: fields[0], point: GeoPoint(latitude: latitude, longitude: longitude),
            population: population,
            region: fields.count > 4 && !fields[4].isEmpty ? fields[4] : nil,
            country: nil, otherNames: fields.count > 5 ? others(fields[5]) : []))
      }
    }
    return places
  }

  /// The Czech place `point` is in or beside, and how far it is in km: of those
  /// within 10 km, the one whose people per km³ of distance (plus one) is highest,
  /// so a point in Prague's centre is Praha, not its quarter Staré Město, and a point
  /// in a village is the village, not the city 8 km away. Nil past 10 km.
  public static func nearest(to point: GeoPoint) -> (place: Place, distance: Double)? {
    czech.lazy.map { ($0, $0.point.distance(to: point)) }.filter { $0.1 <= 10 }
      .max { weight($0.0, $0.1) < weight($1.0, $1.1) }
  }

  private static func weight(_ place: Place, _ distance: Double) -> Double {
    Double(max(place.population, 1000)) / pow(distance + 1, 3)
  }

  /// The lines of the tables' `#` header: the sources and licences, for `--help` and docs.
  public static var attribution: [String] {
    String(decoding: PackageResources.places_tsv, as: UTF8.self).split(separator: "\n")
      .prefix(while: { $0.hasPrefix("#") }).map { String($0.dropFirst()).trimmingWhitespace() }
  }
}
