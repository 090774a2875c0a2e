import Foundation

/// A point on the Earth, in degrees (WGS 84, as GeoNames and the data API give them).
public struct GeoPoint: Sendable, Hashable, Codable {
  public var latitude: Double
  public var longitude: Double

  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// The mean radius of the Earth (IUGG), in km.
  static let earthRadius = 6371.0088

  /// Whether both are numbers in range (the data API's fields are not checked).
  public var isValid: Bool {
    latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude)
      && (-180...180).contains(longitude)
  }

  /// The great-circle distance in km (haversine, on a sphere: within 0.5 % of the
  /// ellipsoid's, which at 64 km is 300 m, less than a town's width).
  public func distance(to other: GeoPoint) -> Double {
    let radians = Double.pi / 180
    let phi1 = latitude * radians
    let phi2 = other.latitude * radians
    let deltaPhi = (other.latitude - latitude) * radians
    let deltaLambda = (other.longitude - longitude) * radians
    let a =
      sin(deltaPhi / 2) * sin(deltaPhi / 2) + cos(phi1) * cos(phi2) * sin(deltaLambda / 2)
      * sin(deltaLambda / 2)
    return 2 * Self.earthRadius * asin(min(1, a.squareRoot()))
  }

  /// Coordinates as people paste them from a map: `49.59,17.25`, `49.59, 17.25`,
  /// `49.59 17.25`, `49,59 17,25` (decimal commas, then a space between), with
  /// `N`/`E`/`S`/`W` or `°` after the numbers, or `geo:49.59,17.25`.
  ///
  /// `.notCoordinates` when the text is not two numbers (a place name, then);
  /// `.outOfRange` for numbers no place has (latitude past 90, longitude past 180).
  public static func parse(_ text: String) -> CoordinatesReading {
    var body = text.trimmingWhitespace()
    if body.lowercased().hasPrefix("geo:") { body = String(body.dropFirst(4)) }
    if let query = body.firstIndex(of: "?") { body = String(body[..<query]) }
    // Each number with its hemisphere letter, if any.
    var numbers: [(value: Double, hemisphere: Character?)] = []
    // With a space or a semicolon between the two, a comma inside each is a decimal comma.
    let spaced = body.contains(where: { " ;\t".contains($0) })
    let pieces = body.split(whereSeparator: { (spaced ? " ;\t" : ",/").contains($0) })
    let words = pieces.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
      .filter { !$0.isEmpty }
    guard (2...4).contains(words.count) else { return .notCoordinates }
    var index = 0
    while index < words.count {
      var word = words[index].uppercased()
      var hemisphere: Character?
      if let last = word.last, "NSEW".contains(last) {
        hemisphere = last
        word.removeLast()
      } else if index + 1 < words.count,
        ["N", "S", "E", "W"].contains(words[index + 1].uppercased())
      {
        hemisphere = Character(words[index + 1].uppercased())
        index += 1
      }
      word = word.replacingOccurrences(of: "°", with: "").replacingOccurrences(of: ",", with: ".")
      guard !word.isEmpty, word.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.".contains($0)) }),
        let value = Double(word), value.isFinite
      else { return .notCoordinates }
      numbers.append((value, hemisphere))
      index += 1
    }
    guard numbers.count == 2 else { return .notCoordinates }
    var latitude = numbers[0].value
    var longitude = numbers[1].value
    // "17.25E 49.59N": the letters say which is which.
    if numbers[0].hemisphere.map({ "EW".contains($0) }) == true,
      numbers[1].hemisphere.map({ "NS".contains($0) }) != false
    {
      swap(&latitude, &longitude)
      if numbers[0].hemisphere == "W" { longitude = -longitude }
      if numbers[1].hemisphere == "S" { latitude = -latitude }
    } else {
      if numbers[0].hemisphere == "S" { latitude = -latitude }
      if numbers[1].hemisphere == "W" { longitude = -longitude }
    }
    let point = GeoPoint(latitude: latitude, longitude: longitude)
    return point.isValid ? .point(point) : .outOfRange(latitude: latitude, longitude: longitude)
  }

  public enum CoordinatesReading: Sendable, Hashable {
    case point(GeoPoint)
    case outOfRange(latitude: Double, longitude: Double)
    case notCoordinates
  }
}
