import Foundation

/// A start message the bot read as something else: `/start` sent to a bot with no
/// `start` intent is classified by its NLU like any text (`inform 1.00`), and the
/// conversation opens in whatever that intent leads to (a form). The tracker shows it
/// when the server has its HTTP API on; the chat and `explore` say it once.
public enum StartIntent {
  /// The intent a payload (`/start`, `/greet{"x":1}`) names; nil for plain text.
  public static func named(by message: String) -> String? {
    let trimmed = message.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix("/"), !trimmed.hasPrefix("//") else { return nil }
    let name = trimmed.dropFirst().prefix { $0 != "{" && $0 != "@" && !$0.isWhitespace }
    return name.isEmpty ? nil : String(name)
  }

  /// What the bot read `start` as, when that is not the intent it names: from the first
  /// user event in `events` whose text is `start` (a tracker's). Nil when it read it
  /// right, when `start` is plain text, or when the tracker does not show it.
  public static func misread(_ start: String, events: [JSONValue]) -> TurnInsight.Ranked? {
    guard let expected = named(by: start) else { return nil }
    let sent = start.trimmingCharacters(in: .whitespaces)
    guard
      let user = events.first(where: {
        $0["event"]?.stringValue == "user"
          && $0["text"]?.stringValue?.trimmingCharacters(in: .whitespaces) == sent
      }),
      let intent = user["parse_data"]?["intent"]?["name"]?.stringValue, !intent.isEmpty,
      intent != expected
    else { return nil }
    return TurnInsight.Ranked(
      name: intent, confidence: user["parse_data"]?["intent"]?["confidence"]?.numberValue)
  }

  /// The values of `start.read_as` and `explore.start_read_as`.
  public static func values(start: String, intent: TurnInsight.Ranked, l10n: Localizer)
    -> [String: String]
  {
    [
      "start": TerminalSanitizer.clean(start, keepNewlines: false),
      "intent": TerminalSanitizer.clean(intent.name, keepNewlines: false),
      "expected": TerminalSanitizer.clean(named(by: start) ?? start, keepNewlines: false),
      "confidence": intent.confidence.map { " (" + l10n.number($0, fractionDigits: 2) + ")" } ?? "",
    ]
  }
}
