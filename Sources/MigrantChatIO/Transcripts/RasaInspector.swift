import Foundation
import MigrantChatCore

/// Rasa's HTTP API (`--enable-api`) for the chat's inspector: the tracker and `/model/parse`.
///
/// Authentication as Rasa takes it: the token both as `?token=` (Rasa's
/// `--auth-token`) and as `Authorization: Bearer` (a JWT); Rasa accepts either.
/// `MIGRANT_CHAT_API_TOKEN` when the API needs another token than the channel's.
public struct RasaInspector: InspectorSource {
  public let endpoint: ServerEndpoint
  private let token: String?
  private let client: CurlHTTPClient

  public init(endpoint: ServerEndpoint, timeout: Double, token: String?, insecure: Bool = false) {
    self.endpoint = endpoint
    self.token = token.flatMap { $0.isEmpty ? nil : $0 }
    self.client = CurlHTTPClient(options: HTTPOptions(timeout: timeout, insecure: insecure))
  }

  /// The token from the environment: `MIGRANT_CHAT_API_TOKEN`, else `MIGRANT_CHAT_TOKEN`.
  public static func token(environment: [String: String]) -> String? {
    environment["MIGRANT_CHAT_API_TOKEN"] ?? environment["MIGRANT_CHAT_TOKEN"]
  }

  public func events(sender: String) async -> Result<[JSONValue], InspectorUnavailable> {
    switch await tracker(sender: sender) {
    case .success(let tracker):
      guard case .array(let events)? = tracker["events"] else {
        return .failure(.failed(server: endpoint.baseURL, detail: "no events in the tracker"))
      }
      return .success(events)
    case .failure(let reason): return .failure(reason)
    }
  }

  public func slots(sender: String) async -> Result<[String: JSONValue], InspectorUnavailable> {
    switch await tracker(sender: sender) {
    case .success(let tracker): return .success(tracker["slots"]?.objectValue ?? [:])
    case .failure(let reason): return .failure(reason)
    }
  }

  public func parse(_ text: String) async -> Result<TurnInsight, InspectorUnavailable> {
    let body = JSONValue.object(["text": .string(text)]).compactText
    switch await request(.post, "/model/parse", body: Data(body.utf8)) {
    case .success(let answer): return .success(TurnInsight(parse: answer, text: text))
    case .failure(let reason): return .failure(reason)
    }
  }

  private func tracker(sender: String) async -> Result<JSONValue, InspectorUnavailable> {
    let escaped =
      sender.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"]))
      ?? sender
    return await request(.get, "/conversations/\(escaped)/tracker")
  }

  private func request(
    _ method: HTTPRequest.Method, _ path: String, body: Data? = nil
  ) async -> Result<JSONValue, InspectorUnavailable> {
    let server = endpoint.baseURL
    var url = server + path
    var headers = ["Accept": "application/json"]
    if let token {
      let query = token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token
      url += "?token=" + query
      headers["Authorization"] = "Bearer \(token)"
    }
    if body != nil { headers["Content-Type"] = "application/json" }
    let response: HTTPResponse
    do {
      response = try await client.perform(
        HTTPRequest(method: method, url: url, headers: headers, body: body))
    } catch {
      return .failure(.unreachable(server: server, reason: reasonFor(error)))
    }
    switch response.status {
    case 200: break
    case 404, 405: return .failure(.notEnabled(server: server))
    case 401, 403: return .failure(.unauthorized(server: server, status: response.status))
    default:
      return .failure(.failed(server: server, detail: "HTTP \(response.status)"))
    }
    guard let answer = try? BotReplyDecoder.parse(response.body), answer.objectValue != nil else {
      return .failure(.failed(server: server, detail: "not JSON"))
    }
    return .success(answer)
  }

  private func reasonFor(_ failure: HTTPFailure) -> DataAPIError.Unreachable {
    DataAPIError.Unreachable(failure, host: endpoint.host, timeout: client.options.timeout)
  }
}
