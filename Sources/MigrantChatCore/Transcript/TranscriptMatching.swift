import Foundation

extension TextMatch {
  public func matches(_ actual: String?) -> Bool {
    guard let actual else { return false }
    switch self {
    case .exact(let expected, let ignoreCase):
      return ignoreCase ? expected.lowercased() == actual.lowercased() : expected == actual
    case .contains(let expected, let ignoreCase):
      return actual.range(of: expected, options: ignoreCase ? [.caseInsensitive] : []) != nil
    case .regex(let pattern, let ignoreCase):
      return actual.range(
        of: pattern,
        options: ignoreCase ? [.regularExpression, .caseInsensitive] : .regularExpression)
        != nil
    case .glob(let pattern, let ignoreCase):
      return Self.glob(pattern, actual, ignoreCase: ignoreCase)
    case .anyOf(let choices):
      return choices.contains { $0.matches(actual) }
    }
  }

  /// What was expected, for a diff: `"Hello"`, `contains "Hel"`, `any of [...]`.
  public var summary: String {
    switch self {
    case .exact(let text, let ignoreCase): quoted(text) + (ignoreCase ? " (ignoring case)" : "")
    case .contains(let text, let ignoreCase):
      "contains " + quoted(text) + (ignoreCase ? " (ignoring case)" : "")
    case .regex(let pattern, _): "matches /\(pattern)/"
    case .glob(let pattern, _): "like " + quoted(pattern)
    case .anyOf(let choices): "any of [" + choices.map(\.summary).joined(separator: ", ") + "]"
    }
  }

  private func quoted(_ text: String) -> String {
    JSONValue.string(text).compactText
  }

  /// Glob matching by characters, with backtracking on `*`.
  static func glob(_ pattern: String, _ text: String, ignoreCase: Bool) -> Bool {
    let p = Array(ignoreCase ? pattern.lowercased() : pattern)
    let t = Array(ignoreCase ? text.lowercased() : text)
    var (pi, ti, star, mark) = (0, 0, -1, 0)
    while ti < t.count {
      if pi < p.count && (p[pi] == "?" || p[pi] == t[ti]) {
        pi += 1
        ti += 1
      } else if pi < p.count && p[pi] == "*" {
        star = pi
        mark = ti
        pi += 1
      } else if star >= 0 {
        pi = star + 1
        mark += 1
        ti = mark
      } else {
        return false
      }
    }
    while pi < p.count && p[pi] == "*" { pi += 1 }
    return pi == p.count
  }
}

extension ListMatch {
  public func matches(_ actual: [String]) -> Bool {
    switch self {
    case .exact(let expected): expected == actual
    case .contains(let expected): expected.allSatisfy(actual.contains)
    }
  }

  public var summary: String {
    switch self {
    case .exact(let items): Self.show(items)
    case .contains(let items): "contains " + Self.show(items)
    }
  }

  /// `["a", "b, c"]`: quoted, so titles with commas read right.
  static func show(_ items: [String]) -> String {
    JSONValue.array(items.map(JSONValue.string)).compactText
      .replacingOccurrences(of: "\",\"", with: "\", \"")
  }
}

extension JSONValue {
  /// Whether `self` holds everything in `subset`: objects by key, recursively; other values equal.
  public func contains(subset: JSONValue) -> Bool {
    switch (self, subset) {
    case (.object(let fields), .object(let expected)):
      return expected.allSatisfy { key, value in fields[key]?.contains(subset: value) ?? false }
    case (.number(let left), .number(let right)):
      return left == right
    default:
      return self == subset
    }
  }
}

extension MessageExpectation {
  /// The card fields a transcript can check.
  public static let cardFields = ["id", "name", "city", "address", "phone", "email", "web"]

  /// Why `message` does not match, in `l10n`'s language; empty when it does.
  ///
  /// `cards` are the directory's contacts for the message's ids, for `cards` checks;
  /// `mask` hides values that change from run to run in the text (`--ignore`).
  /// Field names and expectation summaries are the transcript's own keywords
  /// and stay as written.
  public func mismatches(
    _ message: BotMessage, cards: ContactCards = .unresolved, language: Language = .en,
    l10n: Localizer = Localizer(.en), mask: TextMask = .none
  ) -> [String] {
    var problems: [String] = []
    func show(_ text: String?) -> String {
      text.map { JSONValue.string($0).compactText } ?? l10n(.replayValueNothing)
    }
    if let expectedCards = self.cards {
      let found = message.contactIDs.map { cards.found[$0] }
      if found.count != expectedCards.count {
        problems.append(
          l10n(.replayCardCount, ["expected": "\(expectedCards.count)", "got": "\(found.count)"]))
      }
      for (index, (fields, contact)) in zip(expectedCards, found).enumerated() {
        guard let contact else {
          problems.append(
            l10n(
              .replayCardNotInDirectory,
              ["number": "\(index + 1)", "id": "\(message.contactIDs[index])"]))
          continue
        }
        for (field, match) in fields.sorted(by: { $0.key < $1.key }) {
          let value = Self.field(field, of: contact, language: language)
          if !match.matches(value) {
            problems.append(
              l10n(
                .replayCardField,
                [
                  "number": "\(index + 1)", "field": field, "expected": match.summary,
                  "got": show(value),
                ]))
          }
        }
      }
    }
    func mismatch(_ field: String, _ expected: String, _ got: String) {
      problems.append(
        l10n(.replayFieldMismatch, ["field": field, "expected": expected, "got": got]))
    }
    if let text, !text.matches(message.text, mask: mask) {
      mismatch("text", text.summary, show(message.text))
    }
    if let buttons, !buttons.matches(message.buttons.map(\.title)) {
      mismatch("buttons", buttons.summary, ListMatch.show(message.buttons.map(\.title)))
    }
    if let contacts, !contacts.matches(message.contactIDs) {
      mismatch("contacts", contacts.summary, ListMatch.show(message.contactIDs))
    }
    if let image, !image.matches(message.image) {
      mismatch("image", image.summary, show(message.image))
    }
    if let custom, !(message.custom?.contains(subset: custom) ?? false) {
      problems.append(
        l10n(
          .replayCustomMismatch,
          [
            "expected": custom.compactText,
            "got": message.custom?.compactText ?? l10n(.replayValueNothing),
          ]))
    }
    for negated in not
    where negated.mismatches(message, cards: cards, language: language, mask: mask).isEmpty {
      problems.append(l10n(.replayNotMatched, ["expected": negated.summary]))
    }
    return problems
  }

  /// The expectation in one line, for messages and diffs.
  public var summary: String {
    var parts: [String] = []
    if let text { parts.append("text " + text.summary) }
    if let buttons { parts.append("buttons " + buttons.summary) }
    if let contacts { parts.append("contacts " + contacts.summary) }
    if let cards { parts.append("\(cards.count) card(s)") }
    if let image { parts.append("image " + image.summary) }
    if let custom { parts.append("custom ⊇ " + custom.compactText) }
    for negated in not { parts.append("not (" + negated.summary + ")") }
    return parts.isEmpty ? "any message" : parts.joined(separator: "; ")
  }

  static func field(_ name: String, of contact: Contact, language: Language) -> String? {
    switch name {
    case "id": String(contact.id)
    case "name": contact.name(in: language)
    case "city": contact.city
    case "address": contact.address(in: language)
    case "phone": contact.phone
    case "email": contact.email
    case "web": contact.web
    default: nil
    }
  }
}
