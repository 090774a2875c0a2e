import Foundation

/// `/faq/tags/` and `/faq/items/` payloads, read as liberally as contacts.
extension ItemsPayloadDecoder {
  public static func faqTags(_ body: Data) throws(ItemsPayloadFailure) -> ItemsPayload<FaqTag> {
    try decodeEach(body, tag(from:))
  }

  public static func faqItems(_ body: Data) throws(ItemsPayloadFailure) -> ItemsPayload<FaqItem> {
    try decodeEach(body, faqItem(from:))
  }

  static func tag(from value: JSONValue) -> FaqTag? {
    guard case .object(let object) = value, let id = id(object["id"]),
      case .string(let name)? = object["name"], !name.isEmpty
    else { return nil }
    var fields = ItemFields(object)
    var tag = FaqTag(id: id, name: name, order: fields.integer("order"))
    for (language, overrides) in fields.localized() {
      if let name = overrides["name"]?.stringValue { tag.localizedNames[language] = name }
    }
    return fields.valid ? tag : nil
  }

  /// An item without an id or a title, or with a field of the wrong type, is skipped.
  static func faqItem(from value: JSONValue) -> FaqItem? {
    guard case .object(let object) = value, let id = id(object["id"]),
      case .string(let title)? = object["title"], !title.isEmpty
    else { return nil }
    var fields = ItemFields(object)
    var item = FaqItem(id: id, title: title, text: fields.text("text") ?? "")
    switch object["parentId"] {
    case nil, .null?: item.parentID = nil
    case let parent?:
      guard let parentID = Self.id(parent) else { return nil }
      item.parentID = parentID
    }
    item.isTask = fields.bool("isTask") ?? false
    item.question = fields.text("question")
    item.warning = fields.text("warning")
    item.help = fields.text("help")
    item.source = fields.text("source")
    item.tags = fields.ids("tags")
    item.contacts = fields.ids("contacts")
    item.order = fields.integer("order")
    for (language, texts) in fields.localized() {
      item.localized[language] = FaqItem.Texts(
        title: texts["title"]?.stringValue, text: texts["text"]?.stringValue,
        question: texts["question"]?.stringValue, warning: texts["warning"]?.stringValue,
        help: texts["help"]?.stringValue)
    }
    return fields.valid ? item : nil
  }
}
