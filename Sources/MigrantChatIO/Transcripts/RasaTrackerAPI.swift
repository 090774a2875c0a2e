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
    guard
      let response = try? await client.perform(
        HTTPRequest(method: .get, url: url(sender, "tracker"), headers: headers)),
      response.status == 200,
      case .array(let events)? = (try? BotReplyDecoder.parse(response.body))?["events"]
    else { return nil }
    return events
  }

  /// Rasa Pro's fixtures go in this way: `POST .../tracker/events` with the events, which
  /// makes the conversation (its session start first) when it has none yet.
  public func append(_ events: [JSONValue], sender: String) async -> StoryModelFailure? {
    var headers = headers
    headers["Content-Type"] = "application/json"
    let response: HTTPResponse
    do {
      response = try await client.perform(
        HTTPRequest(
          method: .post, url: url(sender, "tracker/events") + "?include_events=NONE",
          headers: headers, body: Data(utf8Of: JSONValue.array(events).compactText)))
    } catch {
      // Said in the user's language (a refused connection was `connectionRefused`).
      return StoryModelFailure(
        "POST /conversations/{id}/tracker/events",
        error: ChatError.from(error, endpoint: endpoint, options: client.options))
    }
    guard (200..<300).contains(response.status) else {
      return StoryModelFailure(
        "HTTP \(response.status)"
          + (response.status == 404 || response.status == 405 ? " (no --enable-api?)" : ""))
    }
    return nil
  }

  private var headers: [String: String] {
    var headers = ["Accept": "application/json"]
    if let token, !token.isEmpty { headers["Authorization"] = "Bearer \(token)" }
    return headers
  }

  private func url(_ sender: String, _ path: String) -> String {
    let escaped =
      sender.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"]))
      ?? sender
    return endpoint.requestBaseURL + "/conversations/\(escaped)/" + path
  }
}

/// Test stories are judged by the deployed model through the same API: its domain
/// (`GET /domain`), its next-action prediction for a list of events (`POST
/// /model/predict`, which keeps no conversation) and its NLU (`POST /model/parse`).
extension RasaTrackerAPI: StoryModel {
  public func domain() async -> Result<JSONValue, StoryModelFailure> {
    await ask(.get, "/domain", body: nil)
  }

  public func predict(_ events: [JSONValue]) async -> Result<StoryPrediction, StoryModelFailure> {
    switch await ask(.post, "/model/predict", body: .array(events)) {
    case .success(let json):
      guard let prediction = StoryPrediction(json: json) else {
        return .failure(StoryModelFailure("/model/predict: no scores in the answer"))
      }
      return .success(prediction)
    case .failure(let failure): return .failure(failure)
    }
  }

  public func parse(_ text: String) async -> Result<JSONValue, StoryModelFailure> {
    await ask(.post, "/model/parse", body: .object(["text": .string(text)]))
  }

  private func ask(_ method: HTTPRequest.Method, _ path: String, body: JSONValue?) async -> Result<
    JSONValue, StoryModelFailure
  > {
    var headers = headers
    if body != nil { headers["Content-Type"] = "application/json" }
    let response: HTTPResponse
    do {
      response = try await client.perform(
        HTTPRequest(
          method: method, url: endpoint.requestBaseURL + path, headers: headers,
          body: body.map { Data(utf8Of: $0.compactText) }))
    } catch {
      return .failure(
        StoryModelFailure(
          path, error: ChatError.from(error, endpoint: endpoint, options: client.options)))
    }
    guard response.status == 200 else {
      return .failure(StoryModelFailure("\(path): HTTP \(response.status)"))
    }
    guard let json = try? BotReplyDecoder.parse(response.body) else {
      return .failure(StoryModelFailure("\(path): the answer is not JSON"))
    }
    return .success(json)
  }
}
