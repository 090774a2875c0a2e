import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import MigrantChatCore
import NIOCore
import NIOHTTPTypes
import ServiceLifecycle
import Synchronization

/// `AssistantService` over HTTP with Hummingbird 2 on SwiftNIO.
///
/// `serve` faces whatever the network sends (it may listen on `0.0.0.0`), so it
/// runs on the field's hardened HTTP/1 stack rather than a small one (issue #32;
/// BENCHMARKS.md compares the two): llhttp's strict framing refuses duplicate or
/// signed `Content-Length`, obs-fold, a space before the colon, bare LF or CR,
/// `Transfer-Encoding` with `Content-Length` (400, connection closed), and these
/// limits hold:
/// - a request line and each header line at most 8 KiB, 64 KiB of headers, 100 fields;
/// - bodies over `maxBodyBytes`: 413, and the connection is closed;
/// - 10 s without a request part (headers sent a byte at a time): the connection closes;
/// - a body not complete, or an answer not taken, within 30 s: the connection closes;
/// - at most `maxConnections` open connections: past that a 503, and closed;
/// - `accept` failing (out of file descriptors) backs off and goes on (NIO).
public final class AssistantHTTPServer: Sendable {
  public let service: AssistantService
  public let maxBodyBytes: Int
  public let maxConnections: Int
  private let group: ServiceGroup
  private let listening = Listening()

  public enum Failure: Error, Equatable {
    case badHost(String)
  }

  /// A request line or header line, headers in all, header fields.
  public static let maxLineBytes = 8 * 1024
  public static let maxHeaderBytes = 64 * 1024
  public static let maxHeaderFields = 100
  /// Without a request part for this long, a connection is closed (a header read
  /// timeout as well as a keep-alive one).
  public static let idleTimeout = TimeAmount.seconds(10)

  public init(
    service: AssistantService, host: String, port: UInt16, maxBodyBytes: Int,
    maxConnections: Int = 1000
  ) throws(Failure) {
    self.service = service
    self.maxBodyBytes = maxBodyBytes
    self.maxConnections = maxConnections
    let address = host == "localhost" ? "127.0.0.1" : host
    // Hummingbird binds a name too; only addresses are taken, as before.
    guard (try? SocketAddress(ipAddress: address, port: Int(port))) != nil else {
      throw .badHost(host)
    }
    var logger = Logger(label: "migrant-chat.serve")
    logger.logLevel = .critical
    let counter = ConnectionCounter(limit: maxConnections)
    let responder = Responder(
      service: service, maxBodyBytes: maxBodyBytes,
      loopbackOnly: Self.isLoopback(address))
    let application = Application(
      responder: responder,
      server: .http1(
        configuration: .init(
          additionalChannelHandlers: [ConnectionLimit(counter: counter), CloseAfterResponse()],
          idleTimeout: Self.idleTimeout,
          httpDecoderConfiguration: .init(
            maxHeaderFieldSize: Self.maxLineBytes, maxHeaderListSize: Self.maxHeaderBytes,
            maxHeaderFieldCount: Self.maxHeaderFields))),
      configuration: .init(address: .hostname(address, port: Int(port)), serverName: nil),
      onServerRunning: { [listening] channel in
        listening.started(port: channel.localAddress?.port)
      },
      logger: logger)
    var configuration = ServiceGroupConfiguration(
      services: [application], gracefulShutdownSignals: [], cancellationSignals: [],
      logger: logger)
    // SIGTERM ends it within half a second: idle connections close at once, a request
    // in flight has 0.3 s to finish.
    configuration.maximumGracefulShutdownDuration = Duration.milliseconds(300)
    configuration.maximumCancellationDuration = Duration.milliseconds(150)
    group = ServiceGroup(configuration: configuration)
  }

  /// Serves until `stop()`; throws when the address cannot be bound.
  public func run() async throws {
    try await group.run()
  }

  /// Returns once the server listens (or never, if it cannot: `run()` throws then).
  public func waitUntilListening() async throws {
    await listening.wait()
  }

  /// The port actually bound (useful with port 0).
  public var port: Int? {
    get async { listening.port }
  }

  /// The bound port, and those waiting for it.
  private final class Listening: Sendable {
    private let state = Mutex<(port: Int?, waiting: [CheckedContinuation<Void, Never>])>((nil, []))

    var port: Int? { state.withLock { $0.port } }

    func started(port: Int?) {
      let waiting = state.withLock { state in
        state.port = port ?? 0
        defer { state.waiting.removeAll() }
        return state.waiting
      }
      for continuation in waiting { continuation.resume() }
    }

    func wait() async {
      await withCheckedContinuation { continuation in
        let ready = state.withLock { state in
          if state.port != nil { return true }
          state.waiting.append(continuation)
          return false
        }
        if ready { continuation.resume() }
      }
    }
  }

  /// Stops within half a second of SIGTERM.
  public func stop() async {
    await group.triggerGracefulShutdown()
  }

  /// Why the server could not listen, for a translated message.
  public enum ListenFailure: Sendable, Hashable {
    case portInUse
    case permissionDenied
    /// Anything else: the library's text, quoted in a translated sentence.
    case other(String)

    public init(_ error: any Error) {
      if let io = error as? IOError {
        switch io.errnoCode {
        case EADDRINUSE: self = .portInUse
        case EACCES, EPERM: self = .permissionDenied
        default: self = .other(String(cString: strerror(io.errnoCode)))
        }
      } else {
        self = .other("\(error)")
      }
    }
  }

  // MARK: - Request handling

  /// Whether the server listens on loopback only (the default).
  static func isLoopback(_ address: String) -> Bool {
    address.hasPrefix("127.") || address == "::1"
  }

  /// On loopback, the names a request may be addressed to: a web page that rebinds
  /// its own domain to 127.0.0.1 (DNS rebinding) sends that domain as `Host`, and
  /// would otherwise read the tables and post reports as if it were the developer.
  /// No `Host` (HTTP/1.0) is let through.
  public static func loopbackHostAllowed(_ authority: String?) -> Bool {
    guard var host = authority?.lowercased(), !host.isEmpty else { return true }
    if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
      host = String(host[host.index(after: host.startIndex)..<close])
    } else if let colon = host.lastIndex(of: ":") {
      host = String(host[..<colon])
    }
    if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
  }

  /// Every request, whatever its method or path, goes to `AssistantService`.
  private struct Responder: HTTPResponder {
    typealias Context = ServeContext
    let service: AssistantService
    let maxBodyBytes: Int
    let loopbackOnly: Bool

    func respond(to request: Request, context: ServeContext) async throws -> Response {
      let (answer, close) = await self.answer(request, context: context)
      // Any request already read behind one that closes the connection (in the same
      // packet) is not run: it is what a smuggled request looks like.
      if close {
        let channel = context.channel
        Closing.shared.insert(channel)
        // Taken off when the connection is gone, even if it went before the mark was
        // put on (a client reset mid-body): a stale mark would refuse whichever new
        // connection got the old one's address.
        channel.closeFuture.whenComplete { _ in Closing.shared.remove(channel) }
      }
      return Self.response(answer, close: close)
    }

    private func answer(_ request: Request, context: ServeContext) async -> (
      AssistantService.Response, close: Bool
    ) {
      // A request read behind one that closed the connection is not run. The mark is
      // taken off when the connection's handlers go, which can be before Hummingbird
      // takes such a request from what it had already read: a connection no longer
      // active is closing too (a hidden report was stored that way, now and then). The
      // mark is read first, `isActive` second: the close clears `isActive` before the
      // handlers (and so the mark) go, so one of the two is always seen.
      if Closing.shared.contains(context.channel) || !context.channel.isActive {
        return (.error(400, "the connection is closing"), true)
      }
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

  /// Connections answered with `Connection: close`, until they are gone.
  final class Closing: Sendable {
    static let shared = Closing()
    private let channels = Mutex<Set<ObjectIdentifier>>([])

    func insert(_ channel: any Channel) { channels.withLock { _ = $0.insert(Self.key(channel)) } }
    func contains(_ channel: any Channel) -> Bool {
      channels.withLock { $0.contains(Self.key(channel)) }
    }
    func remove(_ channel: any Channel) { channels.withLock { _ = $0.remove(Self.key(channel)) } }
    private static func key(_ channel: any Channel) -> ObjectIdentifier {
      ObjectIdentifier(channel as AnyObject)
    }
  }

  /// The request context: Hummingbird's, and the client's address (for rate limits).
  struct ServeContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
      coreContext = .init(source: source)
      remoteAddress = source.channel.remoteAddress
      channel = source.channel
    }
  }

  // MARK: - Connections

  /// Open connections, shared by every connection's `ConnectionLimit`.
  final class ConnectionCounter: Sendable {
    let limit: Int
    let open = Atomic<Int>(0)

    init(limit: Int) { self.limit = limit }
  }

  /// A request's body must arrive, and an answer be taken by the client, within this:
  /// a body trickled a byte every few seconds, or answers never read, would otherwise
  /// hold a connection (and, by the thousand, the cap) for ever.
  public static let transferDeadline = TimeAmount.seconds(30)

  /// Each connection's guard. Past the cap, a connection is answered 503 and closed at
  /// once, so a client that opens thousands never makes `accept` fail for everyone (or
  /// the server end). A request whose body is not complete within `transferDeadline`
  /// of its head, or an answer not taken within it, closes the connection.
  final class ConnectionLimit: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let counter: ConnectionCounter
    private var counted = false
    private var refused = false
    private var requestDeadline: Scheduled<Void>?

    init(counter: ConnectionCounter) { self.counter = counter }

    func handlerAdded(context: ChannelHandlerContext) {
      let now = counter.open.wrappingAdd(1, ordering: .relaxed).newValue
      counted = true
      guard now > counter.limit else { return }
      refused = true
      var head = HTTPTypes.HTTPResponse(status: .serviceUnavailable)
      head.headerFields[.contentType] = "application/json"
      head.headerFields[.connection] = "close"
      head.headerFields[.retryAfter] = "1"
      let body = Data(#"{"error":"too many connections; try again"}"#.utf8 + [10])
      head.headerFields[.contentLength] = String(body.count)
      context.write(wrapOutboundOut(.head(head)), promise: nil)
      context.write(wrapOutboundOut(.body(ByteBuffer(bytes: body))), promise: nil)
      context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
        context.close(promise: nil)
      }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
      requestDeadline?.cancel()
      if counted { counter.open.wrappingSubtract(1, ordering: .relaxed) }
      counted = false
      Closing.shared.remove(context.channel)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      // A refused connection's request is never handled.
      guard !refused else { return }
      switch unwrapInboundIn(data) {
      case .head:
        requestDeadline?.cancel()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        requestDeadline = context.eventLoop.scheduleTask(in: AssistantHTTPServer.transferDeadline) {
          bound.value.close(promise: nil)
        }
      case .end:
        requestDeadline?.cancel()
        requestDeadline = nil
      case .body:
        break
      }
      context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
      guard case .end = unwrapOutboundIn(data) else {
        context.write(data, promise: promise)
        return
      }
      // The answer's last part: written (taken by the client) within the deadline.
      let written = promise ?? context.eventLoop.makePromise()
      let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
      let deadline = context.eventLoop.scheduleTask(in: AssistantHTTPServer.transferDeadline) {
        bound.value.close(promise: nil)
      }
      written.futureResult.whenComplete { _ in deadline.cancel() }
      context.write(data, promise: written)
    }
  }

  /// Hummingbird closes a connection only when the request asked for it; an answer
  /// that says `Connection: close` (a body too large) closes it too, once written.
  final class CloseAfterResponse: ChannelOutboundHandler, RemovableChannelHandler,
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
}
