import FlyingFox
import FlyingSocks
import Foundation
import MigrantChatCore

/// `AssistantService` over HTTP with FlyingFox.
///
/// FlyingFox was chosen over Hummingbird for fit: it is pure Swift on
/// sockets with no SwiftNIO, so it adds seconds, not minutes, to a clean
/// build, and one root handler is all this needs. Request bodies over
/// `maxBodyBytes` get a 400 with a JSON error before they are read whole.
public final class AssistantHTTPServer: Sendable {
  public let service: AssistantService
  public let maxBodyBytes: Int
  private let server: HTTPServer

  public enum Failure: Error, Equatable {
    case badHost(String)
  }

  public init(
    service: AssistantService, host: String, port: UInt16, maxBodyBytes: Int
  ) throws(Failure) {
    self.service = service
    self.maxBodyBytes = maxBodyBytes
    let address: any SocketAddress
    do {
      switch host {
      case "localhost": address = try sockaddr_in.inet(ip4: "127.0.0.1", port: port)
      case let ip6 where ip6.contains(":"): address = try sockaddr_in6.inet6(ip6: ip6, port: port)
      default: address = try sockaddr_in.inet(ip4: host, port: port)
      }
    } catch {
      throw .badHost(host)
    }
    let config = HTTPServer.Configuration(address: address, timeout: 30, logger: .disabled)
    server = HTTPServer(
      config: config, handler: Handler(service: service, maxBodyBytes: maxBodyBytes))
  }

  /// Serves until `stop()`; throws when the address cannot be bound.
  public func run() async throws {
    try await server.run()
  }

  public func waitUntilListening() async throws {
    try await server.waitUntilListening(timeout: 10)
    if let port = await port { Self.disableNagle(listeningOn: port) }
  }

  /// Sets TCP_NODELAY on the listening socket; Linux hands it on to every accepted one.
  ///
  /// FlyingFox writes a response's header and body separately; with Nagle's
  /// algorithm the body waits for the client's delayed ACK, about 40 ms a
  /// request. FlyingFox has no hook for socket options, so the listening
  /// socket is found among this process's descriptors by its port.
  static func disableNagle(listeningOn port: Int) {
    for descriptor in Int32(3)..<Int32(1024) {
      var listening: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      guard getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0,
        listening == 1
      else { continue }
      var address = sockaddr_storage()
      var size = socklen_t(MemoryLayout<sockaddr_storage>.size)
      let found = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          getsockname(descriptor, $0, &size) == 0
        }
      }
      guard found else { continue }
      let bound: UInt16 =
        switch Int32(address.ss_family) {
        case AF_INET:
          withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
              UInt16(bigEndian: $0.pointee.sin_port)
            }
          }
        case AF_INET6:
          withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
              UInt16(bigEndian: $0.pointee.sin6_port)
            }
          }
        default: 0
        }
      guard Int(bound) == port else { continue }
      var on: Int32 = 1
      setsockopt(
        descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }
  }

  /// The port actually bound (useful with port 0).
  public var port: Int? {
    get async {
      switch await server.listeningAddress {
      case .ip4(_, let port)?: Int(port)
      case .ip6(_, let port)?: Int(port)
      default: nil
      }
    }
  }

  /// Why the server could not listen, for a translated message.
  public enum ListenFailure: Sendable, Hashable {
    case portInUse
    case permissionDenied
    /// Anything else: the library's text, quoted in a translated sentence.
    case other(String)

    public init(_ error: any Error) {
      if case .failed(_, let number, let message)? = error as? SocketError {
        switch number {
        case EADDRINUSE: self = .portInUse
        case EACCES, EPERM: self = .permissionDenied
        default: self = .other(message)
        }
      } else {
        self = .other(error.localizedDescription)
      }
    }
  }

  /// Stops within half a second of SIGTERM: requests in flight finish first (FlyingFox
  /// waits for each connection's current request), then the accept loop, which does not
  /// end on its own once its socket is closed, is cancelled after a short grace.
  public func stop() async {
    await server.stop(timeout: 0.2)
  }

  private struct Handler: HTTPHandler {
    let service: AssistantService
    let maxBodyBytes: Int

    func handleRequest(_ request: FlyingFox.HTTPRequest) async throws -> FlyingFox.HTTPResponse {
      let body: Data
      do {
        body = try await read(request.bodySequence)
      } catch {
        return response(
          .error(400, "the request body is larger than \(maxBodyBytes) bytes"))
      }
      let query = Dictionary(
        request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
      return response(
        await service.handle(
          method: request.method.rawValue, path: request.path, query: query, body: body))
    }

    private struct TooLarge: Error {}

    /// Reads the body, refusing it as soon as it passes the limit.
    private func read(_ sequence: HTTPBodySequence) async throws -> Data {
      if let count = sequence.count, count > maxBodyBytes { throw TooLarge() }
      var data = Data()
      for try await chunk in sequence {
        data.append(chunk)
        if data.count > maxBodyBytes { throw TooLarge() }
      }
      return data
    }

    private func response(_ answer: AssistantService.Response) -> FlyingFox.HTTPResponse {
      FlyingFox.HTTPResponse(
        statusCode: HTTPStatusCode(answer.status, phrase: Self.phrase(answer.status)),
        headers: [.contentType: answer.contentType], body: answer.body)
    }

    private static func phrase(_ status: Int) -> String {
      switch status {
      case 200: "OK"
      case 201: "Created"
      case 400: "Bad Request"
      case 404: "Not Found"
      case 405: "Method Not Allowed"
      default: "Internal Server Error"
      }
    }
  }
}
