/// The optional fields of one data API item, read by type.
///
/// Absent and `null` are fine; any other wrong type marks the item invalid,
/// so the caller can skip it whole (a half-understood item is worse than none).
struct ItemFields {
  let fields: [String: JSONValue]
  private(set) var valid = true

  init(_ fields: [String: JSONValue]) {
    self.fields = fields
  }

  mutating func text(_ key: String) -> String? {
    switch fields[key] {
    case nil, .null?: return nil
    case .string(let string)?: return string
    default:
      valid = false
      return nil
    }
  }

  /// A number, or a numeric string.
  mutating func number(_ key: String) -> Double? {
    switch fields[key] {
    case nil, .null?: return nil
    // Only finite numbers: "NaN", "inf" or 1e999 are not coordinates.
    case .number(let number)? where number.isFinite: return number
    case .string(let string)? where Double(string)?.isFinite == true: return Double(string)
    default:
      valid = false
      return nil
    }
  }

  mutating func integer(_ key: String) -> Int? {
    number(key).flatMap { $0.isFinite && abs($0) < 1e15 ? Int($0.rounded()) : nil }
  }

  mutating func bool(_ key: String) -> Bool? {
    switch fields[key] {
    case nil, .null?: return nil
    case .bool(let flag)?: return flag
    default:
      valid = false
      return nil
    }
  }

  /// A list of ids (numbers or numeric strings); one bad id makes the item invalid.
  mutating func ids(_ key: String) -> [Int64] {
    switch fields[key] {
    case nil, .null?: return []
    case .array(let values)?:
      let parsed = values.compactMap(ItemsPayloadDecoder.id)
      if parsed.count != values.count { valid = false }
      return parsed
    default:
      valid = false
      return []
    }
  }

  /// `localizedAttributes`, per language that this client speaks.
  func localized() -> [(Language, [String: JSONValue])] {
    guard case .object(let languages)? = fields["localizedAttributes"] else { return [] }
    return languages.compactMap { code, attributes in
      guard let language = Language(code: code), case .object(let overrides) = attributes else {
        return nil
      }
      return (language, overrides)
    }
  }
}
