import Foundation

/// One conversation kept on this machine (`migrant-chat history`).
public struct HistoryConversation: Sendable, Hashable {
  /// Its number: stable, never given to another (`history show 12`).
  public var id: Int64
  public var startedAt: Date
  public var updatedAt: Date
  /// The bot's address; nil for the offline assistant.
  public var server: String?
  public var sender: String
  /// The language it started in.
  public var language: Language
  /// What it was about: the first line the user typed or clicked, else the bot's first words.
  public var topic: String
  /// Lines typed and messages shown.
  public var entries: Int
  /// A caseworker's name for it (`--label "client 42"`, `/label`): listed, searched,
  /// exported.
  public var label: String?

  /// The topic as shown, without the mark of a topic taken from the bot's words.
  public var shownTopic: String { topic.hasPrefix("…") ? String(topic.dropFirst()) : topic }

  /// The topic after the label, as lists show it: "client 42: housing".
  public var labelledTopic: String { label.map { $0 + ": " + shownTopic } ?? shownTopic }

  /// The bot's address as shown and exported: a password in it is `***`, even one
  /// kept by a version before passwords were left out.
  public var shownServer: String? {
    server.map { TerminalSanitizer.clean(ServerEndpoint.redacted($0), keepNewlines: false) }
  }

  public init(
    id: Int64, startedAt: Date, updatedAt: Date, server: String?, sender: String,
    language: Language, topic: String, entries: Int, label: String? = nil
  ) {
    self.label = label
    self.id = id
    self.startedAt = startedAt
    self.updatedAt = updatedAt
    self.server = server
    self.sender = sender
    self.language = language
    self.topic = topic
    self.entries = entries
  }
}

/// What was on the screen, in order: what the user typed, what the bot said (as
/// shown, with the contact cards it showed), a language switch, a turn that failed.
public struct HistoryEntry: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable {
    case user
    case bot
    /// Bot messages that came after the answer was whole (socket.io).
    case late
    case language
    case failure
    /// What the client itself showed for a command (`/contacts`, `/near`, `/contact`,
    /// `/todo`, `/map` as a list): its text as shown, after the line that asked for it.
    case shown
  }

  public var kind: Kind
  public var at: Date
  /// The language in force when it was shown.
  public var language: Language
  /// `user`: the line; `failure`: the error as shown; `language`: the new one's code.
  public var text: String
  /// `bot`, `late`: the messages, and the cards of their contacts as shown.
  public var messages: [BotMessage]
  public var contacts: [String: Contact]
  /// `user`: the title of the button a number typed chose (`2` → "Житло").
  public var chose: String?
  /// `user`: what was sent when the line was read before it was sent (typed with the
  /// wrong layout or in Latin letters, #48); `text` is the line as typed.
  public var sent: String?

  public init(
    kind: Kind, at: Date, language: Language, text: String = "", messages: [BotMessage] = [],
    contacts: [String: Contact] = [:]
  ) {
    self.kind = kind
    self.at = at
    self.language = language
    self.text = text
    self.messages = messages
    self.contacts = contacts
  }

  /// The words it is found by: the line, or the messages' texts, buttons and cards' names.
  public var searchText: String {
    switch kind {
    case .user: return sent.map { text + " " + $0 } ?? text
    case .failure, .shown: return text
    case .language: return ""
    case .bot, .late:
      var parts: [String] = []
      for message in messages {
        if let text = message.text { parts.append(text) }
        parts += message.buttons.map(\.title)
        parts += message.elements.flatMap {
          [$0.title, $0.subtitle ?? ""] + $0.buttons.map(\.title)
        }
      }
      for id in messages.flatMap(\.contactIDs) {
        if let contact = contacts[id] {
          parts += [
            contact.name, contact.city ?? "", contact.address ?? "", contact.phone ?? "",
            contact.email ?? "", contact.web ?? "",
          ]
          parts += contact.localized.values.compactMap(\.name)
        }
      }
      return parts.filter { !$0.isEmpty }.joined(separator: "\n")
    }
  }

  /// The messages in the Rasa REST channel's own JSON, as they are kept: read back
  /// with `BotReplyDecoder`, they are the messages shown.
  public static func rasaJSON(_ messages: [BotMessage]) -> JSONValue {
    .array(
      messages.map { message in
        var fields: [String: JSONValue] = [:]
        if let text = message.text { fields["text"] = .string(text) }
        if !message.buttons.isEmpty { fields["buttons"] = buttonsJSON(message.buttons) }
        if let image = message.image { fields["image"] = .string(image) }
        if let attachment = message.attachment { fields["attachment"] = attachment }
        if let custom = message.custom { fields["custom"] = custom }
        if !message.elements.isEmpty {
          fields["elements"] = .array(
            message.elements.map { element in
              var members: [String: JSONValue] = ["title": .string(element.title)]
              if let subtitle = element.subtitle { members["subtitle"] = .string(subtitle) }
              if let image = element.imageURL { members["image_url"] = .string(image) }
              if !element.buttons.isEmpty { members["buttons"] = buttonsJSON(element.buttons) }
              return .object(members)
            })
        }
        return .object(fields)
      })
  }

  static func buttonsJSON(_ buttons: [Button]) -> JSONValue {
    .array(
      buttons.map { button in
        var members: [String: JSONValue] = ["title": .string(button.title)]
        if let payload = button.payload { members["payload"] = .string(payload) }
        if let url = button.url { members["url"] = .string(url) }
        return .object(members)
      })
  }

  /// What the chat showed for it, as events the renderer draws again.
  public var events: [ChatEvent] {
    switch kind {
    case .user: return []
    case .language: return Language(rawValue: text).map { [.languageChanged($0)] } ?? []
    case .failure, .shown: return []
    case .bot, .late:
      let cards = ContactCards(found: contacts, resolved: !contacts.isEmpty)
      let reply = BotReply(messages: messages)
      if messages.isEmpty { return [.noAnswer] }
      return [kind == .late ? .late(reply, contacts: cards) : .reply(reply, contacts: cards)]
    }
  }
}
