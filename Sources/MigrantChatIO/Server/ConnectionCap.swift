import NIOCore
import NIOHTTPTypes
import Synchronization

/// Open connections, shared by every connection's `ConnectionCap`.
final class ConnectionCounter: Sendable {
  let limit: Int
  let open = Atomic<Int>(0)

  init(limit: Int) { self.limit = limit }
}

/// Counts a connection while it is open; past the limit, answers 503 and closes it.
///
/// Refused at once, so a client that opens thousands never makes `accept` fail for
/// everyone (or the server end). A refused connection's requests are never read.
final class ConnectionCap: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart

  let counter: ConnectionCounter
  private var counted = false
  private var refused = false

  init(counter: ConnectionCounter) { self.counter = counter }

  func handlerAdded(context: ChannelHandlerContext) {
    let now = counter.open.wrappingAdd(1, ordering: .relaxed).newValue
    counted = true
    guard now > counter.limit else { return }
    refused = true
    HTTPRefusal.send(
      .serviceUnavailable, "too many connections; try again", retryAfter: 1, context: context)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    if counted { counter.open.wrappingSubtract(1, ordering: .relaxed) }
    counted = false
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !refused else { return }
    context.fireChannelRead(data)
  }
}
