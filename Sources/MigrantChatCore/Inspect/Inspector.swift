import Foundation

/// Where the chat reads what the bot understood: Rasa's HTTP API (`--enable-api`).
public protocol InspectorSource: Sendable {
  /// The conversation's tracker events.
  func events(sender: String) async -> Result<[JSONValue], InspectorUnavailable>
  /// The conversation's slots now.
  func slots(sender: String) async -> Result<[String: JSONValue], InspectorUnavailable>
  /// What NLU makes of `text` (`POST /model/parse`), without adding it to the conversation.
  func parse(_ text: String) async -> Result<TurnInsight, InspectorUnavailable>
}

/// Why the inspector has nothing to show: said once, in one translated line, and the chat goes on.
public enum InspectorUnavailable: Error, Sendable, Hashable {
  /// The offline assistant has no NLU and no tracker.
  case offline
  /// 404 or 405: the server runs without `--enable-api`.
  case notEnabled(server: String)
  /// 401 or 403: the API wants a token (`MIGRANT_CHAT_API_TOKEN`) or a better one.
  case unauthorized(server: String, status: Int)
  /// No connection.
  case unreachable(server: String, reason: DataAPIError.Unreachable)
  /// Another status, or an answer that is not a tracker.
  case failed(server: String, detail: String)

  public var code: String {
    switch self {
    case .offline: "inspect_offline"
    case .notEnabled: "inspect_not_enabled"
    case .unauthorized: "inspect_unauthorized"
    case .unreachable, .failed: "inspect_failed"
    }
  }
}

/// The offline assistant: nothing to inspect.
public struct OfflineInspector: InspectorSource {
  public init() {}

  public func events(sender: String) async -> Result<[JSONValue], InspectorUnavailable> {
    .failure(.offline)
  }

  public func slots(sender: String) async -> Result<[String: JSONValue], InspectorUnavailable> {
    .failure(.offline)
  }

  public func parse(_ text: String) async -> Result<TurnInsight, InspectorUnavailable> {
    .failure(.offline)
  }
}

/// What `/inspect`, `/slots`, `/tracker` and `/parse` show.
public enum InspectEvent: Sendable, Hashable {
  /// After a bot answer with the inspector on: what it understood in that turn.
  case turn(TurnInsight)
  case slots([String: JSONValue])
  /// `/tracker N`: the last events, readable.
  case tracker([TrackerLine])
  /// `/parse TEXT`: NLU alone.
  case parse(TurnInsight)
  case switched(on: Bool)
  case unavailable(InspectorUnavailable)
}

/// One tracker event as a line of `/tracker`.
public struct TrackerLine: Sendable, Hashable {
  public var kind: String
  public var text: String

  /// `user`, `bot`, `action`, `slot`, or the event's own name with its main value.
  public init(_ event: JSONValue) {
    kind = event["event"]?.stringValue ?? "?"
    switch kind {
    case "user":
      let intent = event["parse_data"]?["intent"]
      let confidence = intent?["confidence"]?.numberValue.map { " " + TrackerLine.score($0) } ?? ""
      text =
        "\"" + (event["text"]?.stringValue ?? "") + "\""
        + (intent?["name"]?.stringValue.map { " -> " + $0 + confidence } ?? "")
    case "bot":
      // A message without text (contacts, an image) shows what it carried instead.
      let data = event["data"]
      let carried = [data?["custom"], data?["image"], data?["attachment"]]
        .compactMap { $0 }.first { $0 != .null }
      text =
        [
          event["text"]?.stringValue, event["metadata"]?["utter_action"]?.stringValue,
          carried?.compactText,
        ]
        .compactMap { $0 }.first { !$0.isEmpty } ?? ""
    case "action":
      text =
        (event["name"]?.stringValue ?? "")
        + (event["policy"]?.stringValue.map { " (" + $0 + ")" } ?? "")
    case "slot":
      text = (event["name"]?.stringValue ?? "") + " = " + (event["value"] ?? .null).compactText
    default:
      text = event["name"]?.stringValue ?? ""
    }
  }

  /// A confidence as people read it: two decimals.
  public static func score(_ value: Double) -> String { String(format: "%.2f", value) }
}
