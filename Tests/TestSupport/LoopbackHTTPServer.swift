import Foundation
import Synchronization

/// A request as the test server received it.
public struct RecordedRequest: Sendable {
  public var method: String
  public var target: String
  /// Header names lowercased.
  public var headers: [String: String]
  public var body: Data

  public var path: String { String(target.prefix { $0 != "?" }) }
  public var bodyJSON: [String: Any]? {
    (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
  }
}

/// What the test server does with a request.
public enum ScriptedResponse: Sendable {
  case http(status: Int, headers: [String: String] = [:], body: Data = Data())
  /// Waits, then answers (to test timeouts and cancellation).
  case delayed(seconds: Double, then: ResponseBox)
  /// Writes these bytes as they are, then closes the connection.
  case raw(Data)
  /// Closes the connection without answering.
  case close
  /// Resets the connection (TCP RST) without answering.
  case reset

  public static func json(_ text: String, status: Int = 200) -> ScriptedResponse {
    .http(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
  }

  public static func redirect(to location: String, status: Int = 302) -> ScriptedResponse {
    .http(status: status, headers: ["Location": location])
  }
}

/// Boxes a response so `ScriptedResponse` can nest one.
public final class ResponseBox: Sendable {
  public let response: ScriptedResponse
  public init(_ response: ScriptedResponse) { self.response = response }
}

/// A minimal HTTP/1.1 server on 127.0.0.1, a thread per connection, for tests.
///
/// It understands just enough HTTP for libcurl (Content-Length bodies,
/// keep-alive) and lets a test script every byte of the answer.
public final class LoopbackHTTPServer: Sendable {
  public let port: Int
  private let listener: Int32
  private let handler: @Sendable (RecordedRequest) -> ScriptedResponse
  private let recorded = Mutex<[RecordedRequest]>([])
  private let stopped = Atomic<Bool>(false)

  public var baseURL: String { "http://127.0.0.1:\(port)" }

  /// Every request received so far, in order.
  public var requests: [RecordedRequest] { recorded.withLock { $0 } }
  public init(handler: @escaping @Sendable (RecordedRequest) -> ScriptedResponse) throws {
    self.handler = handler
    let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socketFD >= 0 else { throw POSIXError(.EIO) }
    var yes: Int32 = 1
    setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(socketFD, 64) == 0 else {
      close(socketFD)
      throw POSIXError(.EADDRINUSE)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
    }
    port = Int(UInt16(bigEndian: address.sin_port))
    listener = socketFD
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  /// Stops accepting connections.
  public func stop() {
    // Once only: a second close could hit a descriptor number reused since.
    guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
    // shutdown wakes accept(); the accept thread closes the descriptor itself, so
    // it never calls accept() on a number that another socket has reused.
    shutdown(listener, Int32(SHUT_RDWR))
  }

  deinit { stop() }

  private func acceptLoop() {
    defer { close(listener) }
    while true {
      let connection = accept(listener, nil, nil)
      if connection < 0 {
        if errno == EINTR && !stopped.load(ordering: .acquiring) { continue }
        return
      }
      if stopped.load(ordering: .acquiring) {
        close(connection)
        return
      }
      let thread = Thread { [self] in serve(connection) }
      thread.start()
    }
  }

  private func serve(_ connection: Int32) {
    defer { close(connection) }
    var buffer = Data()
    while let request = readRequest(connection, &buffer) {
      recorded.withLock { $0.append(request) }
      if !respond(handler(request), on: connection) { return }
    }
  }

  /// Answers; false when the connection must be closed afterwards.
  private func respond(_ response: ScriptedResponse, on connection: Int32) -> Bool {
    switch response {
    case .http(let status, let headers, let body):
      var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
      var allHeaders = headers
      allHeaders["Content-Length"] = String(body.count)
      for (name, value) in allHeaders.sorted(by: { $0.key < $1.key }) {
        head += "\(name): \(value)\r\n"
      }
      head += "\r\n"
      return send(Data(head.utf8) + body, on: connection)
    case .delayed(let seconds, let box):
      Thread.sleep(forTimeInterval: seconds)
      return respond(box.response, on: connection)
    case .raw(let bytes):
      _ = send(bytes, on: connection)
      return false
    case .close:
      return false
    case .reset:
      // A zero linger time makes close() send RST instead of FIN.
      var linger = Foundation.linger(l_onoff: 1, l_linger: 0)
      setsockopt(
        connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Foundation.linger>.size))
      return false
    }
  }

  private func send(_ data: Data, on connection: Int32) -> Bool {
    var offset = 0
    while offset < data.count {
      let written = data.withUnsafeBytes { bytes -> Int in
        guard let base = bytes.baseAddress else { return 0 }
        return Foundation.send(
          connection, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
      }
      if written <= 0 { return false }
      offset += written
    }
    return true
  }

  private func readRequest(_ connection: Int32, _ buffer: inout Data) -> RecordedRequest? {
    let separator = Data("\r\n\r\n".utf8)
    while buffer.range(of: separator) == nil {
      guard receive(connection, into: &buffer) else { return nil }
    }
    guard let headEnd = buffer.range(of: separator) else { return nil }
    let head = String(decoding: buffer[buffer.startIndex..<headEnd.lowerBound], as: UTF8.self)
    var lines = head.components(separatedBy: "\r\n")
    let requestLine = lines.removeFirst().split(separator: " ")
    guard requestLine.count >= 2 else { return nil }
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    let length = Int(headers["content-length"] ?? "0") ?? 0
    var rest = Data(buffer[headEnd.upperBound...])
    while rest.count < length {
      guard receive(connection, into: &rest) else { return nil }
    }
    buffer = Data(rest.dropFirst(length))
    return RecordedRequest(
      method: String(requestLine[0]), target: String(requestLine[1]), headers: headers,
      body: Data(rest.prefix(length)))
  }

  private func receive(_ connection: Int32, into buffer: inout Data) -> Bool {
    var chunk = [UInt8](repeating: 0, count: 65536)
    let count = recv(connection, &chunk, chunk.count, 0)
    guard count > 0 else { return false }
    buffer.append(contentsOf: chunk[0..<count])
    return true
  }

  private static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 400: "Bad Request"
    case 404: "Not Found"
    case 429: "Too Many Requests"
    case 503: "Service Unavailable"
    case 500: "Internal Server Error"
    case 502: "Bad Gateway"
    default: "Status"
    }
  }
}

/// A port on 127.0.0.1 with nothing listening (bound, then released).
public func unusedLoopbackPort() -> Int {
  guard let server = try? LoopbackHTTPServer(handler: { _ in .close }) else { return 9 }
  let port = server.port
  server.stop()
  return port
}
