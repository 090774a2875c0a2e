import Foundation

/// The data API of contract §2, as the directory needs it: GET a path, get bytes.
public protocol DataAPI: Sendable {
  /// The base URL, for messages and for telling caches of different servers apart.
  var baseURL: String { get }
  /// GETs `path` (with its query) relative to the base URL; a non-2xx status is an error.
  func get(_ path: String) async throws(DataAPIError) -> Data
}

/// Why a data API request got no usable answer.
public enum DataAPIError: Error, Sendable, Hashable {
  /// No connection, no name, a timeout, a TLS problem: the API is unreachable.
  case unreachable(server: String, reason: Unreachable)
  /// A non-2xx status; `retryAfter` from the header, in seconds, when given.
  case httpStatus(server: String, status: Int, firstLine: String, retryAfter: Double?)
  case bodyTooLarge(server: String, limitBytes: Int)
  /// The table came, but as a whole it is unusable; the old data stays.
  case badPayload(server: String, table: String, problem: PayloadProblem)
  case cancelled

  /// Why the data API could not be reached.
  public enum Unreachable: Sendable, Hashable {
    case connectionRefused
    case hostNotFound(host: String)
    case timedOut(seconds: Double)
    case tls(detail: String)
    case redirect
    /// The connection closed or broke without an answer.
    case noAnswer
    /// The answer ended before its announced length.
    case cutOff
    /// libcurl could not be loaded; dlopen's reason.
    case libcurlMissing(detail: String)
    case other(detail: String)
  }

  /// What was wrong with a whole table.
  public enum PayloadProblem: Sendable, Hashable {
    case notJSON
    /// Valid JSON of this type, but not `{"items": [...]}`.
    case notAnItemsObject(got: String)
    /// `/data-version` did not answer with a list of table names.
    case notATableList
  }

  /// Worth another try: the network, a server error, or "too many requests".
  public var isTransient: Bool {
    switch self {
    // A refused redirect or certificate, or a libcurl that cannot be loaded, will
    // be the same next time.
    case .unreachable(_, .redirect), .unreachable(_, .tls), .unreachable(_, .libcurlMissing): false
    case .unreachable: true
    case .httpStatus(_, let status, _, _): status == 429 || (500...599).contains(status)
    default: false
    }
  }

  public var retryAfter: Double? {
    if case .httpStatus(_, _, _, let seconds) = self { return seconds }
    return nil
  }

  /// A stable identifier for scripts (`--json`).
  public var code: String {
    switch self {
    case .unreachable: "data_api_unreachable"
    case .httpStatus: "data_api_http_status"
    case .bodyTooLarge: "data_api_body_too_large"
    case .badPayload: "data_api_bad_payload"
    case .cancelled: "cancelled"
    }
  }

  public func message(_ l10n: Localizer) -> String {
    switch self {
    // The server may be up: this machine cannot make the request.
    case .unreachable(let server, .libcurlMissing(let detail)):
      l10n(.syncLibcurlMissing, ["server": server, "detail": detail])
    case .unreachable(let server, let reason):
      l10n(.syncUnreachable, ["server": server, "detail": describe(reason, l10n)])
    case .httpStatus(let server, let status, let firstLine, _):
      l10n(
        .syncHTTPStatus,
        ["server": server, "status": String(status), "body": firstLine.isEmpty ? "-" : firstLine])
    case .bodyTooLarge(let server, let limitBytes):
      l10n(.syncTooLarge, ["server": server, "limit": String(limitBytes / (1024 * 1024))])
    case .badPayload(let server, let table, let problem):
      l10n(.syncBadPayload, ["server": server, "table": table, "detail": describe(problem, l10n)])
    case .cancelled:
      l10n(.cancelled)
    }
  }

  /// Why a report could not be sent, without the directory's "the cache was kept".
  public func reportReason(_ l10n: Localizer) -> String {
    switch self {
    case .unreachable(let server, let reason):
      l10n(.reportReasonUnreachable, ["server": server, "detail": describe(reason, l10n)])
    case .httpStatus(let server, let status, let firstLine, _):
      l10n(
        .reportReasonStatus,
        ["server": server, "status": String(status), "body": firstLine.isEmpty ? "-" : firstLine])
    default:
      message(l10n)
    }
  }

  func describe(_ reason: Unreachable, _ l10n: Localizer) -> String {
    Self.describe(reason, l10n)
  }

  /// Why a server could not be reached, in the user's language.
  public static func describe(_ reason: Unreachable, _ l10n: Localizer) -> String {
    switch reason {
    case .connectionRefused: l10n(.netRefused)
    case .hostNotFound(let host): l10n(.netNoHost, ["host": host])
    case .timedOut(let seconds): l10n(.netTimeout, ["seconds": l10n.number(seconds)])
    case .tls(let detail): l10n(.netTLS, ["detail": detail])
    case .redirect: l10n(.netRedirect)
    case .noAnswer: l10n(.netNoAnswer)
    case .cutOff: l10n(.netCutOff)
    case .libcurlMissing(let detail): l10n(.netLibcurlMissing, ["detail": detail])
    case .other(let detail): detail
    }
  }

  private func describe(_ problem: PayloadProblem, _ l10n: Localizer) -> String {
    switch problem {
    case .notJSON: l10n(.payloadNotJSON)
    case .notAnItemsObject(let got): l10n(.payloadNotItems, ["type": got])
    case .notATableList: l10n(.payloadNotTableList)
    }
  }

  /// Parses a `Retry-After` header: seconds, or an HTTP date.
  public static func retryAfterSeconds(_ header: String?, now: Date = Date()) -> Double? {
    guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else {
      return nil
    }
    if let seconds = Double(header), seconds.isFinite, seconds >= 0 { return seconds }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: header) else { return nil }
    return max(0, date.timeIntervalSince(now))
  }
}
