import Foundation

/// CheckList's directional test: an example negated ("I need a flat" → "I don't need
/// a flat", "нужна квартира" → "не нужна квартира") must not be taken for the
/// example's intent as surely as the example was. Reported, never counted as kept.
public enum Negation {
  /// Words a need or wish is said with, negated in place (the first one found).
  static let negatable: [Language: [String: String]] = [
    .en: [
      "need": "don't need", "want": "don't want", "would like": "wouldn't like",
      "have to": "don't have to", "can": "can't", "looking for": "not looking for",
      "is": "isn't", "am": "am not", "are": "aren't",
    ],
    .ru: [
      "нужна": "не нужна", "нужно": "не нужно", "нужен": "не нужен", "нужны": "не нужны",
      "хочу": "не хочу", "могу": "не могу", "надо": "не надо", "ищу": "не ищу",
      "нужное": "не нужное",
    ],
    .uk: [
      "потрібна": "не потрібна", "потрібно": "не потрібно", "потрібен": "не потрібен",
      "потрібні": "не потрібні", "треба": "не треба", "хочу": "не хочу", "можу": "не можу",
      "шукаю": "не шукаю", "потрібне": "не потрібне", "потрібний": "не потрібний",
    ],
  ]

  /// What an English phrase without such a word is wrapped in: "I don't need" a
  /// thing, "I don't want to" do something. Russian and Ukrainian are not wrapped: the
  /// wrapper would have to agree with the noun ("не нужна страховка", "не нужен вид").
  static let verbs: Set<String> = [
    "extend", "renew", "send", "transfer", "find", "get", "buy", "book", "make", "apply",
    "pay", "change", "register", "open", "see", "talk", "speak", "go", "move", "rent", "learn",
  ]

  /// The example negated, or nil when it is already negative or has no words.
  public static func variant(of text: String, language: Language) -> String? {
    let lower = text.lowercased()
    let words = lower.split { !$0.isLetter && $0 != "'" && $0 != "’" }.map(String.init)
    guard words.count >= 1, text.count <= 200 else { return nil }
    // Already negative: its negation is not what this test asks.
    let negative: Set<String> = [
      "not", "no", "don't", "dont", "never", "не", "нет", "ні", "ни", "ничего", "нічого",
    ]
    guard !words.contains(where: negative.contains), !lower.contains("n't") else { return nil }
    // A question is not negated: "where can't I find a doctor" asks nothing else.
    let questions: Set<String> = [
      "where", "how", "what", "when", "who", "why", "can", "is", "do", "где", "как", "что",
      "когда", "куда", "кто", "де", "як", "що", "коли", "куди", "хто", "чи",
    ]
    guard let first = words.first, !questions.contains(first), !text.contains("?") else {
      return nil
    }
    let table = negatable[language] ?? [:]
    // The longest phrase first ("have to" before "to"), at a word's start and end.
    for phrase in table.keys.sorted(by: { $0.count > $1.count }) {
      guard let range = wordRange(of: phrase, in: text) else { continue }
      let replacement = table[phrase] ?? phrase
      let original = String(text[range])
      let cased =
        original.first?.isUppercase == true
        ? replacement.prefix(1).uppercased() + replacement.dropFirst() : replacement
      return text.replacingCharacters(in: range, with: cased)
    }
    // Wrapped only in English, and only a short phrase.
    guard language == .en, words.count <= 4 else { return nil }
    let body = text.prefix(1).lowercased() + text.dropFirst()
    return (verbs.contains(first) ? "I don't want to " : "I don't need ") + body
  }

  /// Whether negating an example of `intent` means anything: not a greeting, a
  /// farewell, a yes or no, thanks or small talk.
  public static func applies(toIntent intent: String?) -> Bool {
    guard let intent = intent?.lowercased() else { return false }
    let social = [
      "greet", "hello", "bye", "goodbye", "thank", "affirm", "deny", "chitchat", "smalltalk",
      "bot_challenge", "out_of_scope", "debug", "restart", "stop",
    ]
    return !social.contains(where: intent.contains)
  }

  /// `phrase` in `text` as whole words, case folded.
  static func wordRange(of phrase: String, in text: String) -> Range<String.Index>? {
    var searched = text.startIndex..<text.endIndex
    while let range = text.range(of: phrase, options: [.caseInsensitive], range: searched) {
      let before =
        range.lowerBound == text.startIndex || !text[text.index(before: range.lowerBound)].isLetter
      let after = range.upperBound == text.endIndex || !text[range.upperBound].isLetter
      if before && after { return range }
      searched = range.upperBound..<text.endIndex
    }
    return nil
  }
}
