import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Refuses a request whose request line or any header line is over `maxLineBytes`:
/// `400`, and the connection closed.
///
/// The parser's own limit counts a field's name and its value apart, so a line of
/// an 8,000-byte name and an 8,000-byte value got through; here a header line is
/// counted whole, as it was sent: name, `": "`, value.
final class HeaderLineLimit: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart

  let maxLineBytes: Int
  private var refused = false

  init(maxLineBytes: Int) { self.maxLineBytes = maxLineBytes }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !refused else { return }
    if case .head(let request) = unwrapInboundIn(data), !fits(request) {
      refused = true
      HTTPRefusal.send(
        .badRequest, "a request line or header line is longer than \(maxLineBytes) bytes",
        context: context)
      return
    }
    context.fireChannelRead(data)
  }

  private func fits(_ request: HTTPTypes.HTTPRequest) -> Bool {
    // "METHOD target HTTP/1.1"
    let requestLine =
      request.method.rawValue.utf8.count + (request.path?.utf8.count ?? 0) + " HTTP/1.1 ".count
    guard requestLine <= maxLineBytes else { return false }
    return request.headerFields.allSatisfy { field in
      field.name.rawName.utf8.count + 2 + field.value.utf8.count <= maxLineBytes
    }
  }
}
