import Foundation

/// An office and how far it is.
public struct NearbyOffice: Sendable, Hashable {
  public var contact: Contact
  /// Where the office is: its own coordinates, or its town's.
  public var point: GeoPoint
  /// Great-circle distance in km from the place asked about.
  public var distance: Double
  /// True when the office has no coordinates and its town's are used.
  public var approximate: Bool

  /// The distance as shown, to one decimal: what `--within` compares, and what the
  /// text, CSV and JSON say (2.65 km is 2.7 everywhere).
  public var shownDistance: Double { (distance * 10).rounded() / 10 }
}

/// Offices by distance from a point, nearest first.
public enum NearbyOffices {
  public struct Result: Sendable, Hashable {
    /// The offices within reach, nearest first, at most the limit.
    public var offices: [NearbyOffice]
    /// How many were within reach before the limit.
    public var total: Int
    /// Offices with neither coordinates nor a town the table knows: left out.
    public var unplaced: Int
  }

  /// `within`: km, nil for no bound; `limit`: nil for all.
  public static func find(
    in contacts: [Contact], from point: GeoPoint, within: Double?, limit: Int?
  ) -> Result {
    let locator = Locator()
    var found: [NearbyOffice] = []
    var unplaced = 0
    for contact in contacts {
      guard let (located, approximate) = locator.location(of: contact) else {
        unplaced += 1
        continue
      }
      let distance = point.distance(to: located)
      let office = NearbyOffice(
        contact: contact, point: located, distance: distance, approximate: approximate)
      // As shown, to one decimal: an office listed at 2.6 km is within 2.6.
      if let within, office.shownDistance > within { continue }
      found.append(office)
    }
    found.sort { ($0.distance, $0.contact.id) < ($1.distance, $1.contact.id) }
    let total = found.count
    if let limit, found.count > limit { found.removeLast(found.count - limit) }
    return Result(offices: found, total: total, unplaced: unplaced)
  }

  /// Where offices are.
  public struct Locator {
    public init() {}

    /// The office's coordinates when valid, else those of its town (`city`, or the
    /// words after the postcode of its address: "Example 2, 602 00 Brno").
    public func location(of contact: Contact) -> (GeoPoint, approximate: Bool)? {
      if let latitude = contact.latitude, let longitude = contact.longitude {
        let point = GeoPoint(latitude: latitude, longitude: longitude)
        // 0,0 is the data API's "not set", not a place in the Gulf of Guinea; and an
        // office of a Czech directory far away with its two numbers the other way round
        // in Czechia was entered longitude first.
        if point.isValid, latitude != 0 || longitude != 0 {
          let swapped = GeoPoint(latitude: longitude, longitude: latitude)
          let outline = MapOutline.czechia
          if !outline.holds(point, slack: 50), swapped.isValid, outline.holds(swapped) {
            return (swapped, false)
          }
          return (point, false)
        }
      }
      // Each town is looked up once a run, in `PlaceLookup.czechPlace`'s cache.
      for name in [contact.city, Self.town(inAddress: contact.address)].compactMap({ $0 })
      where !name.isEmpty {
        if let place = PlaceLookup.czechPlace(named: name) { return (place.point, true) }
      }
      return nil
    }

    /// The town of a Czech address: what follows its postcode (`602 00` or `60200`).
    static func town(inAddress address: String?) -> String? {
      guard let address else { return nil }
      let parts = address.split(separator: ",").map { $0.trimmingWhitespace() }
      for part in parts.reversed() {
        let words = part.split(separator: " ")
        var index = 0
        if words.count >= 3, words[0].count == 3, words[1].count == 2,
          words[0].allSatisfy(\.isNumber), words[1].allSatisfy(\.isNumber)
        {
          index = 2
        } else if words.count >= 2, words[0].count == 5, words[0].allSatisfy(\.isNumber) {
          index = 1
        } else {
          continue
        }
        return words[index...].joined(separator: " ")
      }
      return nil
    }
  }
}
