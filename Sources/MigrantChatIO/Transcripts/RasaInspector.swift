import Foundation
import MigrantChatCore

/// Rasa's HTTP API (`--enable-api`) for the chat's inspector: the tracker and `/model/parse`.
///
/// Authentication as Rasa takes it. Rasa's `--auth-token` is read only from the
/// query (`?token=`), where access logs keep it; so only the token given for the
/// API (`MIGRANT_CHAT_API_TOKEN`) goes there, and also as `Authorization:
/// Bearer`. The chat's token (`MIGRANT_CHAT_TOKEN`) is only ever a header (a
/// JWT, which Rasa's API takes with `--jwt-secret`): it never lands in a URL.
public struct RasaInspector: InspectorSource {
  /// Where the token goes: the header always, the query only when it was given for the API.
  public struct Credentials: Sendable, Equatable {
    public var bearer: String?
    public var query: String?

    public init(bearer: String? = nil, query: String? = nil) {
      self.bearer = bearer.flatMap { $0.isEmpty ? nil : $0 }
      self.query = query.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `MIGRANT_CHAT_API_TOKEN` as query and header; else `MIGRANT_CHAT_TOKEN` as header only.
    public init(environment: [String: String]) {
      if let api = environment["MIGRANT_CHAT_API_TOKEN"], !api.isEmpty {
        self.init(bearer: api, query: api)
      } else {
        self.init(bearer: environment["MIGRANT_CHAT_TOKEN"])
      }
    }
  }

  public let endpoint: ServerEndpoint
  private let credentials: Credentials
  private let client: CurlHTTPClient

  public init(
    endpoint: ServerEndpoint, timeout: Double, credentials: Credentials, insecure: Bool = false
  ) {
    self.endpoint = endpoint
    self.credentials = credentials
    self.client = CurlHTTPClient(options: HTTPOptions(timeout: timeout, insecure: insecure))
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
    await parseAnswer(text).map { TurnInsight(parse: $0, text: text) }
  }

  /// `POST /model/parse` as the bot answered it (intent ranking, entity spans, tokens).
  public func parseAnswer(_ text: String) async -> Result<JSONValue, InspectorUnavailable> {
    let body = JSONValue.object(["text": .string(text)]).compactText
    return await request(.post, "/model/parse", body: Data(utf8Of: body))
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
    var url = endpoint.requestBaseURL + path
    var headers = ["Accept": "application/json"]
    if let token = credentials.query {
      url += "?token=" + (token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }
    if let token = credentials.bearer { headers["Authorization"] = "Bearer \(token)" }
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
