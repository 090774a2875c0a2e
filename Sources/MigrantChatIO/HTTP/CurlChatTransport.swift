import Foundation
import MigrantChatCore

/// The Rasa REST channel over libcurl.
///
/// Posts one message and decodes the reply. A message is never sent twice: a
/// second POST could make the bot act twice on the same words. (The HTTP
/// client lets libcurl re-send only when no byte of the body had gone out.)
public struct CurlChatTransport: ChatTransport {
  public let endpoint: ServerEndpoint
  /// Sent as `Authorization: Bearer`, from `MIGRANT_CHAT_TOKEN` only.
  private let token: String?
  private let client: CurlHTTPClient

  public init(endpoint: ServerEndpoint, options: HTTPOptions, token: String?) {
    self.endpoint = endpoint
    self.token = token
    self.client = CurlHTTPClient(options: options)
  }

  /// The request is made and the answer decoded on the HTTP I/O thread (one thread
  /// hop less each way); the caller's own work stays where it runs.
  public func send(_ request: ChatRequest) async throws(ChatError) -> BotReply {
    try await withTaskExecutorPreference(HTTPExecutor.shared) { () async throws(ChatError) in
      try await sendHere(request)
    }
  }

  private func sendHere(_ request: ChatRequest) async throws(ChatError) -> BotReply {
    var headers = ["Content-Type": "application/json", "Accept": "application/json"]
    if let token, !token.isEmpty { headers["Authorization"] = "Bearer \(token)" }
    let server = endpoint.baseURL
    let response: HTTPResponse
    do {
      response = try await client.perform(
        HTTPRequest(
          method: .post, url: endpoint.webhookURL, headers: headers, body: request.jsonBody))
    } catch {
      throw chatError(error)
    }
    if response.status == 429 {
      throw .rateLimited(
        server: server, retryAfter: DataAPIError.retryAfterSeconds(response.headers["retry-after"]))
    }
    guard (200..<300).contains(response.status) else {
      throw .httpStatus(
        server: server, status: response.status, firstLine: ChatError.firstLine(of: response.body))
    }
    do {
      var reply = try BotReplyDecoder.decode(response.body)
      reply.serverSeconds = response.serverSeconds
      return reply
    } catch {
      switch error {
      case .notJSON: throw .notJSON(server: server)
      case .notAnArray(let got): throw .notAnArray(server: server, got: got)
      }
    }
  }

  private func chatError(_ failure: HTTPFailure) -> ChatError {
    ChatError.from(failure, endpoint: endpoint, options: client.options)
  }
}
