import Foundation
import HTTPTypes
import MigrantChatCore
import NIOCore
import NIOHTTPTypes

/// A JSON error answered by a connection handler itself, before a request reaches
/// `AssistantService`: the connection is closed once it is written.
enum HTTPRefusal {
  static func send(
    _ status: HTTPTypes.HTTPResponse.Status, _ message: String, retryAfter: Int? = nil,
    context: ChannelHandlerContext
  ) {
    var head = HTTPTypes.HTTPResponse(status: status)
    let body = Data(utf8Of: JSONValue.object(["error": .string(message)]).compactText + "\n")
    head.headerFields[.contentType] = "application/json"
    head.headerFields[.connection] = "close"
    head.headerFields[.contentLength] = String(body.count)
    if let retryAfter { head.headerFields[.retryAfter] = String(retryAfter) }
    context.write(NIOAny(HTTPResponsePart.head(head)), promise: nil)
    context.write(NIOAny(HTTPResponsePart.body(ByteBuffer(bytes: body))), promise: nil)
    context.writeAndFlush(NIOAny(HTTPResponsePart.end(nil))).assumeIsolated().whenComplete { _ in
      context.close(promise: nil)
    }
  }
}
