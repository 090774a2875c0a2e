import Foundation
import MigrantChatCore

/// The data API over libcurl: plain GETs with a larger body limit than chat.
public struct CurlDataAPI: DataAPI, ReportAPI {
  /// The API's address as shown and kept: any password in it is `***`.
  public let baseURL: String
  /// The address requests go to, with the credentials the user gave.
  private let requestBaseURL: String
  private let host: String
  private let client: CurlHTTPClient

  /// A whole directory can be tens of megabytes; a chat answer never is.
  public static let maxBodyBytes = 256 * 1024 * 1024

  /// Throws when `baseURL` is not an http or https address.
  public init(baseURL: String, timeout: Double, insecure: Bool) throws(ServerEndpoint.Invalid) {
    let endpoint = try ServerEndpoint(baseURL: baseURL, webhookPath: "")
    self.baseURL = endpoint.baseURL
    self.requestBaseURL = endpoint.requestBaseURL
    self.host = endpoint.host
    self.client = CurlHTTPClient(
      options: HTTPOptions(timeout: timeout, maxBodyBytes: Self.maxBodyBytes, insecure: insecure))
  }

  public func get(_ path: String) async throws(DataAPIError) -> Data {
    let response: HTTPResponse
    do {
      response = try await client.perform(
        HTTPRequest(
          method: .get, url: requestBaseURL + path, headers: ["Accept": "application/json"]))
    } catch {
      throw dataAPIError(error)
    }
    guard (200..<300).contains(response.status) else {
      throw .httpStatus(
        server: baseURL, status: response.status,
        firstLine: ChatError.firstLine(of: response.body, limit: 120),
        retryAfter: DataAPIError.retryAfterSeconds(response.headers["retry-after"]))
    }
    return response.body
  }

  /// POSTs a JSON body once (a refused rewind means it is never sent twice); any status
  /// is an answer, for the caller to judge.
  public func post(_ path: String, json body: Data) async throws(DataAPIError) -> (
    status: Int, firstLine: String
  ) {
    do {
      let response = try await client.perform(
        HTTPRequest(
          method: .post, url: requestBaseURL + path,
          headers: ["Content-Type": "application/json", "Accept": "application/json"], body: body))
      return (response.status, ChatError.firstLine(of: response.body, limit: 120))
    } catch {
      throw dataAPIError(error)
    }
  }

  private func dataAPIError(_ failure: HTTPFailure) -> DataAPIError {
    switch failure {
    case .cancelled: .cancelled
    case .bodyTooLarge: .bodyTooLarge(server: baseURL, limitBytes: Self.maxBodyBytes)
    default:
      .unreachable(
        server: baseURL,
        reason: DataAPIError.Unreachable(failure, host: host, timeout: client.options.timeout))
    }
  }
}

extension DataAPIError.Unreachable {
  /// Why a server (the data API, Rasa's tracker) could not be reached, from the transfer's failure.
  init(_ failure: HTTPFailure, host: String = "", timeout: Double = 0) {
    self =
      switch failure {
      case .connectionRefused: .connectionRefused
      case .hostNotFound: .hostNotFound(host: host)
      case .timedOut: .timedOut(seconds: timeout)
      case .redirectRefused, .tooManyRedirects: .redirect
      case .noAnswer: .noAnswer
      case .cutOff: .cutOff
      case .tlsVerification(let detail): .tls(detail: TerminalSanitizer.clean(detail))
      case .bodyTooLarge: .other(detail: "answer too large")
      case .cancelled: .other(detail: "cancelled")
      case .libcurlMissing(let detail): .libcurlMissing(detail: TerminalSanitizer.clean(detail))
      case .other(let detail): .other(detail: TerminalSanitizer.clean(detail))
      }
  }
}
