import Foundation

/// Why a data API table could not be used at all; the old data stays.
public enum ItemsPayloadFailure: Error, Sendable, Hashable {
  case notJSON
  /// Valid JSON, but not `{"items": [...]}`.
  case notAnItemsObject(got: String)
}

/// A table from the data API: the items that passed validation, and how many did not.
public struct ItemsPayload<Item: Sendable & Hashable>: Sendable, Hashable {
  public var items: [Item]
  /// Items left out because they had no usable id or fields of the wrong type.
  public var skipped: Int
}

/// Reads `{"items": [...]}` tables liberally, item by item.
public enum ItemsPayloadDecoder {
  /// The item objects of a payload; throws when the payload as a whole is unusable.
  public static func objects(
    _ body: Data
  ) throws(ItemsPayloadFailure) -> [JSONValue] {
    let value: JSONValue
    do {
      value = try BotReplyDecoder.parse(body)
    } catch {
      throw .notJSON
    }
    guard case .array(let items)? = value["items"] else {
      throw .notAnItemsObject(got: value["items"]?.typeName ?? value.typeName)
    }
    return items
  }

  /// An id as a whole number or a numeric string (`138503` or `"138503"`).
  public static func id(_ value: JSONValue?) -> Int64? {
    switch value {
    case .number(let number) where number.rounded() == number && abs(number) < 9e15:
      return Int64(number)
    case .string(let text):
      return Int64(text.trimmingCharacters(in: .whitespaces))
    default:
      return nil
    }
  }

  /// The contacts of a `/contacts/` payload.
  ///
  /// An item is skipped when it is not an object, has no usable id or name, or
  /// has a field of the wrong type: a half-understood office is worse than none.
  public static func contacts(_ body: Data) throws(ItemsPayloadFailure) -> ItemsPayload<Contact> {
    var contacts: [Contact] = []
    var skipped = 0
    for item in try objects(body) {
      if let contact = contact(from: item) {
        contacts.append(contact)
      } else {
        skipped += 1
      }
    }
    return ItemsPayload(items: contacts, skipped: skipped)
  }

  static func contact(from value: JSONValue) -> Contact? {
    guard case .object(let fields) = value, let id = id(fields["id"]),
      case .string(let name)? = fields["name"], !name.isEmpty
    else { return nil }
    var contact = Contact(id: id, name: name)
    var valid = true
    func text(_ key: String) -> String? {
      switch fields[key] {
      case nil, .null?: return nil
      case .string(let string)?: return string
      default:
        valid = false
        return nil
      }
    }
    func number(_ key: String) -> Double? {
      switch fields[key] {
      case nil, .null?: return nil
      case .number(let number)?: return number
      case .string(let string)?:
        if let number = Double(string) { return number }
        valid = false
        return nil
      default:
        valid = false
        return nil
      }
    }
    contact.description = text("description")
    contact.address = text("address")
    contact.city = text("city")
    contact.phone = text("phone")
    contact.email = text("email")
    contact.web = text("web")
    contact.facebook = text("facebook")
    contact.openingHours = text("openingHours")
    contact.color = text("color")
    contact.latitude = number("latitude")
    contact.longitude = number("longitude")
    contact.order = number("order").flatMap { $0.isFinite ? Int(exactly: $0.rounded()) : nil }
    if case .object(let languages)? = fields["localizedAttributes"] {
      for (code, attributes) in languages {
        guard let language = Language(code: code), case .object(let overrides) = attributes
        else { continue }
        contact.localized[language] = Contact.LocalizedAttributes(
          name: overrides["name"]?.stringValue,
          description: overrides["description"]?.stringValue,
          address: overrides["address"]?.stringValue,
          openingHours: overrides["openingHours"]?.stringValue)
      }
    }
    return valid ? contact : nil
  }
}
