import Foundation

/// The guidance cache's rows read back without Codable.
///
/// The cache keeps each topic and guide as `JSONEncoder` wrote it. They are read
/// before the offline assistant's first answer, and `JSONDecoder` spent about 5,000
/// instructions a field on them (7 million for the sample's 25 guides, a fifth of the
/// whole first answer). These read the same form with `JSONParser`, field by field. A
/// row they do not read exactly as written (a field of another type, a number from
/// 2^53 up, which a `Double` may have rounded) goes to `JSONDecoder`, so both read
/// every row `JSONEncoder` wrote alike. Text it never writes (a lone surrogate, a
/// broken escape) `JSONParser` takes where `JSONDecoder` refuses it: such a row is read.
extension FaqTag {
  public static func stored(_ text: String) -> FaqTag? {
    StoredFields.decode(text) { try FaqTag(fields: $0) }
  }

  init(fields: StoredFields) throws(StoredFields.Mismatch) {
    self.init(
      id: try fields.id("id"), name: try fields.string("name"), order: try fields.integer("order"),
      localizedNames: try fields.languageMap("localizedNames") {
        value throws(StoredFields.Mismatch) in
        guard case .string(let name) = value else { throw StoredFields.Mismatch() }
        return name
      })
  }
}

extension FaqItem {
  public static func stored(_ text: String) -> FaqItem? {
    StoredFields.decode(text) { try FaqItem(fields: $0) }
  }

  init(fields: StoredFields) throws(StoredFields.Mismatch) {
    self.init(
      id: try fields.id("id"), title: try fields.string("title"), text: try fields.string("text"),
      isTask: try fields.bool("isTask"))
    parentID = try fields.optionalID("parentID")
    question = try fields.optionalString("question")
    tags = try fields.ids("tags")
    contacts = try fields.ids("contacts")
    warning = try fields.optionalString("warning")
    help = try fields.optionalString("help")
    source = try fields.optionalString("source")
    order = try fields.integer("order")
    localized = try fields.languageMap("localized") { value throws(StoredFields.Mismatch) in
      guard case .object = value else { throw StoredFields.Mismatch() }
      let texts = StoredFields(value)
      return Texts(
        title: try texts.optionalString("title"), text: try texts.optionalString("text"),
        question: try texts.optionalString("question"),
        warning: try texts.optionalString("warning"), help: try texts.optionalString("help"))
    }
  }
}

/// An object's fields, each read as `JSONDecoder` reads the type asked for: a missing
/// or null optional is nil, a missing required field or another type is a `Mismatch`.
struct StoredFields {
  struct Mismatch: Error {}

  let object: [String: JSONValue]

  init(_ value: JSONValue) {
    object = value.objectValue ?? [:]
  }

  /// `make` on the object `text` holds; when it is not JSON to `JSONParser` or does not
  /// fit, what `JSONDecoder` reads (nil when it reads nothing either).
  static func decode<T: Decodable>(_ text: String, _ make: (StoredFields) throws -> T) -> T? {
    if let value = try? JSONParser.parse(text), case .object = value,
      let made = try? make(StoredFields(value))
    {
      return made
    }
    return try? JSONDecoder().decode(T.self, from: Data(utf8Of: text))
  }

  func string(_ key: String) throws(Mismatch) -> String {
    guard let value = try optionalString(key) else { throw Mismatch() }
    return value
  }

  func optionalString(_ key: String) throws(Mismatch) -> String? {
    switch object[key] {
    case nil, .null?: return nil
    case .string(let value)?: return value
    default: throw Mismatch()
    }
  }

  func bool(_ key: String) throws(Mismatch) -> Bool {
    guard case .bool(let value)? = object[key] else { throw Mismatch() }
    return value
  }

  func id(_ key: String) throws(Mismatch) -> Int64 {
    guard let value = try optionalID(key) else { throw Mismatch() }
    return value
  }

  func optionalID(_ key: String) throws(Mismatch) -> Int64? {
    switch object[key] {
    case nil, .null?: return nil
    case .number(let number)?: return try Self.exact(number)
    default: throw Mismatch()
    }
  }

  func integer(_ key: String) throws(Mismatch) -> Int? {
    try optionalID(key).map(Int.init)
  }

  func ids(_ key: String) throws(Mismatch) -> [Int64] {
    guard case .array(let values)? = object[key] else { throw Mismatch() }
    var ids: [Int64] = []
    ids.reserveCapacity(values.count)
    for value in values {
      guard case .number(let number) = value else { throw Mismatch() }
      ids.append(try Self.exact(number))
    }
    return ids
  }

  /// A `[Language: Value]` map as Codable writes it; keys of no language are passed
  /// over, as `decodeLanguageMap` does.
  func languageMap<Value>(
    _ key: String, _ value: (JSONValue) throws(Mismatch) -> Value
  ) throws(Mismatch) -> [Language: Value] {
    guard case .object(let members)? = object[key] else { throw Mismatch() }
    var map: [Language: Value] = [:]
    for language in Language.allCases {
      switch members[language.rawValue] {
      case nil, .null?: continue
      case let member?: map[language] = try value(member)
      }
    }
    return map
  }

  /// A whole number a `Double` holds exactly (JSON's numbers are parsed as doubles):
  /// an id past 2^53 may have been rounded, and is left to `JSONDecoder`.
  private static func exact(_ number: Double) throws(Mismatch) -> Int64 {
    guard abs(number) < 9_007_199_254_740_992, let value = Int64(exactly: number) else {
      throw Mismatch()
    }
    return value
  }
}
