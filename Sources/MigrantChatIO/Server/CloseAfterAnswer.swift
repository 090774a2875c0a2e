import NIOCore
import NIOHTTPTypes

/// Closes the connection once an answer that says `Connection: close` is written.
///
/// Hummingbird closes a connection only when the request asked for it; `serve`'s own
/// refusals (a body too large, a smuggling attempt) say `close` in the answer.
final class CloseAfterAnswer: ChannelOutboundHandler, RemovableChannelHandler,
  @unchecked Sendable
{
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart
  private var closeAfterEnd = false

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(let head):
      if head.headerFields[.connection]?.lowercased() == "close" { closeAfterEnd = true }
      context.write(data, promise: promise)
    case .body:
      context.write(data, promise: promise)
    case .end:
      guard closeAfterEnd else {
        context.write(data, promise: promise)
        return
      }
      closeAfterEnd = false
      context.writeAndFlush(data, promise: promise)
      context.close(promise: nil)
    }
  }
}
