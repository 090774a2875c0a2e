import Foundation
import MigrantChatCore

/// Rasa's `socketio` channel (Socket.IO v5 over Engine.IO v4), by HTTP long-polling
/// on the libcurl engine every other request uses.
///
/// One connection per conversation: opened at the first message, again for a new
/// sender id (`/new`), and again, with backoff and a note on the reply, after the
/// server closed it. A message is never sent twice: when the connection breaks
/// during an answer, what arrived is returned with a note, or the turn fails.
/// Messages that arrive after an answer was whole are returned with the next one of
/// the same conversation, as late (`BotReply.late`). Those of a conversation left
/// with `/new` (another sender id) are dropped: they are never shown inside the new one.
/// An answer is capped as over REST, by `HTTPOptions.maxBodyBytes`.
public actor SocketIOChatTransport: ChatTransport {
  public nonisolated let endpoint: ServerEndpoint
  public nonisolated let settings: SocketIOSettings
  private let options: HTTPOptions
  /// `MIGRANT_CHAT_TOKEN`: the `token` of the connect request (Rasa's `jwt_key`).
  private let token: String?
  private var connection: SocketIOConnection?
  /// The sender id of the conversation the connection and the late messages belong to.
  private var conversation: String?
  /// The previous connection closed under us: the next one is a reconnection.
  private var lost = false
  /// Late messages not yet shown: kept here until a turn succeeds, so a failed turn
  /// loses none (at most `lateLimit` of at most `maxBodyBytes`, the oldest dropped first).
  private var late = SocketIOMessages()
  static let lateLimit = 100

  public init(
    endpoint: ServerEndpoint, settings: SocketIOSettings, options: HTTPOptions, token: String?
  ) {
    self.endpoint = endpoint
    self.settings = settings
    self.options = options
    self.token = token
  }

  deinit {
    connection?.stop()
  }

  /// Called one turn at a time (the chat awaits each; each transcript has its own).
  /// Runs on the HTTP I/O thread, as the REST transport does: the connection's waits and
  /// wake-ups never queue behind work that holds Swift's few shared threads.
  public func send(_ request: ChatRequest) async throws(ChatError) -> BotReply {
    try await withTaskExecutorPreference(HTTPExecutor.shared) { () async throws(ChatError) in
      try await sendHere(request)
    }
  }

  private func sendHere(_ request: ChatRequest) async throws(ChatError) -> BotReply {
    var reconnected = false
    if request.sender != conversation {
      // Another conversation (`/new`): what came late for the previous one is not this
      // one's, and its connection is no reconnection of the previous one's.
      connection?.stop()
      connection = nil
      late.removeAll()
      lost = false
      conversation = request.sender
    }
    if let current = connection, current.isClosed {
      keepLate(await current.takeLate())
      lost = true
      current.stop()
      connection = nil
    }
    if connection == nil {
      if lost {
        connection = try await reconnect(sender: request.sender)
        reconnected = true
        lost = false
      } else {
        connection = try await open(sender: request.sender)
      }
    }
    guard let connection else { throw .cancelled }
    keepLate(await connection.takeLate())
    var reply: BotReply
    do {
      reply = try await connection.turn(request)
    } catch {
      if connection.isClosed { lost = true }
      throw error
    }
    if connection.isClosed { lost = true }
    if reconnected { reply.notes.insert(.reconnected, at: 0) }
    if !late.isEmpty { reply.late = SocketIOMessage.reply(late.take()).messages }
    return reply
  }

  private func keepLate(_ messages: SocketIOMessages) {
    late.append(contentsOf: messages)
    late.trim(toCount: Self.lateLimit, bytes: options.maxBodyBytes)
  }

  private func open(sender: String) async throws(ChatError) -> SocketIOConnection {
    let connection = SocketIOConnection(
      endpoint: endpoint, settings: settings, options: options, token: token, sender: sender)
    do {
      try await connection.open()
    } catch {
      // A refused connect leaves the server's Engine.IO session open: closed here.
      connection.stop()
      throw error
    }
    return connection
  }

  /// Opens a new connection after one was lost: tries again after 0.5, 1, 2, 4 … s
  /// while the timeout lasts, when the server refused, did not answer or was not yet
  /// serving socket.io (a restart); a refused connect or a missing host is said at once.
  private func reconnect(sender: String) async throws(ChatError) -> SocketIOConnection {
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(options.timeout)
    var delay = 0.5
    while true {
      do {
        return try await open(sender: sender)
      } catch {
        let retried: Bool =
          switch error {
          case .connectionRefused, .noAnswer, .network, .timedOut, .notSocketIO: true
          default: false
          }
        guard retried, clock.now + .seconds(delay) < deadline else { throw error }
        do { try await Task.sleep(for: .seconds(delay)) } catch { throw .cancelled }
        delay = min(delay * 2, 8)
      }
    }
  }
}

extension ChatError {
  /// A request that got no HTTP response, as the user reads it.
  static func from(_ failure: HTTPFailure, endpoint: ServerEndpoint, options: HTTPOptions)
    -> ChatError
  {
    let server = endpoint.baseURL
    return switch failure {
    case .connectionRefused: .connectionRefused(server: server)
    case .hostNotFound: .hostNotFound(server: server, host: endpoint.host)
    case .timedOut: .timedOut(server: server, seconds: options.timeout)
    case .bodyTooLarge: .bodyTooLarge(server: server, limitBytes: options.maxBodyBytes)
    case .redirectRefused: .redirectRefused(server: server)
    case .tooManyRedirects: .tooManyRedirects(server: server, limit: options.maxRedirects)
    case .tlsVerification(let detail):
      .tlsVerification(server: server, detail: TerminalSanitizer.clean(detail))
    case .noAnswer: .noAnswer(server: server)
    case .cutOff: .cutOff(server: server)
    case .cancelled: .cancelled
    case .libcurlMissing(let detail):
      .libcurlMissing(server: server, detail: TerminalSanitizer.clean(detail))
    case .other(let detail): .network(server: server, detail: TerminalSanitizer.clean(detail))
    }
  }
}
