import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request body is not complete within `deadline` of
/// its head: a body trickled a byte every few seconds would otherwise hold the
/// connection (and, by the thousand, the connection cap) for ever.
final class BodyDeadline: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart

  let deadline: TimeAmount
  private var scheduled: Scheduled<Void>?

  init(deadline: TimeAmount) { self.deadline = deadline }

  func handlerRemoved(context: ChannelHandlerContext) {
    scheduled?.cancel()
    scheduled = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head:
      scheduled?.cancel()
      let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
      scheduled = context.eventLoop.scheduleTask(in: deadline) { bound.value.close(promise: nil) }
    case .end:
      scheduled?.cancel()
      scheduled = nil
    case .body:
      break
    }
    context.fireChannelRead(data)
  }
}
