import Foundation

/// When an answer over socket.io is whole. Socket.IO has no end-of-answer marker.
///
/// Each message is emitted with an acknowledgement id; python-socketio sends the
/// acknowledgement when the event's handler returns, and Rasa's handler returns
/// after the whole turn, its messages emitted before, in order, on the same queue.
/// So the answer is whole at the acknowledgement when messages came before it.
/// When the acknowledgement comes first (a server that answers from a background
/// task) or never (a handler that failed, a server without acknowledgements), the
/// answer is whole when the bot has been quiet for the settle time after its last
/// message, or after the acknowledgement. An acknowledgement alone is an empty answer
/// at once on a connection whose server was seen to acknowledge after its messages.
/// With nothing at all by the timeout, the turn failed. Messages after the end are
/// late: kept for the next answer.
///
/// An answer is capped as a REST answer is, by its bytes (`limitBytes`, the HTTP
/// body cap): past it the answer is too large at once, and its messages are let go.
public struct SocketIOAnswer: Sendable {
  public enum State: Sendable, Hashable {
    /// Not whole yet: look again at this time (nil: only at the timeout).
    case waiting(until: Double?)
    case whole
    /// Nothing came back, not even the acknowledgement.
    case timedOut
    /// Acknowledged, with no message, and quiet since.
    case empty
    /// The messages came to more than `limitBytes`: the answer is not shown.
    case tooLarge
  }

  public let sentAt: Double
  public let settle: Double
  public let timeout: Double
  public let limitBytes: Int
  private var store = SocketIOMessages()
  public var messages: [JSONValue] { store.messages }
  /// The bytes of every message received, also those let go past the cap.
  public private(set) var bytes = 0
  public private(set) var acknowledgedAt: Double?
  /// Messages that came before the acknowledgement (the answer may end at it).
  private var beforeAck = 0
  private var lastMessageAt: Double?
  public private(set) var firstMessageAt: Double?

  /// The server was seen to acknowledge after its messages (an earlier answer on this
  /// connection): an acknowledgement with no message before it is an empty answer.
  public let acknowledgesLast: Bool

  public init(
    sentAt: Double, settle: Double, timeout: Double, acknowledgesLast: Bool = false,
    limitBytes: Int = .max
  ) {
    self.sentAt = sentAt
    self.settle = settle
    self.timeout = timeout
    self.acknowledgesLast = acknowledgesLast
    self.limitBytes = limitBytes
  }

  public var isTooLarge: Bool { bytes > limitBytes }

  /// This answer ended at the acknowledgement, every message before it: the server
  /// acknowledges last (see `acknowledgesLast`).
  public var endedByAcknowledgement: Bool {
    acknowledgedAt != nil && beforeAck > 0 && store.count == beforeAck
  }

  /// A message, with the bytes it came in (nil: its JSON's).
  public mutating func received(_ message: JSONValue, bytes size: Int? = nil, at time: Double) {
    guard !isTooLarge else { return }
    let size = size ?? message.compactText.utf8.count
    bytes += size
    guard !isTooLarge else {
      // Nothing of a too large answer is shown: its memory goes at once.
      store.removeAll()
      return
    }
    store.append(message, bytes: size)
    lastMessageAt = time
    if firstMessageAt == nil { firstMessageAt = time }
    if acknowledgedAt == nil { beforeAck += 1 }
  }

  public mutating func acknowledged(at time: Double) {
    if acknowledgedAt == nil { acknowledgedAt = time }
  }

  /// The messages with their sizes, for keeping them as late ones (Ctrl-C).
  public var receivedMessages: SocketIOMessages { store }

  public func state(at now: Double) -> State {
    if isTooLarge { return .tooLarge }
    if endedByAcknowledgement { return .whole }
    if acknowledgedAt != nil, store.isEmpty, acknowledgesLast { return .empty }
    let quietSince = [lastMessageAt, acknowledgedAt].compactMap { $0 }.max()
    guard let quietSince else {
      return now >= sentAt + timeout ? .timedOut : .waiting(until: sentAt + timeout)
    }
    if now >= quietSince + settle { return store.isEmpty ? .empty : .whole }
    // A bot that never stops talking: what came within the timeout is the answer.
    if now >= sentAt + timeout { return store.isEmpty ? .empty : .whole }
    return .waiting(until: min(quietSince + settle, sentAt + timeout))
  }
}

/// Bot messages with the bytes each came in, so that a store of them can be kept
/// within a cap of messages and of bytes.
public struct SocketIOMessages: Sendable, Hashable {
  public private(set) var messages: [JSONValue] = []
  private var sizes: [Int] = []
  public private(set) var bytes = 0

  public init() {}

  public var count: Int { messages.count }
  public var isEmpty: Bool { messages.isEmpty }

  public mutating func append(_ message: JSONValue, bytes size: Int) {
    messages.append(message)
    sizes.append(size)
    bytes += size
  }

  public mutating func append(contentsOf other: SocketIOMessages) {
    messages += other.messages
    sizes += other.sizes
    bytes += other.bytes
  }

  /// Lets the oldest go until at most `count` messages of at most `bytes` remain.
  public mutating func trim(toCount count: Int, bytes limit: Int) {
    var drop = 0
    var kept = bytes
    while drop < messages.count && (messages.count - drop > count || kept > limit) {
      kept -= sizes[drop]
      drop += 1
    }
    guard drop > 0 else { return }
    messages.removeFirst(drop)
    sizes.removeFirst(drop)
    bytes = kept
  }

  public mutating func removeAll() {
    messages = []
    sizes = []
    bytes = 0
  }

  /// The messages, leaving none.
  public mutating func take() -> [JSONValue] {
    defer { removeAll() }
    return messages
  }
}
