internal import CCurl
import Foundation

/// HTTP over libcurl: http and https only, also for redirects.
///
/// Every transfer of the process runs on one libcurl multi handle driven by
/// one I/O thread (`CurlEngine`), so a request in flight holds no thread; a
/// client reuses its connections, and those of the clients that share its
/// lane. Cancelling the calling task removes its transfer at once.
public final class CurlHTTPClient: Sendable {
  public let options: HTTPOptions
  private let engine: CurlEngine
  /// The connection cache this client's transfers use (see `CurlEngine`).
  private let lane: Int

  public init(options: HTTPOptions) {
    self.options = options
    self.engine = CurlEngine.shared
    self.lane = engine.takeLane()
  }

  public func perform(_ request: HTTPRequest) async throws(HTTPFailure) -> HTTPResponse {
    // A line break in a header value (a token pasted with its newline, or a hostile
    // environment) would end the header and start another: refused, never sent.
    for (name, value) in request.headers
    where (name + value).unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
      throw .other(
        detail: "the \(name) header holds a line break or another control character"
          + (name == "Authorization" ? " (check the token in the environment)" : ""))
    }
    let transfer = CurlTransfer(request: request, options: options, lane: lane)
    let engine = self.engine
    let result: Result<HTTPResponse, HTTPFailure> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        transfer.continuation = continuation
        engine.submit(transfer)
      }
    } onCancel: {
      transfer.cancelled.store(true, ordering: .relaxed)
      engine.cancel(transfer)
    }
    return try result.get()
  }

  static func failure(for code: CURLcode, detail: String, transfer: CurlTransfer) -> HTTPFailure {
    switch code {
    case CURLE_COULDNT_RESOLVE_HOST: return .hostNotFound
    case CURLE_COULDNT_CONNECT: return .connectionRefused
    case CURLE_OPERATION_TIMEDOUT: return .timedOut
    // The pre-request callback stopped a second send of the body after silence.
    case CURLE_ABORTED_BY_CALLBACK where transfer.refusedResend: return .noAnswer
    case CURLE_ABORTED_BY_CALLBACK: return .cancelled
    case CURLE_FILESIZE_EXCEEDED: return .bodyTooLarge
    case CURLE_WRITE_ERROR where transfer.tooLarge: return .bodyTooLarge
    // The first URL is checked to be http(s), so only a redirect can bring another scheme.
    case CURLE_UNSUPPORTED_PROTOCOL: return .redirectRefused
    case CURLE_TOO_MANY_REDIRECTS: return .tooManyRedirects
    case CURLE_PEER_FAILED_VERIFICATION: return .tlsVerification(detail: detail)
    // Nothing came back (closed, reset), or curl would have had to post the body again.
    case CURLE_GOT_NOTHING, CURLE_SEND_FAIL_REWIND, CURLE_RECV_ERROR, CURLE_SEND_ERROR:
      return .noAnswer
    case CURLE_PARTIAL_FILE: return .cutOff
    default: return .other(detail: detail)
    }
  }
}
