import Foundation

/// Where the chatbot listens: a base URL and the webhook path.
public struct ServerEndpoint: Sendable, Hashable {
  /// The base URL as the user gave it, without a trailing slash and with any password
  /// in it shown as `***` (`http://user:***@host`): what is shown, written (state,
  /// history, exports, errors) and the key the sender id is remembered under.
  public var baseURL: String
  /// The base URL requests go to: the credentials the user gave, in it.
  public var requestBaseURL: String
  public var webhookPath: String

  public static let defaultWebhookPath = "/webhooks/rest/webhook"

  public enum Invalid: Error, Hashable {
    case notHTTP(String)
  }

  /// `127.0.0.1:5005` or `localhost:5005` as people type them: `http://` is assumed
  /// (the caller says so). Nil when the text already has a scheme or is not such an address.
  public static func assumingHTTP(_ text: String) -> String? {
    let trimmed = text.trimmingWhitespace()
    guard !trimmed.isEmpty, !trimmed.contains("://"), !trimmed.hasPrefix("/"),
      let components = URLComponents(string: "http://" + trimmed),
      let host = components.host, !host.isEmpty, !host.contains(" ")
    else { return nil }
    return "http://" + trimmed
  }

  public init(baseURL: String, webhookPath: String = defaultWebhookPath) throws(Invalid) {
    var base = baseURL.trimmingWhitespace()
    while base.hasSuffix("/") { base.removeLast() }
    guard let components = URLComponents(string: base),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.host, !host.isEmpty
    else { throw .notHTTP(Self.redacted(baseURL)) }
    self.requestBaseURL = base
    self.baseURL = Self.redacted(base)
    let path = webhookPath.trimmingWhitespace()
    self.webhookPath = path.hasPrefix("/") ? path : "/" + path
  }

  /// The URL the messages are posted to.
  public var webhookURL: String { requestBaseURL + webhookPath }

  /// `text` with the password of every URL in it replaced by `***`: `http://ana:s3cret@host`
  /// is `http://ana:***@host`. What follows `scheme://` up to the first `@` before the
  /// host's end (`/`, `?`, `#` or white space) is the user information; its part after
  /// the first `:` is the password. An address typed without a scheme
  /// (`ana:s3cret@host:5005`, one word) is read the same way. Text without one is
  /// returned as it is.
  public static func redacted(_ text: String) -> String {
    guard text.contains("@") else { return text }
    guard text.contains("://") else {
      // `ana:s3cret@host` as typed for --server, before http:// is assumed: one word whose
      // user information ends at the last `@` before the host's end.
      let word = text.trimmingWhitespace()
      guard !word.contains(where: \.isWhitespace) else { return text }
      let redacted = Self.redacted("http://" + word)
      return redacted == "http://" + word ? text : String(redacted.dropFirst("http://".count))
    }
    var result = ""
    var rest = Substring(text)
    while let scheme = rest.range(of: "://") {
      result += rest[..<scheme.upperBound]
      rest = rest[scheme.upperBound...]
      let authorityEnd =
        rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" || $0.isWhitespace } ?? rest.endIndex
      let authority = rest[..<authorityEnd]
      if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
        result += authority[..<colon] + ":***" + authority[at...]
      } else {
        result += authority
      }
      rest = rest[authorityEnd...]
    }
    return result + rest
  }

  /// The host name, for error messages about name resolution.
  public var host: String { URLComponents(string: baseURL)?.host ?? baseURL }
}

/// The first setting that is given: flag, then environment, then config file.
public func firstGiven(_ values: String?...) -> String? {
  values.lazy.compactMap { $0 }.first { !$0.isEmpty }
}

/// How messages reach the bot: Rasa's `rest` channel, or its `socketio` channel
/// (the one web chat widgets use).
public enum BotChannel: String, Sendable, Hashable, CaseIterable {
  case rest
  case socketio

  /// `rest`, `socketio`, also `socket.io` and any case.
  public init?(typed: String) {
    let text = typed.trimmingWhitespace().lowercased()
    switch text {
    case "rest": self = .rest
    case "socketio", "socket.io", "socket-io": self = .socketio
    default: return nil
    }
  }

  /// `rest,socketio`: each once, in the order given; nil when any part is not a channel.
  public static func list(_ text: String) -> [BotChannel]? {
    var channels: [BotChannel] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      guard let channel = BotChannel(typed: String(part)) else { return nil }
      if !channels.contains(channel) { channels.append(channel) }
    }
    return channels.isEmpty ? nil : channels
  }
}
