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

  /// The `place` and `place_guess` fields `contacts near --csv` adds to each row: the
  /// place's name (or its coordinates) and `yes` or `no`, as the other yes/no columns.
  public static func csvPlaceFields(_ reading: PlaceReading) -> String {
    ContactExport.csvField(TerminalSanitizer.clean(reading.place.asHome.name, keepNewlines: false))
      + "," + (reading.isGuess ? "yes" : "no")
  }

  /// `place`, and how it was read from the text: `typed`, `guess` (always there:
  /// true for the closest name or the other keyboard layout), `read_as` (the text
  /// in the other layout), `swapped` (coordinates read longitude first), and
  /// `namesakes` (the other Czech places of the name, with region and coordinates).
  public static func place(reading: PlaceReading) -> JSONValue {
    guard case .object(var fields) = place(reading.place) else { return .null }
    if let typed = reading.typed { fields["typed"] = .string(typed) }
    fields["guess"] = .bool(reading.isGuess)
    if let readAs = reading.readAs { fields["read_as"] = .string(readAs) }
    if reading.swapped { fields["swapped"] = .bool(true) }
    if !reading.namesakes.isEmpty {
      fields["namesakes"] = .array(
        reading.namesakes.map { other in
          var namesake: [String: JSONValue] = [
            "name": .string(other.name), "latitude": .number(other.point.latitude),
            "longitude": .number(other.point.longitude),
          ]
          if let region = other.region { namesake["region"] = .string(region) }
          return .object(namesake)
        })
    }
    return .object(fields)
  }
}
