import Foundation

extension Contact {
  /// The contact as the data API sends it: how the cache stores it, read back
  /// by `Contact.stored(_:)` with the same code that reads a sync.
  ///
  /// Foundation's JSONEncoder and JSONDecoder cost a sync of 100,000 contacts
  /// seconds, and every search the decoding of each result; this is our own
  /// writer and parser.
  public var storedJSON: String {
    // The id as a numeric string: exact for every Int64 (a Double is not above 2^53).
    var object: [String: JSONValue] = ["id": .string(String(id)), "name": .string(name)]
    func put(_ key: String, _ value: String?) {
      if let value { object[key] = .string(value) }
    }
    put("description", description)
    put("address", address)
    put("city", city)
    put("phone", phone)
    put("email", email)
    put("web", web)
    put("facebook", facebook)
    put("openingHours", openingHours)
    put("color", color)
    if let latitude, latitude.isFinite { object["latitude"] = .number(latitude) }
    if let longitude, longitude.isFinite { object["longitude"] = .number(longitude) }
    if let order { object["order"] = .number(Double(order)) }
    if sample == true { object["sample"] = .bool(true) }
    var languages: [String: JSONValue] = [:]
    for (language, attributes) in localized {
      var fields: [String: JSONValue] = [:]
      if let value = attributes.name { fields["name"] = .string(value) }
      if let value = attributes.description { fields["description"] = .string(value) }
      if let value = attributes.address { fields["address"] = .string(value) }
      if let value = attributes.openingHours { fields["openingHours"] = .string(value) }
      languages[language.rawValue] = .object(fields)
    }
    if !languages.isEmpty { object["localizedAttributes"] = .object(languages) }
    return JSONValue.object(object).compactText
  }

  /// A contact from the cache: `storedJSON`, or the Codable form earlier versions wrote.
  public static func stored(_ text: String) -> Contact? {
    guard let value = try? JSONParser.parse(text) else { return nil }
    // The Codable form has "localized" (the API's shape has "localizedAttributes").
    if value["localized"] != nil {
      return try? JSONDecoder().decode(Contact.self, from: Data(text.utf8))
    }
    return ItemsPayloadDecoder.contact(from: value)
  }
}
