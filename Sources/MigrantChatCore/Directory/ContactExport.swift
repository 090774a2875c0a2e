import Foundation

/// Contacts as JSON and CSV for scripts and spreadsheets (`--json`, `--csv`).
///
/// Every string is sanitized as for the terminal: these outputs are read by
/// people too, and a spreadsheet must not run a formula hidden in a name.
public enum ContactExport {
  public static let csvColumns = [
    "id", "name", "description", "city", "address", "phone", "email", "web", "facebook",
    "opening_hours",
    "latitude", "longitude", "map", "favourite", "sample",
  ]

  /// The contact in `language`, with the fields of the contract, as one JSON object:
  /// the one writer of a contact's JSON (the chat's, `contacts`, `near`, the history's
  /// exports). `favourite` is left out where it means nothing (a kept conversation).
  public static func object(_ contact: Contact, language: Language, favourite: Bool?) -> JSONValue {
    var fields: [String: JSONValue] = [
      "id": .number(Double(contact.id)),
      "name": .string(clean(contact.name(in: language))),
      "sample": .bool(contact.isSample),
    ]
    if let favourite { fields["favourite"] = .bool(favourite) }
    let texts: [(String, String?)] = [
      ("description", contact.description(in: language)),
      ("address", contact.address(in: language)),
      ("city", contact.city), ("phone", contact.phone), ("email", contact.email),
      ("web", contact.web), ("facebook", contact.facebook),
      ("opening_hours", contact.openingHours(in: language)), ("map", contact.mapURL),
    ]
    for (key, value) in texts {
      if let value, !value.isEmpty { fields[key] = .string(clean(value)) }
    }
    if let latitude = contact.latitude, let longitude = contact.longitude {
      fields["latitude"] = .number(latitude)
      fields["longitude"] = .number(longitude)
    }
    var names: [String: JSONValue] = [:]
    for other in Language.allCases {
      names[other.rawValue] = .string(clean(contact.name(in: other)))
    }
    fields["names"] = .object(names)
    return .object(fields)
  }

  /// A CSV row (RFC 4180), without the line break.
  public static func csvRow(_ contact: Contact, language: Language, favourite: Bool) -> String {
    let values: [String] = [
      String(contact.id), contact.name(in: language), contact.description(in: language) ?? "",
      contact.city ?? "",
      contact.address(in: language) ?? "", contact.phone ?? "", contact.email ?? "",
      contact.web ?? "", contact.facebook ?? "", contact.openingHours(in: language) ?? "",
      contact.latitude.map { JSONValue.format($0) } ?? "",
      contact.longitude.map { JSONValue.format($0) } ?? "", contact.mapURL ?? "",
      favourite ? "yes" : "no", contact.isSample ? "yes" : "no",
    ]
    return values.map { csvField(clean($0)) }.joined(separator: ",")
  }

  public static var csvHeader: String { csvColumns.joined(separator: ",") }

  /// Quotes a field when needed, and defuses spreadsheet formulas.
  ///
  /// A field starting with `=`, `@`, a tab or a carriage return gets a `'` in
  /// front (OWASP's advice), as does `+` or `-` unless the field looks like a
  /// phone number or a number, which spreadsheets read as data.
  static func csvField(_ value: String) -> String {
    var field = value
    if let first = field.first {
      let phoneLike = field.allSatisfy { $0.isNumber || " +-()/.".contains($0) }
      if "=@\t\r".contains(first) || ("+-".contains(first) && !phoneLike) {
        field = "'" + field
      }
    }
    if field.contains(where: { ",\"\n\r".contains($0) }) {
      return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
    return field
  }

  private static func clean(_ text: String) -> String {
    TerminalSanitizer.clean(text, keepNewlines: false)
  }
}
