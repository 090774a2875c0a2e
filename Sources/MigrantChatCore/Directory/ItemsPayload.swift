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
      return Int64(text.trimmingWhitespace())
    default:
      return nil
    }
  }

  /// The contacts of a `/contacts/` payload.
  ///
  /// An item is skipped when it is not an object, has no usable id or name, or
  /// has a field of the wrong type: a half-understood office is worse than none.
  public static func contacts(_ body: Data) throws(ItemsPayloadFailure) -> ItemsPayload<Contact> {
    try decodeEach(body, contact(from:))
  }

  static func decodeEach<Item>(
    _ body: Data, _ decode: @escaping @Sendable (JSONValue) -> Item?
  ) throws(ItemsPayloadFailure) -> ItemsPayload<Item> {
    // A large table is parsed on every core; when that cannot be done, as before.
    if body.count >= JSONItemsSplitter.minimumSize,
      let (items, skipped) = JSONItemsSplitter.items(of: body, transform: decode)
    {
      return ItemsPayload(items: items, skipped: skipped)
    }
    var items: [Item] = []
    var skipped = 0
    for object in try objects(body) {
      if let item = decode(object) { items.append(item) } else { skipped += 1 }
    }
    return ItemsPayload(items: items, skipped: skipped)
  }

  static func contact(from value: JSONValue) -> Contact? {
    guard case .object(let object) = value, let id = id(object["id"]),
      case .string(let name)? = object["name"], !name.isEmpty
    else { return nil }
    var contact = Contact(id: id, name: name)
    var fields = ItemFields(object)
    contact.description = fields.text("description")
    contact.address = fields.text("address")
    contact.city = fields.text("city")
    contact.phone = fields.text("phone")
    contact.email = fields.text("email")
    contact.web = fields.text("web")
    contact.facebook = fields.text("facebook")
    contact.openingHours = fields.text("openingHours")
    contact.color = fields.text("color")
    contact.latitude = fields.number("latitude")
    contact.longitude = fields.number("longitude")
    contact.order = fields.integer("order")
    // Our own mark for made-up offices (`serve` sends it); absent from the real API.
    if object["sample"] == .bool(true) { contact.sample = true }
    for (language, overrides) in fields.localized() {
      contact.localized[language] = Contact.LocalizedAttributes(
        name: overrides["name"]?.stringValue,
        description: overrides["description"]?.stringValue,
        address: overrides["address"]?.stringValue,
        openingHours: overrides["openingHours"]?.stringValue)
    }
    return fields.valid ? contact : nil
  }
}
