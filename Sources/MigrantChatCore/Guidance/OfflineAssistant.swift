import Foundation

/// The guidance tree as a button-driven conversation, answering like a Rasa bot.
///
/// Answers are Rasa REST messages (`text`, `buttons`, `custom.contacts`) as
/// JSON, so the chat, `serve` and transcripts treat it as any other bot.
/// Payloads are Rasa-style: `/start`, `/faq_tag{"id":3}`, `/faq_item{"id":10}`,
/// `/back`, `/restart`; anything else is a free-text search. Each sender has
/// its own place in the tree (for `/back`); at most `maxConversations` are
/// kept, the least recently used dropped first.
public actor OfflineAssistant {
  public static let defaultMaxConversations = 1000

  private var tree: GuidanceTree
  /// Stems the words of free-text searches (Snowball in the app; see `WordStemmer`).
  private let stemmer: any WordStemmer
  private let maxConversations: Int
  private var conversations: [String: Conversation] = [:]
  private var clock: UInt64 = 0
  /// Each use of a conversation, oldest first (from `usesStart`): the least recently
  /// used is found without scanning every conversation. Entries a later use made
  /// stale are skipped, and dropped when the list is compacted.
  private var uses: [(sender: String, at: UInt64)] = []
  private var usesStart = 0

  private struct Conversation {
    var path: [Place] = []
    var lastUsed: UInt64 = 0
  }

  enum Place: Hashable {
    case topic(Int64)
    case item(Int64)
  }

  public init(
    tree: GuidanceTree, stemmer: any WordStemmer,
    maxConversations: Int = OfflineAssistant.defaultMaxConversations
  ) {
    self.tree = tree
    self.stemmer = stemmer
    self.maxConversations = max(1, maxConversations)
  }

  /// Uses a newer tree (after a sync); conversations keep their place where it still exists.
  public func update(_ tree: GuidanceTree) {
    self.tree = tree
  }

  public var conversationCount: Int { conversations.count }

  /// Whether `sender`'s conversation is kept (for tests).
  func holds(_ sender: String) -> Bool { conversations[sender] != nil }

  /// Entries of the use list (for tests: it stays within twice the conversations).
  var useListCount: Int { uses.count }

  /// The messages a bot would send in answer to `message` from `sender`.
  public func respond(sender: String, message: String, language: Language) -> [JSONValue] {
    clock += 1
    var conversation = conversations[sender] ?? Conversation()
    conversation.lastUsed = clock
    let l10n = Localizer(language)
    let answer: [JSONValue]
    switch Payload(message) {
    case .restart:
      conversation.path = []
      answer = []
    case .start:
      conversation.path = []
      answer = menu(l10n, greeting: true)
    case .topic(let id):
      conversation.path.append(.topic(id))
      answer = topic(id, l10n)
    case .item(let id):
      conversation.path.append(.item(id))
      answer = item(id, l10n)
    case .back:
      if !conversation.path.isEmpty { conversation.path.removeLast() }
      switch conversation.path.last {
      case .topic(let id)?: answer = topic(id, l10n)
      case .item(let id)?: answer = item(id, l10n)
      case nil: answer = menu(l10n, greeting: false)
      }
    case .saveSteps(let id):
      // On the path, so "Back" returns to the guide.
      conversation.path.append(.item(id))
      answer = saveElsewhere(id, l10n)
    case .text(let text):
      answer = search(text, l10n)
    }
    // Deep paths are only for /back; a long session must not grow without bound.
    if conversation.path.count > 50 { conversation.path.removeFirst(conversation.path.count - 50) }
    store(conversation, for: sender)
    return answer.map { message in
      guard case .object(var fields) = message else { return message }
      fields["recipient_id"] = .string(sender)
      return .object(fields)
    }
  }

  private func store(_ conversation: Conversation, for sender: String) {
    conversations[sender] = conversation
    uses.append((sender, conversation.lastUsed))
    while conversations.count > maxConversations, usesStart < uses.count {
      let (oldest, at) = uses[usesStart]
      usesStart += 1
      // Only the entry of a conversation's latest use stands for it.
      if conversations[oldest]?.lastUsed == at { conversations[oldest] = nil }
    }
    // Entries already passed, or made stale by a later use (one entry a message), are
    // dropped once they are most of the list: amortized O(1) a message, and the list
    // never holds more than twice the live conversations (plus a little). Before, the
    // passed entries were kept, each with its sender: a client cycling long sender
    // names grew the server by the gigabyte.
    if uses.count > 2 * conversations.count + 64 {
      uses = uses[usesStart...].filter { conversations[$0.sender]?.lastUsed == $0.at }
      usesStart = 0
    }
  }

  // MARK: - Answers

  private func menu(_ l10n: Localizer, greeting: Bool) -> [JSONValue] {
    guard !tree.isEmpty else { return [text(l10n(.assistantNoGuidance))] }
    var buttons = tree.topics.map {
      button($0.name(in: l10n.language), "/faq_tag{\"id\":\($0.id)}")
    }
    if tree.hasUntaggedGuides {
      buttons.append(
        button(l10n(.assistantOtherTopic), "/faq_tag{\"id\":\(GuidanceTree.untaggedID)}"))
    }
    var messages: [JSONValue] = []
    if greeting { messages.append(text(l10n(.assistantGreeting))) }
    messages.append(text(l10n(.assistantChooseTopic), buttons: buttons))
    return messages
  }

  private func topic(_ id: Int64, _ l10n: Localizer) -> [JSONValue] {
    let guides = tree.guides(tag: id)
    guard !guides.isEmpty else { return [text(l10n(.assistantGone))] + menu(l10n, greeting: false) }
    let name =
      tree.tags.first { $0.id == id }?.name(in: l10n.language) ?? l10n(.assistantOtherTopic)
    let buttons =
      guides.map { button($0.title(in: l10n.language), "/faq_item{\"id\":\($0.id)}") }
      + navigation(l10n)
    return [text(l10n(.assistantTopicGuides, ["topic": name]), buttons: buttons)]
  }

  private func item(_ id: Int64, _ l10n: Localizer) -> [JSONValue] {
    guard let item = tree.items[id] else {
      return [text(l10n(.assistantGone))] + menu(l10n, greeting: false)
    }
    let language = l10n.language
    var messages: [JSONValue] = []
    let body = HTMLText.markup(item.text(in: language))
    messages.append(text("**\(item.title(in: language))**" + (body.isEmpty ? "" : "\n" + body)))
    if let warning = item.warning(in: language) {
      messages.append(text("**\(l10n(.assistantWarning)):** " + HTMLText.markup(warning)))
    }
    if let help = item.help(in: language) {
      messages.append(text("**\(l10n(.assistantHelp)):** " + HTMLText.markup(help)))
    }
    if !item.contacts.isEmpty {
      messages.append(
        .object(["custom": .object(["contacts": .array(item.contacts.map { .number(Double($0)) })])]
        ))
    }
    let steps = tree.steps(of: item)
    if !steps.isEmpty {
      let lines = steps.enumerated().map { index, step in
        let detail = HTMLText.plain(step.text(in: language))
        return "\(index + 1). **\(step.title(in: language))**"
          + (detail.isEmpty ? "" : " – " + detail)
      }
      messages.append(text("**\(l10n(.assistantSteps)):**\n" + lines.joined(separator: "\n")))
    }
    let answers = tree.answers(of: item)
    let question =
      answers.isEmpty
      ? l10n(.assistantWhatNext) : (item.question(in: language) ?? l10n(.assistantWhatNext))
    let save =
      steps.isEmpty
      ? [] : [button(l10n(.assistantSaveSteps), TodoCommand.savePayload(guideID: item.id))]
    let buttons =
      answers.map { button($0.title(in: language), "/faq_item{\"id\":\($0.id)}") }
      + save + navigation(l10n)
    messages.append(text(HTMLText.markup(question), buttons: buttons))
    // Which guide this is, for the client's `/todo save` and `/report` (any client may ignore it).
    messages[0] = Self.marked(messages[0], ["faq_item": .number(Double(item.id))])
    if tree.isSample {
      // Made-up guidance must never pass for real: the guide's first message says so, in
      // its `custom` (any client can see it) and in the chat as a marker line.
      messages[0] = Self.markedAsSample(messages[0])
    }
    return messages
  }

  /// `custom.sample: true` on a message of the embedded sample's guidance.
  static func markedAsSample(_ message: JSONValue) -> JSONValue {
    marked(message, ["sample": .bool(true)])
  }

  /// `message` with `entries` added to its `custom` object.
  static func marked(_ message: JSONValue, _ entries: [String: JSONValue]) -> JSONValue {
    guard case .object(var fields) = message else { return message }
    var custom: [String: JSONValue] = [:]
    if case .object(let existing)? = fields["custom"] { custom = existing }
    custom.merge(entries) { _, new in new }
    fields["custom"] = .object(custom)
    return .object(fields)
  }

  /// The "Save these steps" button reached the assistant itself: the client (a browser,
  /// the mobile app, a test) keeps no to-do list. Says where one is kept; the place stays.
  private func saveElsewhere(_ id: Int64, _ l10n: Localizer) -> [JSONValue] {
    guard let item = tree.items[id], !tree.steps(of: item).isEmpty else {
      return [text(l10n(.assistantGone))] + menu(l10n, greeting: false)
    }
    return [text(l10n(.assistantSaveElsewhere), buttons: navigation(l10n))]
  }

  private func search(_ query: String, _ l10n: Localizer) -> [JSONValue] {
    guard !tree.isEmpty else { return [text(l10n(.assistantNoGuidance))] }
    let (found, readAs) = tree.searchReading(query, language: l10n.language, stemmer: stemmer)
    guard !found.isEmpty else {
      return [text(l10n(.assistantNothingFound, ["query": query]))] + menu(l10n, greeting: false)
    }
    let buttons =
      found.map { button($0.title(in: l10n.language), "/faq_item{\"id\":\($0.id)}") }
      + [button(l10n(.assistantMainMenu), "/start")]
    // Typed with the other keyboard layout on: the text as read, so the person sees it.
    return [text(l10n(.assistantFound, ["query": readAs ?? query]), buttons: buttons)]
  }

  private func navigation(_ l10n: Localizer) -> [JSONValue] {
    [button(l10n(.assistantBack), "/back"), button(l10n(.assistantMainMenu), "/start")]
  }

  private func text(_ text: String, buttons: [JSONValue] = []) -> JSONValue {
    var fields: [String: JSONValue] = ["text": .string(text)]
    if !buttons.isEmpty { fields["buttons"] = .array(buttons) }
    return .object(fields)
  }

  private func button(_ title: String, _ payload: String) -> JSONValue {
    .object(["title": .string(title), "payload": .string(payload)])
  }
}

/// What a message to the assistant asks for.
enum Payload: Equatable {
  case start
  case restart
  case back
  case topic(Int64)
  case item(Int64)
  /// The "Save these steps to my to-do list" button, when no client took it.
  case saveSteps(Int64)
  case text(String)

  init(_ message: String) {
    let trimmed = message.trimmingWhitespace()
    guard trimmed.hasPrefix("/") else {
      self = .text(trimmed)
      return
    }
    let body = trimmed.dropFirst()
    let name = String(body.prefix { $0.isLetter || $0 == "_" }).lowercased()
    let entities = body.dropFirst(name.count)
    let id = (try? BotReplyDecoder.parse(Data(utf8Of: entities)))?["id"].flatMap(
      ItemsPayloadDecoder.id)
    switch (name, id) {
    case ("start", _), ("greet", _), ("menu", _): self = .start
    case ("restart", _): self = .restart
    case ("back", _): self = .back
    case ("faq_tag", let id?): self = .topic(id)
    case ("faq_item", let id?): self = .item(id)
    case ("todo_save", let id?): self = .saveSteps(id)
    default: self = .text(trimmed)
    }
  }
}
