/// A topic of the guidance tree (`/faq/tags/`).
public struct FaqTag: Sendable, Hashable, Codable {
  public var id: Int64
  public var name: String
  public var order: Int?
  public var localizedNames: [Language: String]

  public init(id: Int64, name: String, order: Int? = nil, localizedNames: [Language: String] = [:])
  {
    self.id = id
    self.name = name
    self.order = order
    self.localizedNames = localizedNames
  }

  public func name(in language: Language) -> String {
    localizedNames[language].flatMap { $0.isEmpty ? nil : $0 } ?? name
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int64.self, forKey: .id)
    name = try container.decode(String.self, forKey: .name)
    order = try container.decodeIfPresent(Int.self, forKey: .order)
    localizedNames = try container.decodeLanguageMap(String.self, forKey: .localizedNames)
  }
}

/// A guide, an answer to a parent's question, or a step (`/faq/items/`).
///
/// Text fields hold the API's HTML; `HTMLText` turns them into terminal text.
public struct FaqItem: Sendable, Hashable, Codable {
  public var id: Int64
  public var parentID: Int64?
  public var title: String
  public var text: String
  public var question: String?
  /// A step of the parent's procedure, rather than an answer to its question.
  public var isTask: Bool
  public var tags: [Int64]
  public var contacts: [Int64]
  public var warning: String?
  public var help: String?
  public var source: String?
  public var order: Int?
  public var localized: [Language: Texts]

  /// The per-language overrides of the contract.
  public struct Texts: Sendable, Hashable, Codable {
    public var title: String?
    public var text: String?
    public var question: String?
    public var warning: String?
    public var help: String?

    public init(
      title: String? = nil, text: String? = nil, question: String? = nil, warning: String? = nil,
      help: String? = nil
    ) {
      self.title = title
      self.text = text
      self.question = question
      self.warning = warning
      self.help = help
    }
  }

  /// As the synthesized decoding reads it, but for the per-language map (see
  /// `decodeLanguageMap`): the guidance cache is decoded before the offline assistant's
  /// first answer.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int64.self, forKey: .id)
    parentID = try container.decodeIfPresent(Int64.self, forKey: .parentID)
    title = try container.decode(String.self, forKey: .title)
    text = try container.decode(String.self, forKey: .text)
    question = try container.decodeIfPresent(String.self, forKey: .question)
    isTask = try container.decode(Bool.self, forKey: .isTask)
    tags = try container.decode([Int64].self, forKey: .tags)
    contacts = try container.decode([Int64].self, forKey: .contacts)
    warning = try container.decodeIfPresent(String.self, forKey: .warning)
    help = try container.decodeIfPresent(String.self, forKey: .help)
    source = try container.decodeIfPresent(String.self, forKey: .source)
    order = try container.decodeIfPresent(Int.self, forKey: .order)
    localized = try container.decodeLanguageMap(Texts.self, forKey: .localized)
  }

  public init(
    id: Int64, parentID: Int64? = nil, title: String, text: String = "", isTask: Bool = false
  ) {
    self.id = id
    self.parentID = parentID
    self.title = title
    self.text = text
    self.isTask = isTask
    self.tags = []
    self.contacts = []
    self.localized = [:]
  }

  public func title(in language: Language) -> String {
    pick(localized[language]?.title) ?? title
  }

  public func text(in language: Language) -> String {
    pick(localized[language]?.text) ?? text
  }

  public func question(in language: Language) -> String? {
    pick(localized[language]?.question) ?? pick(question)
  }

  public func warning(in language: Language) -> String? {
    pick(localized[language]?.warning) ?? pick(warning)
  }

  public func help(in language: Language) -> String? {
    pick(localized[language]?.help) ?? pick(help)
  }

  private func pick(_ value: String?) -> String? {
    guard let value, !value.isEmpty else { return nil }
    return value
  }
}

/// A key of a per-language map: the language's code.
private struct LanguageKey: CodingKey {
  let stringValue: String
  var intValue: Int? { nil }
  init(_ language: Language) { stringValue = language.rawValue }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer {
  /// A `[Language: Value]` map as Codable writes it (an object keyed by language code),
  /// read by its three keys. Codable's own dictionary decoding casts every key and value
  /// dynamically: 130,000 instructions a map, 9 % of the first offline answer's.
  /// Keys of no language are passed over; a missing map is an error, as before.
  func decodeLanguageMap<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws
    -> [Language: Value]
  {
    let nested = try nestedContainer(keyedBy: LanguageKey.self, forKey: key)
    var map: [Language: Value] = [:]
    for language in Language.allCases {
      if let value = try nested.decodeIfPresent(Value.self, forKey: LanguageKey(language)) {
        map[language] = value
      }
    }
    return map
  }
}
