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
