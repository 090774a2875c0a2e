import Foundation

/// The offline assistant behind the chat's transport interface.
///
/// Its answers go through the same JSON decoder as a server's, so what the
/// user sees cannot differ from the same answers over HTTP.
public struct OfflineTransport: ChatTransport {
  public let assistant: OfflineAssistant

  public init(assistant: OfflineAssistant) {
    self.assistant = assistant
  }

  public func send(_ request: ChatRequest) async throws(ChatError) -> BotReply {
    let messages = await assistant.respond(
      sender: request.sender, message: request.message, language: request.language)
    do {
      return try BotReplyDecoder.decode(Data(utf8Of: JSONValue.array(messages).compactText))
    } catch {
      return BotReply(messages: [])
    }
  }
}
