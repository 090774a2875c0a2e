/// Offices near a place as JSON: the contact's object with `distance_km` (one
/// decimal) and, when the office is placed by its town, `distance_approximate`.
public enum NearbyExport {
  public static func object(
    _ office: NearbyOffice, language: Language, favourite: Bool
  ) -> JSONValue {
    guard
      case .object(var fields) = ContactExport.object(
        office.contact, language: language, favourite: favourite)
    else { return .null }
    fields["distance_km"] = .number(office.shownDistance)
    if office.approximate { fields["distance_approximate"] = .bool(true) }
    return .object(fields)
  }

  /// The place distances were measured from: its name (nil for coordinates) and point.
  public static func place(_ place: NearbyPlace) -> JSONValue {
    var fields: [String: JSONValue] = [
      "latitude": .number(place.point.latitude), "longitude": .number(place.point.longitude),
    ]
    switch place {
    case .place(let found):
      fields["name"] = .string(found.name)
      if let region = found.region { fields["region"] = .string(region) }
      if let country = found.country { fields["country"] = .string(country) }
    case .home(let home): fields["name"] = .string(home.name)
    case .point: break
    }
    return .object(fields)
  }
}
