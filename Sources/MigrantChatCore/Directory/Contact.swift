/// An office from the data API's contact directory (contract §2).
///
/// Raw as the API sent it; strings are sanitized when rendered, not here.
public struct Contact: Sendable, Hashable, Codable {
  public var id: Int64
  public var name: String
  public var description: String?
  public var address: String?
  public var city: String?
  public var phone: String?
  public var email: String?
  public var web: String?
  public var facebook: String?
  public var openingHours: String?
  public var latitude: Double?
  public var longitude: Double?
  public var color: String?
  public var order: Int?
  /// Per-language overrides of name, description, address and opening hours.
  public var localized: [Language: LocalizedAttributes]
  /// True for the made-up offices of the embedded sample: every place that shows one
  /// says so. Optional, so caches written before it was stored still decode.
  public var sample: Bool?

  public var isSample: Bool { sample == true }

  public struct LocalizedAttributes: Sendable, Hashable, Codable {
    public var name: String?
    public var description: String?
    public var address: String?
    public var openingHours: String?

    public init(
      name: String? = nil, description: String? = nil, address: String? = nil,
      openingHours: String? = nil
    ) {
      self.name = name
      self.description = description
      self.address = address
      self.openingHours = openingHours
    }
  }

  public init(id: Int64, name: String, localized: [Language: LocalizedAttributes] = [:]) {
    self.id = id
    self.name = name
    self.localized = localized
  }

  /// An id as people type it: `138503` or `#138503` (as cards and lists show it).
  public static func id(typed text: String) -> Int64? {
    let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
    guard let id = ItemsPayloadDecoder.id(.string(digits)), id >= 0 else { return nil }
    return id
  }

  /// The name in `language`, else the default `name`.
  public func name(in language: Language) -> String {
    nonEmpty(localized[language]?.name) ?? name
  }

  public func address(in language: Language) -> String? {
    nonEmpty(localized[language]?.address) ?? address
  }

  public func description(in language: Language) -> String? {
    nonEmpty(localized[language]?.description) ?? description
  }

  /// The language's own hours, else the shared ones with OpenStreetMap's day
  /// abbreviations (`Mo-Th 09:00-17:00`) in the language's (`Пн-Чт 09:00-17:00`).
  public func openingHours(in language: Language) -> String? {
    if let own = nonEmpty(localized[language]?.openingHours) { return own }
    return openingHours.map { OpeningHours.localizingDays($0, to: language) }
  }

  /// An OpenStreetMap link to the office, when it has valid coordinates.
  public var mapURL: String? {
    guard let latitude, let longitude, (-90...90).contains(latitude),
      (-180...180).contains(longitude)
    else { return nil }
    // Short enough to stay on one line at 80 columns: OSM zooms to the marker.
    return "https://www.openstreetmap.org/?mlat=\(latitude)&mlon=\(longitude)"
  }

  /// Every name and address the contact has, in all languages: what search looks at.
  public var allNames: [String] {
    [name] + Language.allCases.compactMap { nonEmpty(localized[$0]?.name) }
  }

  public var allAddresses: [String] {
    [address].compactMap { $0 } + Language.allCases.compactMap { nonEmpty(localized[$0]?.address) }
  }

  private func nonEmpty(_ value: String?) -> String? {
    guard let value, !value.isEmpty else { return nil }
    return value
  }
}
