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
          additionalChannelHandlers: Self.connectionHandlers(counter: counter),
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

  // MARK: - Connections

  /// A request's body must arrive, and an answer be taken by the client, within this:
  /// a body trickled a byte every few seconds, or answers never read, would otherwise
  /// hold a connection (and, by the thousand, the cap) for ever.
  public static let transferDeadline = TimeAmount.seconds(30)

  /// Each connection's handlers, between the HTTP parser and Hummingbird, each with
  /// one job. Inbound in this order: the cap first (a refused connection reads
  /// nothing), then one request at a time, then the checks on a request's head.
  static func connectionHandlers(
    counter: ConnectionCounter
  ) -> [any RemovableChannelHandler] {
    [
      ConnectionCap(counter: counter), PipelineGate(),
      HeaderLineLimit(maxLineBytes: maxLineBytes), BodyDeadline(deadline: transferDeadline),
      AnswerDeadline(deadline: transferDeadline), CloseAfterAnswer(),
    ]
  }
}
