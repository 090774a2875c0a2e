import Foundation
import MigrantChatCore

/// Rasa's HTTP API (`--enable-api`): a conversation's tracker, for `utter` and
/// `slot_was_set` checks. Any failure (no API, 401, 404, not JSON) means "not
/// available", and those checks are skipped with the reason.
public struct RasaTrackerAPI: TrackerSource {
  public let endpoint: ServerEndpoint
  private let token: String?
  private let client: CurlHTTPClient

  public init(endpoint: ServerEndpoint, timeout: Double, token: String?) {
    self.endpoint = endpoint
    self.token = token
    self.client = CurlHTTPClient(options: HTTPOptions(timeout: timeout))
  }

  public func events(sender: String) async -> [JSONValue]? {
    let escaped =
      sender.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"]))
      ?? sender
    var headers = ["Accept": "application/json"]
    if let token, !token.isEmpty { headers["Authorization"] = "Bearer \(token)" }
    guard
      let response = try? await client.perform(
        HTTPRequest(
          method: .get, url: endpoint.requestBaseURL + "/conversations/\(escaped)/tracker",
          headers: headers)),
      response.status == 200,
      case .array(let events)? = (try? BotReplyDecoder.parse(response.body))?["events"]
    else { return nil }
    return events
  }
}
