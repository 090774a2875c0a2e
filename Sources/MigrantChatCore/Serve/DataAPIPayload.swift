import Foundation

/// The data API's tables in the contract's JSON (§2), as `serve` publishes them.
public enum DataAPIPayload {
  public static func contacts(_ contacts: [Contact]) -> Data {
    items(
      contacts.map { contact in
        var fields: [String: JSONValue] = [
          "id": .number(Double(contact.id)), "name": .string(contact.name),
        ]
        let texts: [(String, String?)] = [
          ("description", contact.description), ("address", contact.address),
          ("city", contact.city), ("phone", contact.phone), ("email", contact.email),
          ("web", contact.web), ("facebook", contact.facebook),
          ("openingHours", contact.openingHours), ("color", contact.color),
        ]
        for (key, value) in texts { if let value { fields[key] = .string(value) } }
        if let latitude = contact.latitude { fields["latitude"] = .number(latitude) }
        if let longitude = contact.longitude { fields["longitude"] = .number(longitude) }
        if let order = contact.order { fields["order"] = .number(Double(order)) }
        // Not in the contract: `serve`'s made-up offices stay marked in a client synced from it.
        if contact.isSample { fields["sample"] = .bool(true) }
        fields["localizedAttributes"] = localized(contact.localized) { attributes in
          [
            ("name", attributes.name), ("description", attributes.description),
            ("address", attributes.address), ("openingHours", attributes.openingHours),
          ]
        }
        return .object(fields)
      })
  }

  public static func faqTags(_ tags: [FaqTag]) -> Data {
    items(
      tags.map { tag in
        var fields: [String: JSONValue] = [
          "id": .number(Double(tag.id)), "name": .string(tag.name),
        ]
        if let order = tag.order { fields["order"] = .number(Double(order)) }
        fields["localizedAttributes"] = localized(tag.localizedNames) { [("name", $0)] }
        return .object(fields)
      })
  }

  public static func faqItems(_ items: [FaqItem]) -> Data {
    self.items(
      items.map { item in
        var fields: [String: JSONValue] = [
          "id": .number(Double(item.id)), "title": .string(item.title),
          "text": .string(item.text), "isTask": .bool(item.isTask),
          "parentId": item.parentID.map { .number(Double($0)) } ?? .null,
          "tags": .array(item.tags.map { .number(Double($0)) }),
          "contacts": .array(item.contacts.map { .number(Double($0)) }),
        ]
        let texts: [(String, String?)] = [
          ("question", item.question), ("warning", item.warning), ("help", item.help),
          ("source", item.source),
        ]
        for (key, value) in texts { if let value { fields[key] = .string(value) } }
        if let order = item.order { fields["order"] = .number(Double(order)) }
        fields["localizedAttributes"] = localized(item.localized) { texts in
          [
            ("title", texts.title), ("text", texts.text), ("question", texts.question),
            ("warning", texts.warning), ("help", texts.help),
          ]
        }
        return .object(fields)
      })
  }

  private static func items(_ values: [JSONValue]) -> Data {
    Data(utf8Of: JSONValue.object(["items": .array(values)]).compactText)
  }

  private static func localized<Value>(
    _ values: [Language: Value], _ fields: (Value) -> [(String, String?)]
  ) -> JSONValue {
    var languages: [String: JSONValue] = [:]
    for (language, value) in values {
      var object: [String: JSONValue] = [:]
      for (key, text) in fields(value) { if let text { object[key] = .string(text) } }
      if !object.isEmpty { languages[language.rawValue] = .object(object) }
    }
    return .object(languages)
  }
}
