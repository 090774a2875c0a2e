import Foundation

/// Any JSON value, decoded without a schema.
///
/// Servers send free-form JSON (`custom`, `attachment`, unknown keys), and a
/// bot message of the wrong shape must be reported, not fail the whole reply,
/// so replies are decoded to this first and interpreted field by field.
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  public subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  public var numberValue: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  public var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  public var objectValue: [String: JSONValue]? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// The name of the JSON type, for error messages ("expected an array, got an object").
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }

  /// Compact JSON text with sorted keys: stable, for display and goldens.
  public var compactText: String {
    var output = ""
    write(to: &output)
    return output
  }

  private func write(to output: inout String) {
    switch self {
    case .null: output += "null"
    case .bool(let value): output += value ? "true" : "false"
    case .number(let value): output += Self.format(value)
    case .string(let value): Self.writeQuoted(value, to: &output)
    case .array(let values):
      output += "["
      for (index, value) in values.enumerated() {
        if index > 0 { output += "," }
        value.write(to: &output)
      }
      output += "]"
    case .object(let members):
      output += "{"
      for (index, key) in members.keys.sorted().enumerated() {
        if index > 0 { output += "," }
        Self.writeQuoted(key, to: &output)
        output += ":"
        members[key]?.write(to: &output)
      }
      output += "}"
    }
  }

  /// Integers print without a fraction (`138503`, not `138503.0`).
  public static func format(_ number: Double) -> String {
    // JSON has no NaN or infinity: written as null, so the text stays JSON.
    guard number.isFinite else { return "null" }
    if number.rounded() == number, abs(number) < 1e15 {
      return String(Int64(number))
    }
    return String(number)
  }

  private static func writeQuoted(_ string: String, to output: inout String) {
    var bytes: [UInt8] = []
    writeQuoted(string, to: &bytes)
    output += String(decoding: bytes, as: UTF8.self)
  }

  static func writeQuoted(_ string: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    // Most strings need no escape: appended whole (a scalar at a time costs a sync
    // of 100,000 contacts seconds). 0xC2 leads U+0080-U+00BF (the C1 controls),
    // 0xE2 leads U+2000-U+2FFF (line separators, bidi controls): such strings
    // take the slow path, which escapes only what must be.
    func mayNeedEscape(_ byte: UInt8) -> Bool {
      byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
        || byte == 0xC2 || byte == 0xE2
    }
    let needsEscape =
      string.utf8.withContiguousStorageIfAvailable { $0.contains(where: mayNeedEscape) }
      ?? string.utf8.contains(where: mayNeedEscape)
    guard needsEscape else {
      output.append(contentsOf: string.utf8)
      output.append(UInt8(ascii: "\""))
      return
    }
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": output += Array(#"\""#.utf8)
      case "\\": output += Array(#"\\"#.utf8)
      case "\n": output += Array(#"\n"#.utf8)
      case "\t": output += Array(#"\t"#.utf8)
      case "\r": output += Array(#"\r"#.utf8)
      case _ where escapedInOutput(scalar):
        // Valid JSON either way; escaped so that a file shown in a terminal, or a
        // line read by JavaScript, never carries a control or a line separator raw.
        output += Array(String(format: "\\u%04x", scalar.value).utf8)
      default: UTF8.encode(scalar) { output.append($0) }
      }
    }
    output.append(UInt8(ascii: "\""))
  }

  /// C0, DEL, C1 (with NEL), U+2028 and U+2029, and the bidi embeddings,
  /// overrides and isolates: what JSON text we write carries only as `\uXXXX`.
  public static func escapedInOutput(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

}

/// Writes one JSON object member by member, in the order they are given: for
/// objects written in bulk (every contact of a sync), with no dictionary to
/// build and sort first. Writing keys in sorted order gives `compactText`'s text.
struct JSONObjectWriter {
  private var bytes: [UInt8] = [UInt8(ascii: "{")]

  init(capacity: Int = 256) {
    bytes.reserveCapacity(capacity)
  }

  private mutating func key(_ key: String) {
    if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
    JSONValue.writeQuoted(key, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
  }

  mutating func string(_ key: String, _ value: String?) {
    guard let value else { return }
    self.key(key)
    JSONValue.writeQuoted(value, to: &bytes)
  }

  /// A finite number (JSON has no NaN or infinity: those are left out).
  mutating func number(_ key: String, _ value: Double?) {
    guard let value, value.isFinite else { return }
    self.key(key)
    bytes += JSONValue.format(value).utf8
  }

  mutating func bool(_ key: String, _ value: Bool?) {
    guard let value else { return }
    self.key(key)
    bytes += (value ? "true" : "false").utf8
  }

  mutating func object(_ key: String, _ value: JSONObjectWriter) {
    self.key(key)
    bytes += value.bytes
    bytes.append(UInt8(ascii: "}"))
  }

  var finished: String { String(decoding: bytes + [UInt8(ascii: "}")], as: UTF8.self) }
}

extension JSONValue: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}
