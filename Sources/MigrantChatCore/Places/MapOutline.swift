import Foundation

/// What a map of Czechia draws under the offices: the border, the main rivers and
/// the biggest towns (`Geography/map.tsv`, made by `Tools/geodata`).
public struct MapOutline: Sendable {
  public struct Town: Sendable, Hashable {
    public var name: String
    public var point: GeoPoint
    public var population: Int
  }

  public var borders: [[GeoPoint]]
  public var rivers: [[GeoPoint]]
  public var towns: [Town]

  public static let czechia = MapOutline(
    tsv: String(decoding: PackageResources.map_tsv, as: UTF8.self))

  /// Rows `border	lat,lon lat,lon …`, `river	NAME	lat,lon …` and
  /// `city	NAME	lat	lon	population`; `#` lines are comments.
  init(tsv: String) {
    borders = []
    rivers = []
    towns = []
    for line in tsv.split(separator: "\n") where !line.hasPrefix("#") {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      switch fields.first {
      case "border" where fields.count >= 2:
        borders.append(Self.points(fields[fields.count - 1]))
      case "river" where fields.count >= 3:
        rivers.append(Self.points(fields[fields.count - 1]))
      case "city" where fields.count >= 5:
        if let latitude = Double(fields[2]), let longitude = Double(fields[3]) {
          towns.append(
            Town(
              name: String(fields[1]), point: GeoPoint(latitude: latitude, longitude: longitude),
              population: Int(fields[4]) ?? 0))
        }
      default:
        continue
      }
    }
  }

  private static func points(_ field: Substring) -> [GeoPoint] {
    field.split(separator: " ").compactMap { pair in
      let numbers = pair.split(separator: ",")
      guard numbers.count == 2, let latitude = Double(numbers[0]),
        let longitude = Double(numbers[1])
      else { return nil }
      return GeoPoint(latitude: latitude, longitude: longitude)
    }
  }

  /// Whether `point` is inside the border (ray casting on the outline).
  public func contains(_ point: GeoPoint) -> Bool {
    var inside = false
    for ring in borders where ring.count >= 3 {
      var previous = ring[ring.count - 1]
      for current in ring {
        if (current.latitude > point.latitude) != (previous.latitude > point.latitude) {
          let crossing =
            (previous.longitude - current.longitude) * (point.latitude - current.latitude)
            / (previous.latitude - current.latitude) + current.longitude
          if point.longitude < crossing { inside.toggle() }
        }
        previous = current
      }
    }
    return inside
  }

  /// Whether `point` is in Czechia as far as the outline can tell: inside it, or
  /// within `slack` km of it (the outline is simplified to about a km, so towns on
  /// the border can fall just outside: Český Těšín, Krnov).
  public func holds(_ point: GeoPoint, slack: Double = 3) -> Bool {
    contains(point) || distanceToBorder(point) <= slack
  }

  /// The distance in km from `point` to the nearest stretch of the border (flat
  /// within a stretch: they are a few km long).
  public func distanceToBorder(_ point: GeoPoint) -> Double {
    let cosine = cos(point.latitude * .pi / 180)
    func flat(_ other: GeoPoint) -> (Double, Double) {
      (
        (other.longitude - point.longitude) * cosine * 111.2,
        (other.latitude - point.latitude) * 111.2
      )
    }
    var nearest = Double.infinity
    for ring in borders where ring.count >= 2 {
      var previous = flat(ring[ring.count - 1])
      for vertex in ring {
        let current = flat(vertex)
        let dx = current.0 - previous.0
        let dy = current.1 - previous.1
        let length = dx * dx + dy * dy
        let t = length > 0 ? max(0, min(1, -(previous.0 * dx + previous.1 * dy) / length)) : 0
        let x = previous.0 + t * dx
        let y = previous.1 + t * dy
        nearest = min(nearest, (x * x + y * y).squareRoot())
        previous = current
      }
    }
    return nearest
  }

  /// The border's bounds: south, north, west, east.
  public var bounds: MapView {
    let all = borders.flatMap { $0 }
    return MapView(
      south: all.map(\.latitude).min() ?? 48.55, north: all.map(\.latitude).max() ?? 51.06,
      west: all.map(\.longitude).min() ?? 12.09, east: all.map(\.longitude).max() ?? 18.86)
  }
}

/// The area a map shows, in degrees.
public struct MapView: Sendable, Hashable {
  public var south: Double
  public var north: Double
  public var west: Double
  public var east: Double

  public init(south: Double, north: Double, west: Double, east: Double) {
    self.south = south
    self.north = north
    self.west = west
    self.east = east
  }

  /// The square around `center` reaching `radius` km each way.
  /// The centre is kept within 85° of the equator first, so the view is never empty
  /// or upside down near a pole (`/map 90.0,17.0`).
  public init(around center: GeoPoint, radius: Double) {
    let middle = min(85, max(-85, center.latitude))
    let latitude = min(radius, 20_000) / 111.2
    let longitude = min(180, latitude / max(0.05, cos(middle * .pi / 180)))
    self.init(
      south: max(-89, middle - latitude), north: min(89, middle + latitude),
      west: center.longitude - longitude, east: center.longitude + longitude)
  }

  /// The view with `fraction` of its size added on each side.
  public func widened(by fraction: Double) -> MapView {
    let height = (north - south) * fraction
    let width = (east - west) * fraction
    return MapView(
      south: south - height, north: north + height, west: west - width, east: east + width)
  }

  public func contains(_ point: GeoPoint) -> Bool {
    south <= point.latitude && point.latitude <= north && west <= point.longitude
      && point.longitude <= east
  }
}
