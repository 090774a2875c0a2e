import Foundation

/// A bot's reply: the messages that could be understood, and what could not.
public struct BotReply: Sendable, Hashable {
  public var messages: [BotMessage]
  /// Parts of the reply that had the wrong shape and were left out.
  public var problems: [ReplyProblem]
  /// How long the bot took to answer, as the transport measured it (request sent to the
  /// first byte back); nil where it is not measured (the offline assistant).
  public var serverSeconds: Double?
  /// Messages that arrived after the previous answer was whole (socket.io has no end of
  /// answer): shown before this one, never checked as part of it.
  public var late: [BotMessage] = []
  /// What the channel has to say about this answer (a reconnection, a cut).
  public var notes: [ReplyNote] = []
  /// The id the bot keeps this conversation under, when the channel chose it rather
  /// than the sender id (Rasa's socketio without `session_persistence`: the socket's id).
  public var conversationID: String?

  public init(messages: [BotMessage], problems: [ReplyProblem] = []) {
    self.messages = messages
    self.problems = problems
  }
}

/// What a channel says about one answer.
public enum ReplyNote: Sendable, Hashable {
  /// The connection had been lost; a new one was opened for this message.
  case reconnected
  /// The connection closed during the answer: what came before is all there is.
  case connectionLost
  /// The bot acknowledged the message and has sent nothing on this connection, ever.
  case silentSession
  /// As `silentSession`, but events of other names came (`names`), not `expected`:
  /// the bot's event is named otherwise (`bot_message_evt`).
  case otherEvents(names: [String], expected: String)
  /// The bot keeps this conversation under an id of the connection's (socket.io without
  /// session persistence): the conversation ends with the connection. Said once.
  case conversationNotKept
}

/// One part of a reply that could not be shown, with where it was.
public enum ReplyProblem: Sendable, Hashable {
  /// Message `index` (1-based) was not a JSON object.
  case notAnObject(index: Int, got: String)
  /// Field `field` of message `index` had the wrong JSON type.
  case wrongType(index: Int, field: String, expected: String, got: String)
}

/// Why a whole reply body could not be read.
public enum ReplyDecodingFailure: Error, Sendable, Hashable {
  case notJSON
  /// Valid JSON, but not the array of messages the REST channel sends.
  case notAnArray(got: String)
}

/// Decodes the Rasa REST channel's answer, liberally.
///
/// Invalid UTF-8 is repaired to U+FFFD first, unknown keys are ignored, and a
/// message of the wrong shape is reported while the rest are kept. Numbers
/// where strings belong (a numeric title or payload) are accepted as text.
public enum BotReplyDecoder {
  public static func decode(_ body: Data) throws(ReplyDecodingFailure) -> BotReply {
    let value = try parse(body)
    guard case .array(let elements) = value else {
      throw .notAnArray(got: value.typeName)
    }
    var reply = BotReply(messages: [])
    for (offset, element) in elements.enumerated() {
      let index = offset + 1
      guard case .object(let fields) = element else {
        reply.problems.append(.notAnObject(index: index, got: element.typeName))
        continue
      }
      var problems: [ReplyProblem] = []
      let message = message(from: fields, index: index, problems: &problems)
      reply.problems += problems
      if let message { reply.messages.append(message) }
    }
    return reply
  }

  /// Parses one JSON document, repairing invalid UTF-8 in strings rather than rejecting it.
  public static func parse(_ body: Data) throws(ReplyDecodingFailure) -> JSONValue {
    do {
      return try JSONParser.parse(body)
    } catch {
      throw .notJSON
    }
  }

  /// One message; nil when it carries nothing to show (only `recipient_id`).
  static func message(
    from fields: [String: JSONValue], index: Int, problems: inout [ReplyProblem]
  ) -> BotMessage? {
    var message = BotMessage()
    func wrongType(_ field: String, _ expected: String, _ value: JSONValue) {
      problems.append(
        .wrongType(index: index, field: field, expected: expected, got: value.typeName))
    }

    if let text = fields["text"], text != .null {
      if let string = scalarText(text) {
        if !string.isEmpty { message.text = string }
      } else {
        wrongType("text", "string", text)
      }
    }
    for key in ["buttons", "quick_replies"] {
      guard let value = fields[key], value != .null else { continue }
      guard case .array(let items) = value else {
        wrongType(key, "array", value)
        continue
      }
      for (position, item) in items.enumerated() {
        if let button = button(from: item) {
          message.buttons.append(button)
        } else {
          wrongType("\(key)[\(position + 1)]", "object with title and payload", item)
        }
      }
    }
    if let image = fields["image"], image != .null {
      if let url = image.stringValue {
        message.image = url
      } else {
        wrongType("image", "string", image)
      }
    }
    if let attachment = fields["attachment"], attachment != .null {
      message.attachment = attachment
    }
    if let custom = fields["custom"], custom != .null {
      message.custom = custom
      // The guide marker of the offline assistant and `serve` (`custom.faq_item`).
      message.guideID = custom["faq_item"].flatMap(ItemsPayloadDecoder.id)
    }
    if let value = fields["elements"], value != .null {
      if case .array(let items) = value {
        for (position, item) in items.enumerated() {
          if let element = element(from: item) {
            message.elements.append(element)
          } else {
            wrongType("elements[\(position + 1)]", "object with a title", item)
          }
        }
      } else {
        wrongType("elements", "array", value)
      }
    }
    let isEmpty =
      message.text == nil && message.buttons.isEmpty && message.image == nil
      && message.attachment == nil && message.custom == nil && message.elements.isEmpty
    return isEmpty ? nil : message
  }

  /// Text from a string, or from a number or boolean a careless server sent instead.
  static func scalarText(_ value: JSONValue) -> String? {
    switch value {
    case .string(let string): string
    case .number(let number): JSONValue.format(number)
    case .bool(let flag): flag ? "true" : "false"
    default: nil
    }
  }

  static func button(from value: JSONValue) -> Button? {
    guard case .object(let fields) = value else { return nil }
    let title = fields["title"].flatMap(scalarText)
    let payload = fields["payload"].flatMap(scalarText)
    let url = fields["url"]?.stringValue
    if let payload, !payload.isEmpty {
      return Button(title: title ?? payload, payload: payload, url: url)
    }
    if let url {
      return Button(title: title ?? url, payload: nil, url: url)
    }
    return nil
  }

  static func element(from value: JSONValue) -> CardElement? {
    guard case .object(let fields) = value, let title = fields["title"].flatMap(scalarText) else {
      return nil
    }
    let buttons = fields["buttons"]?.arrayValue?.compactMap(button(from:)) ?? []
    return CardElement(
      title: title,
      subtitle: fields["subtitle"].flatMap(scalarText),
      imageURL: fields["image_url"]?.stringValue,
      buttons: buttons)
  }
}
