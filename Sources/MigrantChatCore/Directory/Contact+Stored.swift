import Foundation

extension Contact {
  /// The contact as the data API sends it: how the cache stores it, read back
  /// by `Contact.stored(_:)` with the same code that reads a sync.
  ///
  /// Foundation's JSONEncoder and JSONDecoder cost a sync of 100,000 contacts
  /// seconds, and every search the decoding of each result; this is our own
  /// writer and parser.
  public var storedJSON: String {
    // Keys in sorted order, as `JSONValue.compactText` writes them.
    var object = JSONObjectWriter(capacity: 512)
    object.string("address", address)
    object.string("city", city)
    object.string("color", color)
    object.string("description", description)
    object.string("email", email)
    object.string("facebook", facebook)
    // The id as a numeric string: exact for every Int64 (a Double is not above 2^53).
    object.string("id", String(id))
    object.number("latitude", latitude)
    if !localized.isEmpty {
      var languages = JSONObjectWriter()
      for language in localized.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
        let attributes = localized[language]
        var fields = JSONObjectWriter()
        fields.string("address", attributes?.address)
        fields.string("description", attributes?.description)
        fields.string("name", attributes?.name)
        fields.string("openingHours", attributes?.openingHours)
        languages.object(language.rawValue, fields)
      }
      object.object("localizedAttributes", languages)
    }
    object.number("longitude", longitude)
    object.string("name", name)
    object.string("openingHours", openingHours)
    object.number("order", order.map(Double.init))
    object.string("phone", phone)
    object.bool("sample", sample == true ? true : nil)
    object.string("web", web)
    return object.finished
  }

  /// A contact from the cache: `storedJSON`, or the Codable form earlier versions wrote.
  public static func stored(_ text: String) -> Contact? {
    guard let value = try? JSONParser.parse(text) else { return nil }
    // The Codable form has "localized" (the API's shape has "localizedAttributes").
    if value["localized"] != nil {
      return try? JSONDecoder().decode(Contact.self, from: Data(utf8Of: text))
    }
    return ItemsPayloadDecoder.contact(from: value)
  }
}
