import NIOCore
import NIOHTTPTypes

/// Closes a connection whose answer is not taken by the client within `deadline`
/// of its last part: answers never read would otherwise hold the connection (and
/// its buffers) for ever.
final class AnswerDeadline: ChannelOutboundHandler, RemovableChannelHandler, @unchecked Sendable {
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  let deadline: TimeAmount

  init(deadline: TimeAmount) { self.deadline = deadline }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    guard case .end = unwrapOutboundIn(data) else {
      context.write(data, promise: promise)
      return
    }
    let written = promise ?? context.eventLoop.makePromise()
    let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
    let scheduled = context.eventLoop.scheduleTask(in: deadline) { bound.value.close(promise: nil) }
    written.futureResult.whenComplete { _ in scheduled.cancel() }
    context.write(data, promise: written)
  }
}
