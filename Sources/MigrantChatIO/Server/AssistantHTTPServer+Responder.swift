import Foundation
import Hummingbird
import HummingbirdCore
import MigrantChatCore
import NIOCore

extension AssistantHTTPServer {
  /// Every request, whatever its method or path, goes to `AssistantService`.
  ///
  /// What is refused here is answered with `Connection: close`: `PipelineGate` then
  /// lets nothing read after it in, and `CloseAfterAnswer` closes the connection.
  struct Responder: HTTPResponder {
    typealias Context = ServeContext
    let service: AssistantService
    let maxBodyBytes: Int
    let loopbackOnly: Bool

    func respond(to request: Request, context: ServeContext) async throws -> Response {
      let (answer, close) = await self.answer(request, context: context)
      let response = Self.response(answer, close: close)
      // HEAD: GET's status and headers (its Content-Length too), without the body.
      return request.method == .head ? response.createHeadResponse() : response
    }

    private func answer(_ request: Request, context: ServeContext) async -> (
      AssistantService.Response, close: Bool
    ) {
      if loopbackOnly, !AssistantHTTPServer.loopbackHostAllowed(request.head.authority) {
        return (
          .error(421, "this server answers requests addressed to localhost or 127.0.0.1 only"),
          true
        )
      }
      // RFC 9112: `chunked` alone, or nothing. llhttp takes `identity, chunked` as
      // chunked, which a proxy in front may read otherwise: refused, and closed.
      let encodings = request.headers[values: .transferEncoding]
      if !encodings.isEmpty, encodings.map({ $0.lowercased() }) != ["chunked"] {
        return (.error(400, "Transfer-Encoding must be chunked alone"), true)
      }
      // A declared length over the limit is refused before a byte of the body is
      // waited for (a client sending `Expect: 100-continue` gets its answer at once).
      if let declared = request.headers[.contentLength].flatMap({ Int($0) }),
        declared > maxBodyBytes
      {
        return (.error(413, "the request body is larger than \(maxBodyBytes) bytes"), true)
      }
      let body: ByteBuffer
      do {
        body = try await request.body.collect(upTo: maxBodyBytes)
      } catch is NIOTooManyBytesError {
        // Answered, and the connection closed: nothing after it is read as a request.
        return (.error(413, "the request body is larger than \(maxBodyBytes) bytes"), true)
      } catch {
        return (.error(400, "the request body could not be read"), true)
      }
      var query: [String: String] = [:]
      for (name, value) in request.uri.queryParameters where query[String(name)] == nil {
        query[String(name)] = String(value)
      }
      let answer = await service.handle(
        method: request.method.rawValue, path: request.uri.path, query: query,
        body: Data(body.readableBytesView), contentType: request.headers[.contentType],
        client: context.remoteAddress?.ipAddress)
      return (answer, false)
    }

    static func response(_ answer: AssistantService.Response, close: Bool) -> Response {
      var headers: HTTPFields = [.contentType: answer.contentType]
      if let retry = answer.retryAfter { headers[.retryAfter] = String(retry) }
      if let allow = answer.allow { headers[.allow] = allow }
      if close { headers[.connection] = "close" }
      return Response(
        status: HTTPTypes.HTTPResponse.Status(code: answer.status),
        headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
  }

  /// The request context: Hummingbird's, and the client's address (for rate limits).
  struct ServeContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
      coreContext = .init(source: source)
      remoteAddress = source.channel.remoteAddress
    }
  }
}
