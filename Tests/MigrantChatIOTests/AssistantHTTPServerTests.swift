import Foundation
import MigrantChatCore
import MigrantChatIO
import Synchronization
import TestSupport
import Testing

@Suite struct AssistantHTTPServerTests {
  final class NoReports: ReportSink {
    func record(itemID: Int64, description: String) throws -> Int { 1 }
  }

  func startServer(reports: any ReportSink = NoReports()) async throws -> AssistantHTTPServer {
    let store = try SQLiteContactStore.inMemory()
    let service = AssistantService(
      tree: SampleGuidance.tree(), contacts: store, guidanceStore: store, reports: reports,
      version: "test", stemmer: LightStemmer(), reportBurst: 1000)
    let server = try AssistantHTTPServer(
      service: service, host: "127.0.0.1", port: 0, maxBodyBytes: 1000)
    Task { try await server.run() }
    try await server.waitUntilListening()
    return server
  }

  /// Sends `request` on a fresh connection; returns the raw answer and the client's port.
  ///
  /// The blocking socket calls run on a Dispatch thread: on the concurrency pool they
  /// could starve the in-process server of the threads it needs to answer.
  func roundTrip(
    _ port: Int, _ request: String
  ) async throws -> (answer: String, clientPort: UInt16, socket: Int32) {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(with: Result { try Self.blockingRoundTrip(port, request) })
      }
    }
  }

  /// Sends `request` on a fresh connection; returns all the server sent until it closed.
  func exchange(_ port: Int, _ request: String) async throws -> String {
    try await Self.exchange(port, request)
  }

  static func exchange(_ port: Int, _ request: String) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(with: Result { try Self.blockingExchange(port, request) })
      }
    }
  }

  static func blockingExchange(_ port: Int, _ request: String) throws -> String {
    let descriptor = try connected(port)
    defer { close(descriptor) }
    // A guard only: the server closes the connection long before (on a loaded machine,
    // `make test-busy`, an answer once came later than the 30 s this was).
    var timeout = timeval(tv_sec: Int(hangGuard), tv_usec: 0)
    setsockopt(
      descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    _ = request.withCString { send(descriptor, $0, strlen($0), 0) }
    var buffer = [UInt8](repeating: 0, count: 65536)
    var answer = Data()
    while true {
      let count = recv(descriptor, &buffer, buffer.count, 0)
      if count <= 0 { break }
      answer.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: answer, as: UTF8.self)
  }

  static func connected(_ port: Int) throws -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(descriptor)
      throw CocoaError(.fileReadUnknown)
    }
    return descriptor
  }

  static func blockingRoundTrip(
    _ port: Int, _ request: String
  ) throws -> (answer: String, clientPort: UInt16, socket: Int32) {
    let descriptor = try connected(port)
    _ = request.withCString { send(descriptor, $0, strlen($0), 0) }
    var buffer = [UInt8](repeating: 0, count: 65536)
    var answer = Data()
    while !String(decoding: answer, as: UTF8.self).contains("\r\n\r\n{") || !answer.ends(with: "\n")
    {
      let count = recv(descriptor, &buffer, buffer.count, 0)
      if count <= 0 { break }
      answer.append(contentsOf: buffer[0..<count])
    }
    var local = sockaddr_in()
    var size = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &size) }
    }
    return (String(decoding: answer, as: UTF8.self), UInt16(bigEndian: local.sin_port), descriptor)
  }

  @Test func acceptedConnectionsSendWithoutNagleDelay() async throws {
    let server = try await startServer()
    defer { Task { await server.stop() } }
    let port = try #require(await server.port)
    let (answer, clientPort, client) = try await roundTrip(
      port, "GET /version HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n")
    defer { close(client) }
    #expect(answer.hasPrefix("HTTP/1.1 200"))
    // The server's end of this connection is one of this process's descriptors.
    var checked = false
    for descriptor in Int32(3)..<Int32(1024) where descriptor != client {
      var peer = sockaddr_in()
      var size = socklen_t(MemoryLayout<sockaddr_in>.size)
      let ok = withUnsafeMutablePointer(to: &peer) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &size) }
      }
      // Its own end is the server's port too: a socket of another test running at
      // the same time can have a peer at the same ephemeral port number (a client of
      // another server on that port), and failed this test once in CI.
      var own = sockaddr_in()
      var ownSize = socklen_t(MemoryLayout<sockaddr_in>.size)
      let named = withUnsafeMutablePointer(to: &own) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          getsockname(descriptor, $0, &ownSize)
        }
      }
      guard ok == 0, named == 0, UInt16(bigEndian: peer.sin_port) == clientPort,
        Int(UInt16(bigEndian: own.sin_port)) == port
      else { continue }
      var noDelay: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, &length)
      #expect(noDelay == 1)
      checked = true
    }
    #expect(checked, "the accepted socket was not found")
  }

  @Test func aBodyOverTheLimitIsRefusedWithAJSONError() async throws {
    let server = try await startServer()
    defer { Task { await server.stop() } }
    let port = try #require(await server.port)
    let body = String(repeating: "x", count: 2000)
    let (answer, _, client) = try await roundTrip(
      port,
      "POST /webhooks/rest/webhook HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    )
    close(client)
    #expect(answer.hasPrefix("HTTP/1.1 413"))
    #expect(answer.contains(#"{"error":"the request body is larger than 1000 bytes"}"#))
  }

  /// On loopback, a request addressed to another name (DNS rebinding) is refused.
  @Test func onLoopbackOnlyLocalNamesAreAnswered() {
    for allowed in [
      nil, "", "localhost", "localhost:5005", "127.0.0.1", "127.0.0.1:80", "127.1.2.3:9",
      "[::1]:5005", "LOCALHOST", "app.localhost:1",
    ] as [String?] {
      #expect(AssistantHTTPServer.loopbackHostAllowed(allowed), "\(allowed ?? "nil")")
    }
    for refused in [
      "evil.example", "evil.example:5005", "127.0.0.1.evil.example", "128.0.0.1", "[::2]:80",
      "localhost.evil.example", "127.0.0.256",
    ] {
      #expect(!AssistantHTTPServer.loopbackHostAllowed(refused), "\(refused)")
    }
  }

  @Test func badHostsAreRefused() {
    #expect(throws: AssistantHTTPServer.Failure.badHost("nope")) {
      try AssistantHTTPServer(
        service: AssistantService(
          tree: .empty, contacts: try SQLiteContactStore.inMemory(), guidanceStore: nil,
          reports: NoReports(), version: "t", stemmer: LightStemmer()),
        host: "nope", port: 0, maxBodyBytes: 10)
    }
  }
}

extension Data {
  fileprivate func ends(with text: String) -> Bool {
    String(decoding: self, as: UTF8.self).hasSuffix(text)
  }
}
