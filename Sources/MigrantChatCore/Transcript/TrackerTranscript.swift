import Foundation

/// A conversation read back from Rasa's tracker (`replay from-tracker`), as a
/// transcript's turns: each `user` event a step, the `bot` events after it its answer.
///
/// A user text that is the payload of a button of the answer before it was a click:
/// it becomes a `button:` step, replayed by the button's title. Bot events before the
/// first user event (a session's greeting) have no turn to check them in and are left
/// out. The conversation's language is the first user message's `metadata.language`.
public enum TrackerTranscript {
  public static func turns(_ events: [JSONValue]) -> (language: Language?, turns: [RecordedTurn]) {
    var turns: [RecordedTurn] = []
    var language: Language?
    var offered: [Button] = []
    for event in events {
      switch event["event"]?.stringValue {
      case "user":
        let text = event["text"]?.stringValue ?? ""
        if language == nil, let code = event["metadata"]?["language"]?.stringValue {
          language = Language(code: code)
        }
        let clicked = offered.first { $0.payload == text && !text.isEmpty }?.title
        turns.append(RecordedTurn(line: text, messages: [], button: clicked))
        offered = []
      case "bot":
        guard !turns.isEmpty else { continue }
        let messages = botMessages(event)
        turns[turns.count - 1].messages += messages
        offered += messages.flatMap(\.buttons)
      default:
        continue
      }
    }
    return (language, turns)
  }

  /// A `bot` event (`text` and `data`: buttons, image, attachment, custom, elements) as
  /// the REST channel would have sent it, read by the same decoder.
  static func botMessages(_ event: JSONValue) -> [BotMessage] {
    var message = (event["data"]?.objectValue ?? [:]).filter { $0.value != .null }
    if let text = event["text"], text != .null { message["text"] = text }
    guard !message.isEmpty else { return [] }
    let body = Data(utf8Of: JSONValue.array([.object(message)]).compactText)
    return (try? BotReplyDecoder.decode(body))?.messages ?? []
  }
}
