import Foundation

/// An HTTP request as the adapters need it: small, and only http or https.
public struct HTTPRequest: Sendable, Hashable {
  public enum Method: String, Sendable { case get = "GET", post = "POST" }

  public var method: Method
  public var url: String
  public var headers: [String: String]
  public var body: Data?

  public init(method: Method, url: String, headers: [String: String] = [:], body: Data? = nil) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }
}

public struct HTTPResponse: Sendable, Hashable {
  public var status: Int
  public var headers: [String: String]
  public var body: Data
  /// From the request sent to the first byte of the answer (libcurl's timings): the
  /// server's time, without the client's own queueing; nil when not measured.
  public var serverSeconds: Double? = nil
}

/// Limits and trust settings for one client.
public struct HTTPOptions: Sendable, Hashable {
  public var timeout: Double
  public var maxBodyBytes: Int
  public var maxRedirects: Int
  /// Skip TLS verification: only when the user passed `--insecure`.
  public var insecure: Bool

  public init(
    timeout: Double = 30, maxBodyBytes: Int = 8 * 1024 * 1024, maxRedirects: Int = 3,
    insecure: Bool = false
  ) {
    self.timeout = timeout
    self.maxBodyBytes = maxBodyBytes
    self.maxRedirects = maxRedirects
    self.insecure = insecure
  }
}

/// Why a request got no HTTP response.
public enum HTTPFailure: Error, Sendable, Hashable {
  case connectionRefused
  case hostNotFound
  case timedOut
  case bodyTooLarge
  case redirectRefused
  case tooManyRedirects
  case tlsVerification(detail: String)
  /// The connection closed without an answer (and the request was not sent again).
  case noAnswer
  /// The answer ended before the length its headers announced.
  case cutOff
  case cancelled
  /// libcurl, opened on first use (CCurlLoader), is missing or broken; dlopen's reason.
  case libcurlMissing(detail: String)
  case other(detail: String)
}
