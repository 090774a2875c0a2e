import Foundation

/// `/faq/tags/` and `/faq/items/` payloads, read as liberally as contacts.
extension ItemsPayloadDecoder {
  public static func faqTags(_ body: Data) throws(ItemsPayloadFailure) -> ItemsPayload<FaqTag> {
    try decodeEach(body, tag(from:))
  }

  public static func faqItems(_ body: Data) throws(ItemsPayloadFailure) -> ItemsPayload<FaqItem> {
    try decodeEach(body, faqItem(from:))
  }

  static func decodeEach<Item>(
    _ body: Data, _ decode: (JSONValue) -> Item?
  ) throws(ItemsPayloadFailure) -> ItemsPayload<Item> {
    var items: [Item] = []
    var skipped = 0
    for object in try objects(body) {
      if let item = decode(object) { items.append(item) } else { skipped += 1 }
    }
    return ItemsPayload(items: items, skipped: skipped)
  }

  static func tag(from value: JSONValue) -> FaqTag? {
    guard case .object(let fields) = value, let id = id(fields["id"]),
      case .string(let name)? = fields["name"], !name.isEmpty
    else { return nil }
    var tag = FaqTag(id: id, name: name, order: integer(fields["order"]))
    if case .object(let languages)? = fields["localizedAttributes"] {
      for (code, attributes) in languages {
        if let language = Language(code: code), let name = attributes["name"]?.stringValue {
          tag.localizedNames[language] = name
        }
      }
    }
    return tag
  }

  /// An item without an id or a title, or with a field of the wrong type, is skipped.
  static func faqItem(from value: JSONValue) -> FaqItem? {
    guard case .object(let fields) = value, let id = id(fields["id"]),
      case .string(let title)? = fields["title"], !title.isEmpty
    else { return nil }
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
    func ids(_ key: String) -> [Int64] {
      switch fields[key] {
      case nil, .null?: return []
      case .array(let values)?:
        let parsed = values.compactMap(Self.id)
        if parsed.count != values.count { valid = false }
        return parsed
      default:
        valid = false
        return []
      }
    }
    var item = FaqItem(id: id, title: title, text: text("text") ?? "")
    switch fields["parentId"] {
    case nil, .null?: item.parentID = nil
    case let parent?:
      guard let parentID = Self.id(parent) else { return nil }
      item.parentID = parentID
    }
    switch fields["isTask"] {
    case nil, .null?: item.isTask = false
    case .bool(let flag)?: item.isTask = flag
    default: valid = false
    }
    item.question = text("question")
    item.warning = text("warning")
    item.help = text("help")
    item.source = text("source")
    item.tags = ids("tags")
    item.contacts = ids("contacts")
    item.order = integer(fields["order"])
    if case .object(let languages)? = fields["localizedAttributes"] {
      for (code, attributes) in languages {
        guard let language = Language(code: code), case .object = attributes else { continue }
        item.localized[language] = FaqItem.Texts(
          title: attributes["title"]?.stringValue, text: attributes["text"]?.stringValue,
          question: attributes["question"]?.stringValue,
          warning: attributes["warning"]?.stringValue, help: attributes["help"]?.stringValue)
      }
    }
    return valid ? item : nil
  }

  private static func integer(_ value: JSONValue?) -> Int? {
    guard case .number(let number)? = value, number.isFinite, abs(number) < 1e9 else { return nil }
    return Int(number.rounded())
  }
}
