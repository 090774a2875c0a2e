import Foundation
import MigrantChatCore
import MigrantChatIO
import TestSupport
import Testing

/// What a socket.io server may not make the client do: read on without end, post what
/// the server cannot take, mix conversations, or lose its session to an odd id.
@Suite struct SocketIOChatTransportLimitTests {
  static let cap = 100_000
  let request = ChatRequest(sender: "s-1", message: "/health", language: .uk)

  func transport(_ server: FakeSocketIOServer, settle: Double = 0.3) throws
    -> SocketIOChatTransport
  {
    SocketIOChatTransport(
      endpoint: try ServerEndpoint(baseURL: server.baseURL),
      settings: SocketIOSettings(settleSeconds: settle),
      options: HTTPOptions(timeout: 60, maxBodyBytes: Self.cap), token: nil)
  }

  static func bot(_ text: String) -> String {
    SocketIOChatTransportTests.bot(JSONValue.object(["text": .string(text)]).compactText)
  }

  /// About 30 KB: four of them are past the cap, three are not.
  static func big(_ label: String) -> String {
    bot(label + String(repeating: "x", count: 30_000))
  }

  @Test func anAnswerPastTheCapFailsAsOverRESTAndTheRestIsNotRead() async throws {
    // One message a poll, never acknowledged, with a settle time longer than the test:
    // only the cap can end this answer.
    let server = try FakeSocketIOServer(packetsPerPoll: 1) { _, _ in
      (1...12).map { Self.big("part \($0) ") }
    }
    let socket = try transport(server, settle: 50)
    await #expect(throws: ChatError.bodyTooLarge(server: server.baseURL, limitBytes: Self.cap)) {
      try await socket.send(request)
    }
    // Given up at the fourth message: the server still holds most of its flood.
    #expect(server.withState { $0.outgoing.values.map(\.count).reduce(0, +) } >= 6)
    // And told: its goodbye closes the session on the server.
    for _ in 0..<1000 where server.withState({ $0.closes }) == 0 {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(server.withState { $0.closes } == 1)
  }

  @Test func onePollPastTheCapFailsAsOverREST() async throws {
    let server = try FakeSocketIOServer { _, _ in (1...4).map { Self.big("part \($0) ") } }
    await #expect(throws: ChatError.bodyTooLarge(server: server.baseURL, limitBytes: Self.cap)) {
      try await transport(server).send(request)
    }
  }

  @Test func lateMessagesAreKeptWithinTheCapTheNewestFirst() async throws {
    let server = try FakeSocketIOServer(packetsPerPoll: 1) { _, ack in
      [Self.bot("hi"), "43\(ack ?? -1)[]"]
    }
    let socket = try transport(server)
    _ = try await socket.send(request)
    server.core.send((1...5).map { Self.big("late \($0) ") })
    try await server.handled()
    let reply = try await socket.send(request)
    #expect(reply.late.compactMap { $0.text?.prefix(6) } == ["late 3", "late 4", "late 5"])
    #expect(reply.messages.map(\.text) == ["hi"])
  }

  @Test func aSessionIDWithURLCharactersReachesTheServerAsIssued() async throws {
    let server = try FakeSocketIOServer(sidPrefix: "a&b=c#d/e+f%") { _, ack in
      [Self.bot("hi"), "43\(ack ?? -1)[]"]
    }
    let reply = try await transport(server).send(request)
    #expect(reply.messages.map(\.text) == ["hi"])
    #expect(server.http.requests.contains { $0.target.hasSuffix("&sid=a%26b%3Dc%23d%2Fe%2Bf%251") })
  }

  @Test func aMessageLargerThanTheServersMaxPayloadIsNotSent() async throws {
    let server = try FakeSocketIOServer(maxPayload: 500) { _, ack in
      [Self.bot("ok"), "43\(ack ?? -1)[]"]
    }
    let socket = try transport(server)
    let long = ChatRequest(
      sender: "s-1", message: String(repeating: "я", count: 300), language: .uk)
    do {
      _ = try await socket.send(long)
      Issue.record("a message over maxPayload was sent")
    } catch {
      guard case .socketMessageTooLarge(let at, let limit, let size) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(at == server.baseURL && limit == 500 && size > 600)
    }
    #expect(server.withState { $0.userMessages.isEmpty && $0.oversized == 0 })
    // The connection stays: a shorter message goes on it.
    let reply = try await socket.send(request)
    #expect(reply.messages.map(\.text) == ["ok"])
    #expect(server.withState { $0.handshakes } == 1)
  }

  @Test func lateMessagesOfAConversationLeftWithNewAreNotTheNewOnes() async throws {
    let server = try FakeSocketIOServer { message, ack in
      [Self.bot("to " + (message["session_id"]?.stringValue ?? "?")), "43\(ack ?? -1)[]"]
    }
    let socket = try transport(server, settle: 3)
    _ = try await socket.send(ChatRequest(sender: "old", message: "hello", language: .en))
    server.send(Self.bot("late, to old"))
    try await server.handled()
    let new = try await socket.send(ChatRequest(sender: "new", message: "hello", language: .en))
    #expect(new.late.isEmpty)
    #expect(new.messages.map(\.text) == ["to new"])
    #expect(new.notes.isEmpty)
    let next = try await socket.send(ChatRequest(sender: "new", message: "again", language: .en))
    #expect(next.late.isEmpty)
  }
}
