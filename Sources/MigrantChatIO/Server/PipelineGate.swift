import NIOCore
import NIOHTTPTypes

/// Lets a connection's requests in one at a time, and none after an answer that
/// closes the connection.
///
/// A client may send several requests in one packet (pipelining); the parser reads
/// them all at once. The next one is held here until the answer to the one before is
/// written. If that answer says `Connection: close` (a body too large, framing that
/// smuggling is made of, a wrong `Host`), the connection is closing: what was held,
/// and anything read after it, is dropped and never run. The mark is this handler's
/// own and is read and set on the connection's event loop only, so it cannot race
/// with the connection's end (as a process-wide set of closing connections did).
final class PipelineGate: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  /// Parts read but not yet let in: the next request, held while one is answered.
  private var held = CircularBuffer<NIOAny>()
  /// A request was let in and its answer is not yet written.
  private var answering = false
  /// The request let in is still arriving (its end not yet read).
  private var requestOpen = false
  /// Its answer was written before its end was read.
  private var answeredEarly = false
  /// The answer being written says `Connection: close`.
  private var answerCloses = false
  /// An answer said `Connection: close`: nothing more is let in.
  private(set) var closing = false
  /// A read asked for while requests were held; passed on once they are let in.
  private var readDeferred = false

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !closing else { return }
    held.append(data)
    _ = letIn(context: context)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    held.removeAll()
  }

  func read(context: ChannelHandlerContext) {
    // Held requests are enough to go on with: reading more only fills the buffer.
    if held.isEmpty {
      context.read()
    } else {
      readDeferred = true
    }
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(let head):
      answerCloses = head.headerFields[.connection]?.lowercased() == "close"
    case .body:
      break
    case .end:
      answered(context: context)
    }
    context.write(data, promise: promise)
  }

  /// The answer's last part is being written.
  private func answered(context: ChannelHandlerContext) {
    if answerCloses {
      closing = true
      held.removeAll()
      return
    }
    if requestOpen {
      answeredEarly = true
    } else {
      answering = false
      // After the write that ends this answer, not inside it; what is let in then is a
      // read of its own, so it is completed as one.
      context.eventLoop.assumeIsolated().execute { [self] in
        if letIn(context: context) { context.fireChannelReadComplete() }
      }
    }
  }

  /// Passes held parts on while no other request is being answered; true if any was.
  private func letIn(context: ChannelHandlerContext) -> Bool {
    var passed = false
    defer {
      if held.isEmpty, readDeferred, !closing {
        readDeferred = false
        context.read()
      }
    }
    while !closing, let part = held.first {
      let request = unwrapInboundIn(part)
      if case .head = request, answering { return passed }
      held.removeFirst()
      switch request {
      case .head:
        answering = true
        requestOpen = true
      case .body:
        break
      case .end:
        requestOpen = false
        if answeredEarly {
          answeredEarly = false
          answering = false
        }
      }
      context.fireChannelRead(part)
      passed = true
    }
    return passed
  }
}
