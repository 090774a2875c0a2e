import Foundation

/// A message posted to a Rasa REST webhook, as `serve` reads it.
///
/// Rasa's semantics: `sender` defaults to `"default"`, `message` must be text;
/// the language comes from `metadata.language`, else a top-level `language`
/// (what custom channels like `myrest` read), else English.
public struct WebhookRequest: Sendable, Hashable {
  public var sender: String
  public var message: String
  public var language: Language

  public enum Invalid: Error, Sendable, Hashable {
    case notJSON
    case notAnObject
    case noMessage

    /// For the `{"error": ...}` body of a 400 answer.
    public var reason: String {
      switch self {
      case .notJSON: "the body is not JSON"
      case .notAnObject: "the body is not a JSON object"
      case .noMessage: "'message' must be a string"
      }
    }
  }

  public init(body: Data) throws(Invalid) {
    let value: JSONValue
    do { value = try BotReplyDecoder.parse(body) } catch { throw .notJSON }
    guard case .object(let fields) = value else { throw .notAnObject }
    guard let message = fields["message"]?.stringValue else { throw .noMessage }
    self.message = message
    switch fields["sender"] {
    case .string(let sender)? where !sender.isEmpty: self.sender = sender
    case .number(let number)?: self.sender = JSONValue.format(number)
    default: self.sender = "default"
    }
    let codes = [fields["metadata"]?["language"]?.stringValue, fields["language"]?.stringValue]
    language = codes.lazy.compactMap { $0.flatMap(Language.init(code:)) }.first ?? .en
  }
}
