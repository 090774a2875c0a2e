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
    if let fromLink = coordinatesInLink(body) { body = fromLink }
    if let degrees = degreesMinutesSeconds(body) { return degrees }
    if body.lowercased().hasPrefix("geo:") { body = String(body.dropFirst(4)) }
    if let query = body.firstIndex(of: "?") { body = String(body[..<query]) }
    body = body.trimmingCharacters(in: CharacterSet(charactersIn: "()[] "))
    // Each number with its hemisphere letter, if any.
    var numbers: [(value: Double, hemisphere: Character?)] = []
    // With a space or a semicolon between the two, a comma inside each is a decimal comma.
    let spaced = body.contains(where: { " ;\t".contains($0) })
    let pieces = body.split(whereSeparator: { (spaced ? " ;\t" : ",/").contains($0) })
    let words = pieces.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
      .filter { !$0.isEmpty }
    guard (2...4).contains(words.count) else { return .notCoordinates }
    var index = 0
    // Whole numbers alone are not coordinates ("779 00" is a postcode): one of the two
    // has a decimal point, a degree sign or a hemisphere letter.
    var marked = false
    while index < words.count {
      var word = words[index].uppercased()
      var hemisphere: Character?
      if word.count == 1, "NSEW".contains(word), index + 1 < words.count {
        hemisphere = word.first  // "N 49.5939, E 17.2508"
        index += 1
        word = words[index].uppercased()
      } else if let last = word.last, "NSEW".contains(last) {
        hemisphere = last
        word.removeLast()
      } else if let first = word.first, "NSEW".contains(first), word.count > 1 {
        hemisphere = first  // "N49.195 E16.608"
        word.removeFirst()
      } else if index + 1 < words.count,
        ["N", "S", "E", "W"].contains(words[index + 1].uppercased())
      {
        hemisphere = Character(words[index + 1].uppercased())
        index += 1
      }
      if hemisphere != nil || word.contains(where: { ".,°".contains($0) }) { marked = true }
      word = word.replacingOccurrences(of: "°", with: "").replacingOccurrences(of: ",", with: ".")
      guard !word.isEmpty, word.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.".contains($0)) }),
        let value = Double(word), value.isFinite
      else { return .notCoordinates }
      numbers.append((value, hemisphere))
      index += 1
    }
    guard numbers.count == 2, marked else { return .notCoordinates }
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

  /// The coordinates in a map's link or a piece of it: `…/maps/@49.22,17.66,15z`,
  /// `?mlat=49.59&mlon=17.25` (OpenStreetMap), `?q=49.59,17.25`, `ll=`.
  static func coordinatesInLink(_ text: String) -> String? {
    let lower = text.lowercased()
    guard !lower.contains(" ") else { return nil }
    // A parameter's value: `name=` after `?`, `&` or `#` (not the `x=` inside `zx=`).
    func value(_ name: String) -> String? {
      for start in ["?", "&", "#"] {
        if let range = lower.range(of: start + name + "=") {
          return String(lower[range.upperBound...].prefix { $0 != "&" && $0 != "#" })
        }
      }
      return nil
    }
    if let latitude = value("mlat"), let longitude = value("mlon") {
      return latitude + "," + longitude
    }
    // Mapy.cz: x is the longitude, y the latitude.
    if lower.contains("mapy."), let longitude = value("x"), let latitude = value("y") {
      return latitude + "," + longitude
    }
    // OpenStreetMap's address bar: #map=zoom/latitude/longitude.
    if let map = value("map") {
      let parts = map.split(separator: "/")
      if parts.count == 3 { return parts[1] + "," + parts[2] }
    }
    for name in ["q", "ll", "query", "center"] {
      if let pair = value(name), pair.contains(",") {
        return pair.replacingOccurrences(of: "%2c", with: ",")
      }
    }
    if let at = lower.firstIndex(of: "@") {
      let rest = lower[lower.index(after: at)...].prefix { $0 != "/" && $0 != "?" }
      let parts = rest.split(separator: ",")
      if parts.count >= 2 { return parts[0] + "," + parts[1] }
    }
    return nil
  }

  /// `49°44'52"N 13°22'39"E`, `49° 35′ N, 17° 15′ E`: degrees, minutes and seconds,
  /// each number with its hemisphere.
  static func degreesMinutesSeconds(_ text: String) -> CoordinatesReading? {
    guard text.contains("°") else { return nil }
    let pattern =
      #"(-?\d+(?:[.,]\d+)?)\s*°\s*(?:(\d+(?:[.,]\d+)?)\s*['′’]\s*)?(?:(\d+(?:[.,]\d+)?)\s*(?:["″”]|''|′′)\s*)?([NSEWnsew])?"#
    guard let expression = try? NSRegularExpression(pattern: pattern) else { return nil }
    let whole = NSRange(text.startIndex..., in: text)
    let matches = expression.matches(in: text, range: whole)
    guard matches.count == 2 else { return nil }
    var values: [(Double, Character?)] = []
    for match in matches {
      func group(_ index: Int) -> String? {
        Range(match.range(at: index), in: text).map {
          String(text[$0]).replacingOccurrences(of: ",", with: ".")
        }
      }
      guard let degrees = group(1).flatMap(Double.init) else { return nil }
      let minutes = group(2).flatMap(Double.init) ?? 0
      let seconds = group(3).flatMap(Double.init) ?? 0
      guard minutes < 60, seconds < 60 else { return nil }
      let sign: Double = degrees < 0 ? -1 : 1
      values.append(
        (
          sign * (abs(degrees) + minutes / 60 + seconds / 3600),
          group(4).flatMap { $0.uppercased().first }
        ))
    }
    // Both numbers with what is left of them turned into decimal text, read as before.
    let first = String(values[0].0) + (values[0].1.map(String.init) ?? "")
    let second = String(values[1].0) + (values[1].1.map(String.init) ?? "")
    let reading = parse(first + " " + second)
    return reading == .notCoordinates ? nil : reading
  }

  public enum CoordinatesReading: Sendable, Hashable {
    case point(GeoPoint)
    case outOfRange(latitude: Double, longitude: Double)
    case notCoordinates
  }
}
