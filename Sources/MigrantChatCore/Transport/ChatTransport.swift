import Foundation

/// Something that carries a user's message to a bot and brings back its reply.
///
/// The libcurl client and, later, the offline assistant implement it; tests
/// use fakes. Implementations throw `ChatError.cancelled` when the calling
/// task is cancelled, and never send a message twice.
public protocol ChatTransport: Sendable {
  func send(_ request: ChatRequest) async throws(ChatError) -> BotReply
}

/// One user turn, as sent to the bot.
public struct ChatRequest: Sendable, Hashable {
  public var sender: String
  public var message: String
  public var language: Language
  /// More `metadata` for the bot (Rasa Pro end-to-end tests' `metadata`), over the language.
  public var metadata: [String: JSONValue] = [:]

  public init(
    sender: String, message: String, language: Language, metadata: [String: JSONValue] = [:]
  ) {
    self.sender = sender
    self.message = message
    self.language = language
    self.metadata = metadata
  }

  /// What goes under `metadata`: `language`, then any given metadata, which wins
  /// (a test that sends its own `language` means it).
  public var metadataObject: JSONValue {
    .object(["language": .string(language.rawValue)].merging(metadata) { $1 })
  }

  /// The REST channel's body: `sender`, `message`, `metadata.language`, and
  /// `language` again at top level for custom channels that read it there.
  public var jsonBody: Data {
    let body = JSONValue.object([
      "sender": .string(sender),
      "message": .string(message),
      "metadata": metadataObject,
      "language": .string(language.rawValue),
    ])
    return Data(utf8Of: body.compactText)
  }
}
