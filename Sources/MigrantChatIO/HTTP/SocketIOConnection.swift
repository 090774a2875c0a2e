import Foundation
import MigrantChatCore
import Synchronization

/// One Engine.IO session: the handshake, the namespace, Rasa's session, then turns.
/// A background poll holds one GET open at a time; pings are answered from it.
///
/// What the server sends is bounded as a REST answer is: one poll's body, one answer's
/// messages and the late ones each by `HTTPOptions.maxBodyBytes`. Past the answer's cap
/// the connection is given up (as curl drops a REST body past it), so a server that
/// never stops talking is not read on. What is posted stays within the server's
/// `maxPayload`.
actor SocketIOConnection {
  nonisolated let sender: String
  private let endpoint: ServerEndpoint
  private let settings: SocketIOSettings
  private let options: HTTPOptions
  private let token: String?
  private let client: CurlHTTPClient
  private var pollClient: CurlHTTPClient?
  private var sid = ""
  /// The most bytes the server takes in one POST, from the handshake.
  private var maxPayload = 1_000_000
  private let started = ContinuousClock.now
  private var nextAckID = 0
  /// Set once the poll ended (the server closed, an error): no more turns here.
  private let closed = Atomic<Bool>(false)
  private let pollTask = Mutex<Task<Void, Never>?>(nil)
  /// The answer being collected, and the acknowledgement id it waits for.
  private var answer: SocketIOAnswer?
  private var answerAckID: Int?
  /// Bot messages outside any answer: the next answer's `late`.
  private var late = SocketIOMessages()
  /// Why the connection was given up, when that is what a turn must say (an answer
  /// past the cap), rather than that it closed.
  private var failure: ChatError?
  private var everAnswered = false
  /// Names of events that were neither the bot's messages nor the session's.
  private var otherEvents: [String] = []
  /// An answer here ended at its acknowledgement, after its messages (Rasa does).
  private var acknowledgesLast = false
  /// The connect step's outcome: the namespace's socket id, or why it was refused.
  private var namespaceSID: String?
  private var refusal: String?
  private var sessionAcknowledged: Int?
  private var sessionReady = false
  /// Binary attachments still to come for a binary event: skipped.
  private var attachmentsToSkip = 0
  private var waiter: CheckedContinuation<Void, Never>?
  private var sleeper: Task<Void, Never>?
  private var posting: Task<Result<Void, ChatError>, Never>?

  init(
    endpoint: ServerEndpoint, settings: SocketIOSettings, options: HTTPOptions, token: String?,
    sender: String
  ) {
    self.endpoint = endpoint
    self.settings = settings
    self.options = options
    self.token = token
    self.sender = sender
    self.client = CurlHTTPClient(options: options)
  }

  nonisolated var isClosed: Bool { closed.load(ordering: .relaxed) }

  private var now: Double {
    let elapsed = ContinuousClock.now - started
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
  }

  private var url: String {
    EngineIOHandshake.pollingURL(endpoint.requestBaseURL + settings.path, sid: sid)
  }

  private var server: String { endpoint.baseURL }

  /// Stops the poll and tells the server, without waiting for it.
  nonisolated func stop() {
    let wasClosed = closed.exchange(true, ordering: .relaxed)
    pollTask.withLock { $0?.cancel() }
    guard !wasClosed else { return }
    Task(executorPreference: HTTPExecutor.shared) { await self.sayGoodbye() }
  }

  private func sayGoodbye() async {
    guard !sid.isEmpty else { return }
    try? await post([.close])
  }

  // MARK: Opening

  func open() async throws(ChatError) {
    // One deadline for the whole opening, not one per step.
    let deadline = now + options.timeout
    let response: HTTPResponse
    do {
      response = try await client.perform(HTTPRequest(method: .get, url: url))
    } catch {
      throw ChatError.from(error, endpoint: endpoint, options: options)
    }
    if response.status == 429 {
      throw .rateLimited(
        server: server, retryAfter: DataAPIError.retryAfterSeconds(response.headers["retry-after"]))
    }
    guard response.status == 200 else {
      let line = ChatError.firstLine(of: response.body)
      throw .notSocketIO(
        server: server, path: settings.path,
        detail: "HTTP \(response.status)" + (line.isEmpty ? "" : ": \(line)"))
    }
    let packets = EngineIOPacket.decodePayload(String(decoding: response.body, as: UTF8.self))
    guard case .open(let json)? = packets.first, let handshake = EngineIOHandshake(json) else {
      throw .notSocketIO(
        server: server, path: settings.path,
        detail: ChatError.firstLine(of: response.body, limit: 60))
    }
    sid = handshake.sid
    maxPayload = handshake.maxPayload
    // A poll waits up to the ping interval for the server's ping; then its timeout.
    var pollOptions = options
    pollOptions.timeout = max(options.timeout, handshake.pingInterval + handshake.pingTimeout + 5)
    pollClient = CurlHTTPClient(options: pollOptions)
    let task = Task(executorPreference: HTTPExecutor.shared) { await self.poll() }
    pollTask.withLock { $0 = task }

    var auth: JSONValue?
    if let token, !token.isEmpty { auth = .object(["token": .string(token)]) }
    try await post([
      .message(SocketIOPacket(kind: .connect, namespace: settings.namespace, data: auth).encoded)
    ])
    while namespaceSID == nil && refusal == nil {
      try await waitForNews(until: deadline)
      if isClosed || now >= deadline { break }
    }
    if let refusal {
      throw .socketRefused(server: server, detail: refusal, tokenSent: token?.isEmpty == false)
    }
    guard namespaceSID != nil else { throw closedOrTimedOut() }

    // Rasa's session: `session_request` is answered by `session_confirm`, then the
    // acknowledgement. A server without sessions acknowledges only: that does too.
    let ackID = takeAckID()
    sessionAcknowledged = ackID
    try await post([
      .message(
        SocketIOPacket.event(
          "session_request", [.object(["session_id": .string(sender)])],
          namespace: settings.namespace, ackID: ackID
        ).encoded)
    ])
    while !sessionReady {
      try await waitForNews(until: deadline)
      if isClosed || now >= deadline { break }
    }
    guard sessionReady else { throw closedOrTimedOut() }
  }

  private func closedOrTimedOut() -> ChatError {
    isClosed ? .noAnswer(server: server) : .timedOut(server: server, seconds: options.timeout)
  }

  private func takeAckID() -> Int {
    defer { nextAckID += 1 }
    return nextAckID
  }

  // MARK: Turns

  func takeLate() -> SocketIOMessages {
    defer { late.removeAll() }
    return late
  }

  func turn(_ request: ChatRequest) async throws(ChatError) -> BotReply {
    if isClosed { throw failure ?? .noAnswer(server: server) }
    let ackID = takeAckID()
    let body = Data(
      EngineIOPacket.encodePayload([
        .message(
          SocketIOPacket.event(
            settings.userEvent, [settings.userMessage(request)], namespace: settings.namespace,
            ackID: ackID
          ).encoded)
      ]).utf8)
    // The server would refuse it (python-engineio: HTTP 413) and close the session.
    guard body.count <= maxPayload else {
      throw .socketMessageTooLarge(server: server, limitBytes: maxPayload, bytes: body.count)
    }
    answerAckID = ackID
    let sentAt = now
    answer = SocketIOAnswer(
      sentAt: sentAt, settle: settings.settleSeconds, timeout: options.timeout,
      acknowledgesLast: acknowledgesLast, limitBytes: options.maxBodyBytes)
    defer {
      answer = nil
      answerAckID = nil
    }
    try await post(body)
    while let current = answer {
      switch current.state(at: now) {
      case .whole, .empty:
        if current.endedByAcknowledgement { acknowledgesLast = true }
        var reply = SocketIOMessage.reply(current.messages)
        if let first = current.firstMessageAt { reply.serverSeconds = first - sentAt }
        reply.conversationID = namespaceSID
        if current.messages.isEmpty && !everAnswered && !isClosed {
          reply.notes.append(
            otherEvents.isEmpty
              ? .silentSession : .otherEvents(names: otherEvents, expected: settings.botEvent))
        }
        // python-socketio acknowledges even after the server closed the namespace.
        if isClosed { reply.notes.append(.connectionLost) }
        if !current.messages.isEmpty { everAnswered = true }
        return reply
      case .tooLarge:
        throw tooLarge
      case .timedOut:
        throw everAnswered
          ? .timedOut(server: server, seconds: options.timeout)
          : .socketSilent(server: server, seconds: options.timeout)
      case .waiting(let until):
        if isClosed {
          if let failure { throw failure }
          guard !current.messages.isEmpty else { throw .noAnswer(server: server) }
          var reply = SocketIOMessage.reply(current.messages)
          reply.notes.append(.connectionLost)
          reply.conversationID = namespaceSID
          everAnswered = true
          return reply
        }
        do {
          try await waitForNews(until: until ?? sentAt + options.timeout)
        } catch {
          // Cancelled (Ctrl-C): what arrived is shown with the next answer, never lost.
          if let answer { keepLate(answer.receivedMessages) }
          throw error
        }
      }
    }
    throw .cancelled
  }

  private var tooLarge: ChatError {
    .bodyTooLarge(server: server, limitBytes: options.maxBodyBytes)
  }

  private func keepLate(_ messages: SocketIOMessages) {
    late.append(contentsOf: messages)
    late.trim(toCount: SocketIOChatTransport.lateLimit, bytes: options.maxBodyBytes)
  }

  // MARK: Waiting

  /// Returns when a packet arrived, the connection closed, or at `deadline`.
  private func waitForNews(until deadline: Double) async throws(ChatError) {
    let delay = max(0, deadline - now)
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        waiter = continuation
        sleeper = Task(executorPreference: HTTPExecutor.shared) { [weak self] in
          // A sleeper cancelled by an earlier wake-up wakes nothing.
          do { try await Task.sleep(for: .seconds(delay)) } catch { return }
          await self?.wake()
        }
      }
    } onCancel: {
      Task(executorPreference: HTTPExecutor.shared) { await self.wake() }
    }
    if Task.isCancelled { throw .cancelled }
  }

  private func wake() {
    sleeper?.cancel()
    sleeper = nil
    waiter?.resume()
    waiter = nil
  }

  // MARK: Sending

  /// Posts packets; one POST at a time, in order, as Engine.IO requires.
  private func post(_ packets: [EngineIOPacket]) async throws(ChatError) {
    try await post(Data(utf8Of: EngineIOPacket.encodePayload(packets)))
  }

  private func post(_ body: Data) async throws(ChatError) {
    let previous = posting
    let task = Task(executorPreference: HTTPExecutor.shared) { () -> Result<Void, ChatError> in
      _ = await previous?.value
      return await self.postNow(body)
    }
    posting = task
    // Ctrl-C reaches the request in flight (curl drops it at once).
    try await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      task.cancel()
    }.get()
  }

  private func postNow(_ body: Data) async -> Result<Void, ChatError> {
    do {
      let response = try await client.perform(
        HTTPRequest(
          method: .post, url: url, headers: ["Content-Type": "text/plain;charset=UTF-8"],
          body: body))
      guard (200..<300).contains(response.status) else {
        markClosed()
        return .failure(
          .httpStatus(
            server: server, status: response.status,
            firstLine: ChatError.firstLine(of: response.body)))
      }
      return .success(())
    } catch {
      return .failure(ChatError.from(error, endpoint: endpoint, options: options))
    }
  }

  // MARK: Receiving

  private func poll() async {
    guard let pollClient else { return }
    while !isClosed && !Task.isCancelled {
      let response: HTTPResponse
      do {
        response = try await pollClient.perform(HTTPRequest(method: .get, url: url))
      } catch {
        // A poll's body past the cap is said as a REST answer's would be.
        if error == .bodyTooLarge { failure = tooLarge }
        markClosed()
        return
      }
      guard response.status == 200 else {
        markClosed()
        return
      }
      let packets = EngineIOPacket.decodePayload(String(decoding: response.body, as: UTF8.self))
      // Given up (an answer past the cap): the rest is not read.
      for packet in packets where failure == nil { await receive(packet) }
      wake()
    }
  }

  private func markClosed() {
    closed.store(true, ordering: .relaxed)
    wake()
  }

  /// Stops reading this connection and tells the server; turns say `error`.
  private func giveUp(_ error: ChatError) {
    failure = error
    stop()
    wake()
  }

  private func receive(_ packet: EngineIOPacket) async {
    switch packet {
    case .ping(let data):
      // In turn with the other POSTs: Engine.IO allows one at a time.
      try? await post([.pong(data)])
    case .close:
      markClosed()
    case .binary:
      if attachmentsToSkip > 0 { attachmentsToSkip -= 1 }
    case .message(let text):
      guard let packet = SocketIOPacket.decode(text), packet.namespace == settings.namespace
      else { return }
      handle(packet, bytes: text.utf8.count)
    case .open, .pong, .upgrade, .noop, .unknown:
      break
    }
  }

  /// `bytes`: the packet's as it came, what an answer's cap counts.
  private func handle(_ packet: SocketIOPacket, bytes: Int) {
    switch packet.kind {
    case .connect:
      namespaceSID = packet.data?["sid"]?.stringValue ?? ""
    case .connectError:
      refusal = TerminalSanitizer.clean(
        packet.data?["message"]?.stringValue ?? packet.data?.stringValue ?? "-")
    case .disconnect:
      markClosed()
    case .ack, .binaryAck:
      if let id = packet.ackID, id == answerAckID {
        answer?.acknowledged(at: now)
      } else if let id = packet.ackID, id == sessionAcknowledged {
        sessionReady = true
      }
    case .event, .binaryEvent:
      attachmentsToSkip = min(attachmentsToSkip + packet.attachments, 1000)
      guard let (name, arguments) = packet.eventArguments else { return }
      if name == "session_confirm" {
        sessionReady = true
      } else if name != settings.botEvent {
        if otherEvents.count < 5, !otherEvents.contains(name) { otherEvents.append(name) }
      } else {
        // A binary message cannot be shown: it is reported as not an object.
        let message: JSONValue =
          packet.kind == .binaryEvent ? .string("binary") : (arguments.first ?? .null)
        if answer != nil {
          answer?.received(message, bytes: bytes, at: now)
          if answer?.isTooLarge == true { giveUp(tooLarge) }
        } else {
          late.append(message, bytes: bytes)
          late.trim(toCount: SocketIOChatTransport.lateLimit, bytes: options.maxBodyBytes)
        }
      }
    }
  }
}
