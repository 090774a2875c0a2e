import Foundation

/// Why a turn got no answer. Every case names what to do about it.
public enum ChatError: Error, Sendable, Hashable {
  case connectionRefused(server: String)
  case hostNotFound(server: String, host: String)
  case timedOut(server: String, seconds: Double)
  /// A non-2xx status, with the first line of the body, sanitized and shortened.
  case httpStatus(server: String, status: Int, firstLine: String)
  /// HTTP 429; `retryAfter` in seconds when the server said.
  case rateLimited(server: String, retryAfter: Double?)
  /// The connection closed or broke before an answer; the message was not re-sent.
  case noAnswer(server: String)
  /// The answer ended before its announced length.
  case cutOff(server: String)
  case bodyTooLarge(server: String, limitBytes: Int)
  case notJSON(server: String)
  case notAnArray(server: String, got: String)
  case redirectRefused(server: String)
  case tooManyRedirects(server: String, limit: Int)
  case tlsVerification(server: String, detail: String)
  case network(server: String, detail: String)
  /// libcurl, which every request goes through, could not be loaded; dlopen's reason.
  case libcurlMissing(server: String, detail: String)
  case cancelled
  /// The socket.io handshake failed: no Engine.IO server at the path.
  case notSocketIO(server: String, path: String, detail: String)
  /// The socket.io server refused the connection (Rasa's `jwt_key` without a good token).
  case socketRefused(server: String, detail: String, tokenSent: Bool)
  /// The socket.io session was confirmed, and nothing came back for a message.
  case socketSilent(server: String, seconds: Double)
  /// The user's message would be a POST larger than the socket.io server takes
  /// (`maxPayload` in its handshake): it was not sent.
  case socketMessageTooLarge(server: String, limitBytes: Int, bytes: Int)

  /// A stable identifier for scripts (`--json`).
  public var code: String {
    switch self {
    case .connectionRefused: "connection_refused"
    case .hostNotFound: "host_not_found"
    case .timedOut: "timeout"
    case .httpStatus: "http_status"
    case .rateLimited: "rate_limited"
    case .noAnswer: "no_answer"
    case .cutOff: "cut_off"
    case .bodyTooLarge: "body_too_large"
    case .notJSON: "not_json"
    case .notAnArray: "not_an_array"
    case .redirectRefused: "redirect_refused"
    case .tooManyRedirects: "too_many_redirects"
    case .tlsVerification: "tls_verification"
    case .network: "network"
    case .libcurlMissing: "libcurl_missing"
    case .cancelled: "cancelled"
    case .notSocketIO: "not_socketio"
    case .socketRefused: "socket_refused"
    case .socketSilent: "socket_silent"
    case .socketMessageTooLarge: "socket_message_too_large"
    }
  }

  /// The message a user reads, in their language.
  public func message(_ l10n: Localizer) -> String {
    switch self {
    case .connectionRefused(let server):
      l10n(.errorConnectionRefused, ["server": server])
    case .hostNotFound(let server, let host):
      l10n(.errorHostNotFound, ["server": server, "host": host])
    case .timedOut(let server, let seconds):
      l10n(.errorTimeout, ["server": server, "seconds": l10n.number(seconds)])
    case .httpStatus(let server, let status, let firstLine):
      if status == 404 {
        l10n(.errorHTTPNotFound, ["server": server])
      } else if (500...599).contains(status) {
        l10n(
          .errorHTTPServerError,
          ["server": server, "status": String(status), "body": firstLine.isEmpty ? "-" : firstLine])
      } else if firstLine.isEmpty {
        l10n(.errorHTTPStatus, ["server": server, "status": String(status)])
      } else {
        l10n(.errorHTTPStatusBody, ["server": server, "status": String(status), "body": firstLine])
      }
    case .rateLimited(let server, let retryAfter):
      if let retryAfter {
        l10n(
          .errorRateLimited,
          ["server": server, "seconds": l10n.number(retryAfter.rounded(.up))])
      } else {
        l10n(.errorRateLimitedNoWait, ["server": server])
      }
    case .noAnswer(let server):
      l10n(.errorNoAnswer, ["server": server])
    case .cutOff(let server):
      l10n(.errorCutOff, ["server": server])
    case .bodyTooLarge(let server, let limitBytes):
      l10n(.errorBodyTooLarge, ["server": server, "limit": String(limitBytes / (1024 * 1024))])
    case .notJSON(let server):
      l10n(.errorNotJSON, ["server": server])
    case .notAnArray(let server, let got):
      l10n(.errorNotAnArray, ["server": server, "type": got])
    case .redirectRefused(let server):
      l10n(.errorRedirectRefused, ["server": server])
    case .tooManyRedirects(let server, let limit):
      l10n(.errorTooManyRedirects, ["server": server, "limit": String(limit)])
    case .tlsVerification(let server, let detail):
      l10n(.errorTLS, ["server": server, "detail": detail])
    case .network(let server, let detail):
      l10n(.errorNetwork, ["server": server, "detail": detail])
    case .libcurlMissing(let server, let detail):
      l10n(.errorLibcurlMissing, ["server": server, "detail": detail]) + " "
        + l10n(.errorLibcurlMissingOffline)
    case .cancelled:
      l10n(.cancelled)
    case .notSocketIO(let server, let path, let detail):
      l10n(.errorNotSocketIO, ["server": server, "path": path, "detail": detail])
    case .socketRefused(let server, let detail, let tokenSent):
      l10n(
        tokenSent ? .errorSocketRefusedToken : .errorSocketRefused,
        ["server": server, "detail": detail])
    case .socketSilent(let server, let seconds):
      l10n(.errorSocketSilent, ["server": server, "seconds": l10n.number(seconds)])
    case .socketMessageTooLarge(let server, let limitBytes, let bytes):
      l10n(
        .errorSocketMessageTooLarge,
        ["server": server, "limit": String(limitBytes), "size": String(bytes)])
    }
  }
}

extension ChatError {
  /// The reason put before the offer of the offline assistant: the message,
  /// without its own advice to use the offline assistant where it has one.
  public func reasonBeforeOffer(_ l10n: Localizer) -> String {
    if case .libcurlMissing(let server, let detail) = self {
      return l10n(.errorLibcurlMissing, ["server": server, "detail": detail])
    }
    return message(l10n)
  }
}

extension ChatError: LocalizedError {
  public var errorDescription: String? { message(Localizer(.en)) }
}

extension ChatError {
  /// The first line of an error body, sanitized and cut to `limit` characters.
  ///
  /// For an HTML error page, its `<title>`, or else its text without tags:
  /// a proxy's "502 Bad Gateway" says more than `<!DOCTYPE html>`. For a JSON
  /// error (`{"error": "no guide 99999"}`), its message: no raw JSON for people.
  public static func firstLine(of body: Data, limit: Int = 200) -> String {
    if body.first == UInt8(ascii: "{"),
      let object = try? BotReplyDecoder.parse(body.prefix(64 * 1024)),
      let message = ["error", "message", "detail", "title", "description"].lazy
        .compactMap({ object[$0]?.stringValue }).first(where: { !$0.isEmpty })
    {
      return firstLine(of: Data(utf8Of: message), limit: limit)
    }
    var text = TerminalSanitizer.clean(String(decoding: body.prefix(64 * 1024), as: UTF8.self))
    let lowercased = text.lowercased()
    if lowercased.contains("<html") || lowercased.contains("<!doctype") {
      if let open = text.range(of: "<title>", options: .caseInsensitive),
        let close = text.range(
          of: "</title>", options: .caseInsensitive, range: open.upperBound..<text.endIndex)
      {
        text = String(text[open.upperBound..<close.lowerBound])
      } else {
        text = text.replacingOccurrences(of: "<[^>]*>", with: "\n", options: .regularExpression)
      }
    }
    let line =
      text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .first { !$0.isEmpty } ?? ""
    return line.count > limit ? String(line.prefix(limit)) + "…" : line
  }
}
