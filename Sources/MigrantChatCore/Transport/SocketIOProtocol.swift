import Foundation

/// One Engine.IO v4 packet, as carried in an HTTP long-polling payload.
///
/// A payload is its packets joined by the record separator (0x1E); a packet is
/// a type digit and its data; a binary packet is `b` and base64
/// (https://socket.io/docs/v4/engine-io-protocol/).
public enum EngineIOPacket: Sendable, Hashable {
  /// The handshake: JSON with `sid`, `pingInterval`, `pingTimeout`, `maxPayload`.
  case open(String)
  case close
  case ping(String)
  case pong(String)
  /// A Socket.IO packet, as text.
  case message(String)
  /// Binary data (a Socket.IO attachment); nil when the base64 was broken.
  case binary(Data?)
  case upgrade
  case noop
  /// A packet of no known type: left out, counted.
  case unknown

  static let separator: Character = "\u{1E}"

  public static func decodePayload(_ text: String) -> [EngineIOPacket] {
    text.split(separator: separator, omittingEmptySubsequences: true).map { decode(String($0)) }
  }

  public static func decode(_ packet: String) -> EngineIOPacket {
    guard let first = packet.first else { return .unknown }
    let data = String(packet.dropFirst())
    switch first {
    case "0": return .open(data)
    case "1": return .close
    case "2": return .ping(data)
    case "3": return .pong(data)
    case "4": return .message(data)
    case "5": return .upgrade
    case "6": return .noop
    case "b": return .binary(Data(base64Encoded: data))
    default: return .unknown
    }
  }

  public var encoded: String {
    switch self {
    case .open(let data): "0" + data
    case .close: "1"
    case .ping(let data): "2" + data
    case .pong(let data): "3" + data
    case .message(let data): "4" + data
    case .binary(let data): "b" + (data?.base64EncodedString() ?? "")
    case .upgrade: "5"
    case .noop: "6"
    case .unknown: "6"
    }
  }

  public static func encodePayload(_ packets: [EngineIOPacket]) -> String {
    packets.map(\.encoded).joined(separator: String(separator))
  }
}

/// The Engine.IO handshake's parameters, from the `open` packet.
public struct EngineIOHandshake: Sendable, Hashable {
  public var sid: String
  public var pingInterval: Double
  public var pingTimeout: Double
  public var maxPayload: Int

  /// Nil when the packet is not the JSON object a server sends, or has no `sid`.
  public init?(_ json: String) {
    guard let value = try? JSONParser.parse(Data(utf8Of: json)),
      let sid = value["sid"]?.stringValue, !sid.isEmpty
    else { return nil }
    self.sid = sid
    // Milliseconds; python-engineio's and the reference server's defaults when absent.
    // A server's numbers are kept within 0 to 300 s (they set the poll's timeout).
    func seconds(_ key: String, _ fallback: Double) -> Double {
      let value = value[key]?.numberValue ?? fallback
      return value.isFinite ? min(max(value / 1000, 0), 300) : fallback / 1000
    }
    self.pingInterval = seconds("pingInterval", 25_000)
    self.pingTimeout = seconds("pingTimeout", 20_000)
    // The most bytes the server takes in one POST (python-engineio's
    // max_http_buffer_size); none, or none that could carry a packet: its default.
    let payload = value["maxPayload"]?.numberValue ?? Self.defaultMaxPayload
    self.maxPayload =
      payload.isFinite && payload >= 1 ? Int(min(payload, 1e12)) : Int(Self.defaultMaxPayload)
  }

  static let defaultMaxPayload = 1_000_000.0

  /// The long-polling URL: `{base}/?EIO=4&transport=polling`, and `&sid=` with the
  /// session id once there is one, percent-encoded as a query value.
  ///
  /// Engine.IO servers issue ids of letters, digits, `-` and `_`; any other byte (a
  /// `&` that would start another parameter, a `#` that would end the query, a `+`
  /// that the server would read as a space) is escaped, so the server reads back
  /// exactly the id it issued.
  public static func pollingURL(_ base: String, sid: String) -> String {
    base + "/?EIO=4&transport=polling" + (sid.isEmpty ? "" : "&sid=" + queryValue(sid))
  }

  static func queryValue(_ text: String) -> String {
    var escaped = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        escaped.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        escaped +=
          "%" + String(byte >> 4, radix: 16, uppercase: true)
          + String(byte & 0xF, radix: 16, uppercase: true)
      }
    }
    return escaped
  }
}

/// One Socket.IO v5 packet: `<type>[<attachments>-][<namespace>,][<ack id>][<JSON>]`
/// (https://socket.io/docs/v4/socket-io-protocol/).
public struct SocketIOPacket: Sendable, Hashable {
  public enum Kind: Int, Sendable {
    case connect = 0, disconnect, event, ack, connectError, binaryEvent, binaryAck
  }

  public var kind: Kind
  public var namespace: String
  public var ackID: Int?
  /// How many binary attachments follow (binary events only).
  public var attachments: Int
  public var data: JSONValue?

  public init(
    kind: Kind, namespace: String = "/", ackID: Int? = nil, attachments: Int = 0,
    data: JSONValue? = nil
  ) {
    self.kind = kind
    self.namespace = namespace
    self.ackID = ackID
    self.attachments = attachments
    self.data = data
  }

  /// An event with its arguments: `["name", arg…]`.
  public static func event(
    _ name: String, _ arguments: [JSONValue], namespace: String = "/", ackID: Int? = nil
  ) -> SocketIOPacket {
    SocketIOPacket(
      kind: .event, namespace: namespace, ackID: ackID,
      data: .array([.string(name)] + arguments))
  }

  /// The event's name and arguments; nil for other packets or a malformed event.
  public var eventArguments: (name: String, arguments: [JSONValue])? {
    guard kind == .event || kind == .binaryEvent, case .array(let items)? = data,
      let name = items.first?.stringValue
    else { return nil }
    return (name, Array(items.dropFirst()))
  }

  /// Nil when the text is not a Socket.IO packet (a bad type, bad JSON).
  public static func decode(_ text: String) -> SocketIOPacket? {
    var rest = Substring(text)
    guard let first = rest.first, let digit = first.wholeNumberValue,
      let kind = Kind(rawValue: digit)
    else { return nil }
    rest = rest.dropFirst()
    var packet = SocketIOPacket(kind: kind)
    if kind == .binaryEvent || kind == .binaryAck {
      guard let dash = rest.firstIndex(of: "-"), let count = Int(rest[..<dash]), count >= 0,
        count <= 1000
      else { return nil }
      packet.attachments = count
      rest = rest[rest.index(after: dash)...]
    }
    if rest.first == "/" {
      let end = rest.firstIndex(of: ",") ?? rest.endIndex
      packet.namespace = String(rest[..<end])
      rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
    }
    let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
    if !digits.isEmpty {
      guard digits.count <= 15, let id = Int(digits) else { return nil }
      packet.ackID = id
      rest = rest.dropFirst(digits.count)
    }
    if !rest.isEmpty {
      // An array (events, acknowledgements), an object (connect) or a string (an older
      // server's connect error); a number would run on from the acknowledgement id.
      guard let data = try? JSONParser.parse(Data(utf8Of: rest)) else { return nil }
      switch data {
      case .array, .object, .string: packet.data = data
      default: return nil
      }
    }
    return packet
  }

  public var encoded: String {
    var text = String(kind.rawValue)
    if kind == .binaryEvent || kind == .binaryAck { text += "\(attachments)-" }
    if namespace != "/" { text += namespace + "," }
    if let ackID { text += String(ackID) }
    if let data { text += data.compactText }
    return text
  }
}

/// How a socket.io deployment of a Rasa-style bot is reached: Rasa's `socketio`
/// channel's settings in credentials.yml, and how long an answer takes to settle.
public struct SocketIOSettings: Sendable, Hashable {
  /// `socketio_path`, `/socket.io` by default.
  public var path: String
  /// `user_message_evt`.
  public var userEvent: String
  /// `bot_message_evt`.
  public var botEvent: String
  /// `metadata_key`: where the language goes.
  public var metadataKey: String
  /// `namespace`; `/` when none is set.
  public var namespace: String
  /// An answer is whole when the bot has been quiet this long after its last message
  /// (see `SocketIOAnswer`).
  public var settleSeconds: Double

  public static let defaultSettleSeconds = 1.0

  public init(
    path: String = "/socket.io", userEvent: String = "user_uttered",
    botEvent: String = "bot_uttered", metadataKey: String = "metadata", namespace: String = "/",
    settleSeconds: Double = defaultSettleSeconds
  ) {
    // Not Foundation's `trimmingCharacters(in:)`: its character set cost a million
    // instructions at every start, offline too (#50).
    var trimmed = path.trimmingWhitespace()
    while trimmed.hasSuffix("/") { trimmed.removeLast() }
    self.path = trimmed.hasPrefix("/") ? trimmed : "/" + trimmed
    self.userEvent = userEvent
    self.botEvent = botEvent
    self.metadataKey = metadataKey
    self.namespace = namespace.hasPrefix("/") ? namespace : "/" + namespace
    self.settleSeconds = settleSeconds
  }

  /// The user's message as Rasa's `socketio` channel reads it: `message`,
  /// `session_id` (the sender, which a server with `session_persistence` needs), and
  /// the language under the metadata key (`metadata.language` by default).
  public func userMessage(_ request: ChatRequest) -> JSONValue {
    .object([
      "message": .string(request.message),
      "session_id": .string(request.sender),
      metadataKey: request.metadataObject,
    ])
  }
}

/// A bot message event turned into the REST channel's shape, so one decoder reads both.
///
/// Rasa's socketio channel sends `text`, `quick_replies` (`content_type`, `title`,
/// `payload`), `attachment` (an image as `{type: image, payload: {src}}`), and custom
/// JSON as its own top-level keys; the REST channel sends `text`, `buttons`, `image`
/// and `custom`. Keys the REST shape knows are kept; any other keys become `custom`.
public enum SocketIOMessage {
  static let known: Set<String> = [
    "text", "buttons", "quick_replies", "image", "attachment", "custom", "elements",
    "recipient_id", "room",
  ]

  public static func restShape(_ payload: JSONValue) -> JSONValue {
    guard case .object(var fields) = payload else { return payload }
    if fields["image"] == nil, let attachment = fields["attachment"],
      attachment["type"]?.stringValue == "image",
      let source = attachment["payload"]?["src"] ?? attachment["payload"]?["url"]
    {
      fields["image"] = source
      fields["attachment"] = nil
    }
    let custom = fields.filter { !known.contains($0.key) }
    if !custom.isEmpty, fields["custom"] == nil {
      for key in custom.keys { fields[key] = nil }
      fields["custom"] = .object(custom)
    }
    return .object(fields)
  }

  /// The messages of one answer, decoded as the REST channel's would be.
  public static func reply(_ payloads: [JSONValue]) -> BotReply {
    var reply = BotReply(messages: [])
    for (offset, payload) in payloads.enumerated() {
      let index = offset + 1
      guard case .object(let fields) = restShape(payload) else {
        reply.problems.append(.notAnObject(index: index, got: payload.typeName))
        continue
      }
      var problems: [ReplyProblem] = []
      let message = BotReplyDecoder.message(from: fields, index: index, problems: &problems)
      reply.problems += problems
      if let message { reply.messages.append(message) }
    }
    return reply
  }
}
