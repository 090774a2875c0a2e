import Foundation
import MigrantChatCore
import MigrantChatIO
import Synchronization
import TestSupport
import Testing

/// An Engine.IO v4 / Socket.IO v5 server by HTTP long-polling, in the test process: the
/// handshake, the namespace, Rasa's session, and a script for each user message.
final class FakeSocketIOServer: Sendable {
  struct State {
    /// What each Engine.IO session has queued, by its sid (`engine-N`).
    var outgoing: [String: [String]] = [:]
    var handshakes = 0
    /// The sids issued, the newest last.
    var sessions: [String] = []
    /// Polls (GETs) each session made, and the poll that last took packets.
    var polls: [String: Int] = [:]
    var deliveredBy: [String: Int] = [:]
    /// POSTs refused for being larger than `maxPayload` (HTTP 413, as python-engineio).
    var oversized = 0
    /// Engine.IO close packets the client sent (its goodbye).
    var closes = 0
    var userMessages: [JSONValue] = []
    var pongs = 0
    var connectAuth: [JSONValue?] = []
  }
  /// What the server sends for a user message with this acknowledgement id.
  typealias Script = @Sendable (_ message: JSONValue, _ ackID: Int?) -> [String]

  let core: Core
  let http: LoopbackHTTPServer

  /// `sidPrefix`: the sids issued are it and a number; `maxPayload`: said in the handshake
  /// and enforced; `packetsPerPoll`: at most so many queued packets go in one poll.
  init(
    refuse: Bool = false, sidPrefix: String = "engine-", maxPayload: Int? = nil,
    packetsPerPoll: Int = .max, script: @escaping Script
  ) throws {
    let core = Core(
      script: script, refuse: refuse, sidPrefix: sidPrefix, maxPayload: maxPayload,
      packetsPerPoll: packetsPerPoll)
    self.core = core
    http = try LoopbackHTTPServer { request in core.handle(request) }
  }

  var baseURL: String { http.baseURL }
  func withState<T>(_ body: (inout State) -> T) -> T { core.state.withLock { body(&$0) } }

  func send(_ packets: String...) {
    core.send(packets)
  }

  /// Waits until the client's poll took everything queued (and a little more, for it to
  /// be handled): what a test sends next comes after. For packets after which the
  /// client stops polling (a close); else `handled()` knows.
  func delivered() async throws {
    while withState({ $0.outgoing.values.contains { !$0.isEmpty } }) {
      try await Task.sleep(for: .milliseconds(10))
    }
    try await Task.sleep(for: .milliseconds(100))
  }

  /// Waits until the client has handled everything queued for the newest session: a
  /// poll took it, and the client polled again, which it does only once it has handled
  /// what the previous poll brought.
  func handled() async throws {
    while withState({ state in
      guard let sid = state.sessions.last else { return true }
      return state.outgoing[sid]?.isEmpty == false
        || (state.polls[sid] ?? 0) <= (state.deliveredBy[sid] ?? 0)
    }) {
      try await Task.sleep(for: .milliseconds(10))
    }
  }
}

extension FakeSocketIOServer {
  final class Core: Sendable {
    let state = Locked(State())
    let script: Script
    let refuse: Bool
    let sidPrefix: String
    let maxPayload: Int?
    let packetsPerPoll: Int

    init(
      script: @escaping Script, refuse: Bool, sidPrefix: String, maxPayload: Int?,
      packetsPerPoll: Int
    ) {
      self.script = script
      self.refuse = refuse
      self.sidPrefix = sidPrefix
      self.maxPayload = maxPayload
      self.packetsPerPoll = packetsPerPoll
    }

    /// Queues for the newest session.
    func send(_ packets: [String]) {
      state.withLock { state in
        guard let sid = state.sessions.last else { return }
        state.outgoing[sid, default: []] += packets
      }
    }

    func send(_ packets: String...) {
      send(packets)
    }

    func handle(_ request: RecordedRequest) -> ScriptedResponse {
      guard request.path == "/socket.io/" else { return .http(status: 404) }
      // The query as a server reads it: percent-decoded, `&` between parameters.
      let sid = URLComponents(string: request.target)?.queryItems?
        .first { $0.name == "sid" }?.value
      guard let sid else {
        let sid = state.withLock { state in
          state.handshakes += 1
          state.sessions.append(sidPrefix + String(state.handshakes))
          return sidPrefix + String(state.handshakes)
        }
        var handshake: [String: JSONValue] = [
          "sid": .string(sid), "upgrades": .array([]), "pingInterval": .number(25000),
          "pingTimeout": .number(20000),
        ]
        if let maxPayload { handshake["maxPayload"] = .number(Double(maxPayload)) }
        return text("0" + JSONValue.object(handshake).compactText)
      }
      guard state.withLock({ $0.sessions.contains(sid) }) else {
        return .json(#"{"code":1,"message":"Session ID unknown"}"#, status: 400)
      }
      if request.method == "POST" {
        if let maxPayload, request.body.count > maxPayload {
          state.withLock { $0.oversized += 1 }
          return .http(status: 413)
        }
        for packet in String(decoding: request.body, as: UTF8.self).split(separator: "\u{1E}") {
          receive(String(packet))
        }
        return text("ok")
      }
      // A long poll: what is queued, else a noop after a while.
      let poll = state.withLock { state in
        state.polls[sid, default: 0] += 1
        return state.polls[sid, default: 0]
      }
      for _ in 0..<200 {
        let queued = state.withLock { state -> [String] in
          let queued = Array((state.outgoing[sid] ?? []).prefix(packetsPerPoll))
          state.outgoing[sid]?.removeFirst(queued.count)
          if !queued.isEmpty { state.deliveredBy[sid] = poll }
          return queued
        }
        if !queued.isEmpty { return text(queued.joined(separator: "\u{1E}")) }
        usleep(10_000)
      }
      return text("6")
    }

    private func receive(_ packet: String) {
      if packet == "3" {
        state.withLock { $0.pongs += 1 }
        return
      }
      if packet == "1" {
        state.withLock { $0.closes += 1 }
        return
      }
      guard packet.hasPrefix("4"), let socket = SocketIOPacket.decode(String(packet.dropFirst()))
      else { return }
      switch socket.kind {
      case .connect:
        state.withLock { $0.connectAuth.append(socket.data) }
        send(refuse ? #"44{"message":"Not authorized"}"# : #"40{"sid":"socket-1"}"#)
      case .event:
        guard let (name, arguments) = socket.eventArguments else { return }
        let ack = socket.ackID.map { "43\($0)[]" }
        if name == "session_request" {
          send(#"42["session_confirm","x"]"#)
          if let ack { send(ack) }
        } else if name == "user_uttered" {
          let message = arguments.first ?? .null
          state.withLock { $0.userMessages.append(message) }
          send(script(message, socket.ackID))
        }
      default: break
      }
    }

    private func text(_ body: String) -> ScriptedResponse {
      .http(status: 200, headers: ["Content-Type": "text/plain"], body: Data(body.utf8))
    }
  }
}

@Suite struct SocketIOChatTransportTests {
  func transport(
    _ server: FakeSocketIOServer, settle: Double = 0.3, timeout: Double = 30, token: String? = nil
  ) throws -> SocketIOChatTransport {
    SocketIOChatTransport(
      endpoint: try ServerEndpoint(baseURL: server.baseURL),
      settings: SocketIOSettings(settleSeconds: settle), options: HTTPOptions(timeout: timeout),
      token: token)
  }

  let request = ChatRequest(sender: "s-1", message: "/health", language: .uk)

  static func bot(_ payload: String) -> String { #"42["bot_uttered","# + payload + "]" }

  @Test func aMessageGoesAsRasaReadsItAndTheAnswerDecodes() async throws {
    let server = try FakeSocketIOServer { _, ack in
      [
        Self.bot(#"{"text":"Choose","quick_replies":[{"title":"Housing","payload":"/housing"}]}"#),
        Self.bot(#"{"contacts":[138512]}"#), "43\(ack ?? -1)[]",
      ]
    }
    let reply = try await transport(server, token: "jwt-1").send(request)
    #expect(reply.messages.map(\.text) == ["Choose", nil])
    #expect(reply.messages[0].buttons == [Button(title: "Housing", payload: "/housing")])
    #expect(reply.messages[1].contactIDs == ["138512"])
    #expect(reply.conversationID == "socket-1")
    #expect(reply.notes.isEmpty)
    let sent = try #require(server.withState { $0.userMessages.first })
    #expect(sent["message"] == .string("/health"))
    #expect(sent["session_id"] == .string("s-1"))
    #expect(sent["metadata"]?["language"] == .string("uk"))
    #expect(server.withState { $0.connectAuth } == [.object(["token": .string("jwt-1")])])
  }

  @Test func aMessageAfterTheAcknowledgementIsLateAndComesWithTheNextAnswer() async throws {
    let server = try FakeSocketIOServer { message, ack in
      message["message"] == .string("first")
        ? [Self.bot(#"{"text":"one"}"#), "43\(ack ?? -1)[]"]
        : [Self.bot(#"{"text":"three"}"#), "43\(ack ?? -1)[]"]
    }
    // The settle time is long: only the acknowledgement can end the first answer early
    // enough for the second message to be outside it.
    let socket = try transport(server, settle: 3)
    let first = try await socket.send(ChatRequest(sender: "s", message: "first", language: .en))
    server.send(Self.bot(#"{"text":"two"}"#))
    try await server.handled()
    let second = try await socket.send(ChatRequest(sender: "s", message: "second", language: .en))
    #expect(first.messages.map(\.text) == ["one"])
    #expect(second.late.map(\.text) == ["two"])
    #expect(second.messages.map(\.text) == ["three"])
  }

  @Test func anAcknowledgementBeforeTheMessagesWaitsForThem() async throws {
    // A server that answers from a background task: the acknowledgement first, the
    // message in the poll after it (one packet a poll), with no wait of the test's own
    // between them, so that nothing but the client's next poll separates the two.
    let server = try FakeSocketIOServer(packetsPerPoll: 1) { _, ack in
      ["43\(ack ?? -1)[]", Self.bot(#"{"text":"from a background task"}"#)]
    }
    // The settle is the quiet the answer may have after the acknowledgement: long
    // enough that a loaded machine's late poll still falls within it (the test takes
    // this long, in parallel with the others).
    let socket = try transport(server, settle: 15)
    let reply = try await socket.send(request)
    #expect(reply.messages.map(\.text) == ["from a background task"])
    #expect(reply.notes.isEmpty)
  }

  @Test func anEmptyAnswerEndsAtTheAcknowledgementOnceTheServerAcknowledgesLast() async throws {
    let server = try FakeSocketIOServer { message, ack in
      message["message"] == .string("/restart")
        ? ["43\(ack ?? -1)[]"] : [Self.bot(#"{"text":"hi"}"#), "43\(ack ?? -1)[]"]
    }
    let socket = try transport(server, settle: 60, timeout: 30)
    _ = try await socket.send(ChatRequest(sender: "s", message: "hello", language: .en))
    let restart = Task {
      try await socket.send(ChatRequest(sender: "s", message: "/restart", language: .en))
    }
    while server.withState({ $0.userMessages.count < 2 }) {
      try await Task.sleep(for: .milliseconds(10))
    }
    try await server.handled()
    // Sent after the acknowledgement was taken: past the empty answer, never part of it.
    server.send(Self.bot(#"{"text":"a reminder"}"#))
    let reply = try await restart.value
    #expect(reply.messages.isEmpty)
    #expect(reply.notes.isEmpty)
    try await server.handled()
    let next = try await socket.send(ChatRequest(sender: "s", message: "hello", language: .en))
    #expect(next.late.map(\.text) == ["a reminder"])
  }

  @Test func lateMessagesOutliveAFailedTurn() async throws {
    let server = try FakeSocketIOServer { message, ack in
      message["message"] == .string("lost")
        ? [] : [Self.bot(#"{"text":"hi"}"#), "43\(ack ?? -1)[]"]
    }
    let socket = try transport(server, settle: 0.3, timeout: 3)
    _ = try await socket.send(ChatRequest(sender: "s", message: "hello", language: .en))
    server.send(Self.bot(#"{"text":"a reminder"}"#))
    try await server.handled()
    await #expect(throws: ChatError.timedOut(server: server.baseURL, seconds: 3)) {
      try await socket.send(ChatRequest(sender: "s", message: "lost", language: .en))
    }
    let next = try await socket.send(ChatRequest(sender: "s", message: "hello", language: .en))
    #expect(next.late.map(\.text) == ["a reminder"])
  }

  @Test func acknowledgedAndSilentFromTheStartIsNoted() async throws {
    let server = try FakeSocketIOServer { _, ack in ["43\(ack ?? -1)[]"] }
    let reply = try await transport(server).send(request)
    #expect(reply.messages.isEmpty)
    #expect(reply.notes == [.silentSession])
  }

  @Test func nothingAtAllIsTheSilentSessionError() async throws {
    let server = try FakeSocketIOServer { _, _ in [] }
    await #expect(throws: ChatError.socketSilent(server: server.baseURL, seconds: 3)) {
      try await transport(server, timeout: 3).send(request)
    }
  }

  @Test func aRefusedConnectionSaysSo() async throws {
    let server = try FakeSocketIOServer(refuse: true) { _, _ in [] }
    await #expect(
      throws: ChatError.socketRefused(
        server: server.baseURL, detail: "Not authorized", tokenSent: false)
    ) {
      try await transport(server).send(request)
    }
  }

  @Test func noSocketIOAtThePath() async throws {
    let server = try LoopbackHTTPServer { _ in .http(status: 404, body: Data("no such page".utf8)) }
    let socket = SocketIOChatTransport(
      endpoint: try ServerEndpoint(baseURL: server.baseURL), settings: SocketIOSettings(),
      options: HTTPOptions(timeout: 5), token: nil)
    await #expect(
      throws: ChatError.notSocketIO(
        server: server.baseURL, path: "/socket.io", detail: "HTTP 404: no such page")
    ) {
      try await socket.send(request)
    }
    let notEngine = try LoopbackHTTPServer { _ in .json("[]") }
    let other = SocketIOChatTransport(
      endpoint: try ServerEndpoint(baseURL: notEngine.baseURL), settings: SocketIOSettings(),
      options: HTTPOptions(timeout: 5), token: nil)
    await #expect(
      throws: ChatError.notSocketIO(server: notEngine.baseURL, path: "/socket.io", detail: "[]")
    ) {
      try await other.send(request)
    }
  }

  @Test func pingsAreAnswered() async throws {
    let server = try FakeSocketIOServer { _, ack in
      [Self.bot(#"{"text":"hi"}"#), "43\(ack ?? -1)[]"]
    }
    let socket = try transport(server)
    _ = try await socket.send(request)
    server.send("2")
    for _ in 0..<100 where server.withState({ $0.pongs }) == 0 {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(server.withState { $0.pongs } == 1)
  }

  @Test func aClosedConnectionIsOpenedAgainWithANote() async throws {
    let server = try FakeSocketIOServer { _, ack in
      [Self.bot(#"{"text":"hi"}"#), "43\(ack ?? -1)[]"]
    }
    let socket = try transport(server)
    _ = try await socket.send(request)
    server.send("1")  // Engine.IO close
    try await server.delivered()
    let reply = try await socket.send(request)
    #expect(reply.notes == [.reconnected])
    #expect(reply.messages.map(\.text) == ["hi"])
    #expect(server.withState { $0.handshakes } == 2)
    // A new sender (`/new`) is a new connection, without the note.
    let other = try await socket.send(ChatRequest(sender: "s-2", message: "x", language: .en))
    #expect(other.notes.isEmpty)
    #expect(server.withState { $0.handshakes } == 3)
  }

  @Test func cancellingTheTurnStopsWaiting() async throws {
    let server = try FakeSocketIOServer { _, _ in [] }
    let socket = try transport(server, timeout: 60)
    let task = Task { try await socket.send(request) }
    try await Task.sleep(for: .milliseconds(300))
    task.cancel()
    await #expect(throws: ChatError.cancelled) { try await task.value }
  }
}
