import Foundation

/// `explore --answers FILE`: what to type at a bot's question that offers no buttons (a
/// form asking for an amount, a name, a date), so explore walks on past it.
///
/// Each entry names the question by the slot a form requests (`slot:`, read from the
/// tracker where the API is on) or by a pattern found in the question's text
/// (`prompt:`, a regular expression, any case), or both (then both must hold). The
/// first entry that fits gives the answers; each answer is a path of its own.
public struct ExploreAnswers: Sendable, Hashable {
  public struct Entry: Sendable, Hashable {
    public var slot: String?
    /// A regular expression searched in the question's text, any case.
    public var prompt: String?
    /// The answers in each language; `any` for every language without its own.
    public var answers: [Language: [String]]
    public var any: [String]
    /// Where the entry starts in its file, for messages.
    public var line: Int

    public init(
      slot: String?, prompt: String?, answers: [Language: [String]] = [:], any: [String] = [],
      line: Int = 0
    ) {
      self.slot = slot
      self.prompt = prompt
      self.answers = answers
      self.any = any
      self.line = line
    }

    /// Its answers in `language`.
    func given(_ language: Language) -> [String] { answers[language] ?? any }

    /// Whether this entry is about the question: its slot is the one requested, its
    /// pattern is in the text (both, when both are given).
    func fits(slot requested: String?, text: String) -> Bool {
      if let slot, slot != requested { return false }
      if let prompt {
        return text.range(of: prompt, options: [.regularExpression, .caseInsensitive]) != nil
      }
      return slot != nil
    }
  }

  public var entries: [Entry]

  public init(entries: [Entry]) {
    self.entries = entries
  }

  /// What to type at a question in `language`: the answers of the first entry that fits
  /// it and has answers in that language; empty when none does.
  public func answers(slot: String?, text: String, language: Language) -> [String] {
    chosen(slot: slot, text: text, language: language).map { entries[$0].given(language) } ?? []
  }

  /// Which entry answers a question (its index), or nil.
  public func chosen(slot: String?, text: String, language: Language) -> Int? {
    entries.indices.first { index in
      entries[index].fits(slot: slot, text: text) && !entries[index].given(language).isEmpty
    }
  }
}
