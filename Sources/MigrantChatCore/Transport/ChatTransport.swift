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

  public init(sender: String, message: String, language: Language) {
    self.sender = sender
    self.message = message
    self.language = language
  }

  /// The REST channel's body: `sender`, `message`, `metadata.language`, and
  /// `language` again at top level for custom channels that read it there.
  public var jsonBody: Data {
    let body = JSONValue.object([
      "sender": .string(sender),
      "message": .string(message),
      "metadata": .object(["language": .string(language.rawValue)]),
      "language": .string(language.rawValue),
    ])
    return Data(body.compactText.utf8)
  }
}
