/// Finds a word's stem, so a query word matches the word's other grammatical
/// forms ("страхового" → "страхов", which starts "страхование").
///
/// Only query words are stemmed: their stems are matched as prefixes of the
/// indexed words, so the index needs no stems and a sync does no stemming.
/// The English and Russian stemmers are Snowball's (libstemmer, an adapter in
/// MigrantChatIO); Ukrainian has none there and uses `UkrainianStemmer`.
public protocol WordStemmer: Sendable {
  /// The stem of a lowercase `word`; the word itself when it has no ending to remove.
  func stem(_ word: String, language: StemLanguage) -> String
}

public enum StemLanguage: Sendable, CaseIterable {
  case english, russian, ukrainian
}

/// Stems Ukrainian only (its own light stemmer); the other languages are left as they are.
///
/// The default where no Snowball stemmer is given: tests of the core, and a
/// build without libstemmer would search without English and Russian stems.
public struct LightStemmer: WordStemmer {
  public init() {}

  public func stem(_ word: String, language: StemLanguage) -> String {
    language == .ukrainian ? UkrainianStemmer.stem(word) : word
  }
}

/// A light Ukrainian stemmer: removes one inflectional ending (case endings of
/// nouns and adjectives, verb endings, the reflexive -ся), keeping at least
/// three letters of the word.
///
/// Snowball has no Ukrainian stemmer in Debian's libstemmer 2.2. A light
/// stemmer, one ending off, is what this search needs: the query's stem only
/// has to be a prefix of the word's other forms. Measured with the labelled
/// query set (`Tests/MigrantChatIOTests/Search`).
public enum UkrainianStemmer {
  /// Endings, longest first within each length, so the longest ending present is removed.
  static let endings: [String] = [
    // verbs and reflexives
    "ватися", "уватися", "ватись", "ються", "ається", "иться", "іться", "ться", "тися",
    "тись", "ись", "ися", "ся", "сь",
    // adjectives and participles
    "ими", "іми", "ого", "ому", "его", "ему", "ій", "ий", "ої", "ою", "ею", "их", "іх", "им",
    "ім", "ая", "яя", "ую", "юю", "ові", "еві", "єві",
    // nouns
    "ами", "ями", "ах", "ях", "ам", "ям", "ів", "їв", "ей", "ом", "ем", "єм", "ою", "ею", "єю",
    // verbs
    "ати", "яти", "ити", "іти", "ти", "ють", "ать", "ять", "ить", "уть", "ете", "ите", "емо",
    "имо", "ає", "ує", "ю",
    // single letters
    "а", "я", "у", "і", "ї", "и", "о", "е", "є", "ь",
  ].sorted { $0.count > $1.count }

  public static func stem(_ word: String) -> String {
    let letters = Array(word)
    for ending in endings where ending.count < letters.count - 2 {
      if word.hasSuffix(ending) {
        return String(letters.dropLast(ending.count))
      }
    }
    return word
  }
}
