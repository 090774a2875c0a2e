import Foundation

/// A town or village people can name: the Czech ones of the bundled table (GeoNames'
/// places of 500 people or more, cities500) and a few abroad (see `Geography/`).
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
  public static let czech: [Place] = parse(PackageResources.places_tsv, abroad: false)

  /// How many Czech places the table holds, counted without reading them (for
  /// `--help`, which says it).
  public static var czechCount: Int {
    PackageResources.places_tsv.split(separator: UInt8(ascii: "\n")).count {
      $0.first != UInt8(ascii: "#")
    }
  }

  /// Towns near the border in the neighbouring countries, every capital, and the big
  /// cities of the countries most foreigners in Czechia come from.
  public static let abroad: [Place] = parse(PackageResources.foreign_tsv, abroad: true)

  /// Rows of `places.tsv` (`name lat lon population region othernames`) or of
  /// `foreign.tsv` (`name cc lat lon othernames`); `#` lines are comments. A row
  /// that does not parse is skipped (the tests check that none is). Read as bytes:
  /// splitting the 300 KB as Strings cost every lookup's process 16 ms.
  static func parse(_ bytes: [UInt8], abroad: Bool) -> [Place] {
    var places: [Place] = []
    places.reserveCapacity(abroad ? 1_000 : 2_800)
    let tab = UInt8(ascii: "\t")
    for line in bytes.split(separator: UInt8(ascii: "\n")) where line.first != UInt8(ascii: "#") {
      let fields = line.split(separator: tab, omittingEmptySubsequences: false)
      func text(_ index: Int) -> String {
        index < fields.count ? String(decoding: fields[index], as: UTF8.self) : ""
      }
      func number(_ index: Int) -> Double? {
        index < fields.count ? Double(Substring(text(index))) : nil
      }
      func others(_ index: Int) -> [String] {
        guard index < fields.count else { return [] }
        return fields[index].split(separator: UInt8(ascii: "|")).map {
          String(decoding: $0, as: UTF8.self)
        }
      }
      if abroad {
        guard fields.count >= 4, let latitude = number(2), let longitude = number(3) else {
          continue
        }
        places.append(
          Place(
            name: text(0), point: GeoPoint(latitude: latitude, longitude: longitude),
            population: 0, region: nil, country: text(1), otherNames: others(4)))
      } else {
        guard fields.count >= 4, let latitude = number(1), let longitude = number(2),
          let population = Int(text(3))
        else { continue }
        let region = text(4)
        places.append(
          Place(
            name: text(0), point: GeoPoint(latitude: latitude, longitude: longitude),
            population: population, region: region.isEmpty ? nil : region, country: nil,
            otherNames: others(5)))
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

  /// The lines of the place table's `#` header: its sources and licence (the tests
  /// check they are there; docs/places.md and `contacts near --help` credit them).
  public static var attribution: [String] {
    String(decoding: PackageResources.places_tsv, as: UTF8.self).split(separator: "\n")
      .prefix(while: { $0.hasPrefix("#") }).map { String($0.dropFirst()).trimmingWhitespace() }
  }
}
