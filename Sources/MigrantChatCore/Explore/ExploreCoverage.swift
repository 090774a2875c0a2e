import Foundation

/// What of a Rasa domain no explored path reached (`explore --domain`).
///
/// A response is reached when a message's text is one of its variants' texts
/// (`{slot}` placeholders match anything); a button's intent (the `/intent` of
/// a payload in a response's buttons) when a clicked button sent it.
public struct ExploreCoverage: Sendable, Hashable {
  /// Response name → the texts of its variants.
  public var responses: [String: [String]]
  /// Intents that buttons of the domain's responses send.
  public var buttonIntents: Set<String>

  public init(responses: [String: [String]], buttonIntents: Set<String>) {
    self.responses = responses
    self.buttonIntents = buttonIntents
  }

  public func unreached(_ walks: [BotExplorer.Walk]) -> [ExploreFinding] {
    let texts = Set(walks.flatMap { $0.nodes.flatMap { $0.messages.compactMap(\.text) } })
    let sent = Set(
      walks.flatMap { $0.edges.map(\.click.payload) }.map { Self.intent(ofPayload: $0) })
    var findings: [ExploreFinding] = []
    for (name, variants) in responses.sorted(by: { $0.key < $1.key }) {
      let patterns = variants.compactMap(Self.pattern)
      let reached = texts.contains { text in
        patterns.contains {
          $0.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
      }
      if !reached {
        findings.append(
          ExploreFinding(
            kind: .unreached, language: nil, path: [], detail: .unreachedResponse(name)))
      }
    }
    for intent in buttonIntents.sorted() where !sent.contains(intent) {
      findings.append(
        ExploreFinding(kind: .unreached, language: nil, path: [], detail: .unreachedIntent(intent)))
    }
    return findings
  }

  /// `/intent{"entity": "x"}` → `intent`.
  public static func intent(ofPayload payload: String) -> String {
    guard payload.hasPrefix("/") else { return "" }
    return String(payload.dropFirst().prefix { $0 != "{" && $0 != "@" && !$0.isWhitespace })
  }

  /// A variant's text as a whole-text pattern, `{slot}` matching anything.
  static func pattern(_ text: String) -> NSRegularExpression? {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    let parts = trimmed.components(separatedBy: "{")
    var pattern = NSRegularExpression.escapedPattern(for: parts[0])
    for part in parts.dropFirst() {
      if let close = part.firstIndex(of: "}") {
        pattern +=
          ".*" + NSRegularExpression.escapedPattern(for: String(part[part.index(after: close)...]))
      } else {
        pattern += NSRegularExpression.escapedPattern(for: "{" + part)
      }
    }
    // Escaped text and ".*": it compiles; were it not to, the variant matches nothing.
    return try? NSRegularExpression(
      pattern: "^\\s*" + pattern + "\\s*$", options: [.dotMatchesLineSeparators])
  }
}
