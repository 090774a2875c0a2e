/// A query as the searches use it: its words as keys, other names of cities
/// replaced by the Czech ones, small words left out, each word with its stems
/// and the typos it may have.
public struct SearchQuery: Sendable, Hashable {
  public struct Term: Sendable, Hashable {
    /// `SearchText.key` of the word (or of the Czech city name it stands for).
    public var key: String
    /// Keys of the word's stems that differ from `key`, three letters or more.
    public var stems: [String]
    /// Edits a matching word may be away (0 for short words and numbers).
    public var typos: Int
  }

  public var terms: [Term]

  /// The most of a query that is read: longer text is cut, so a pasted page
  /// costs what a sentence does.
  public static let maxCharacters = 200
  public static let maxTerms = 8

  public var isEmpty: Bool { terms.isEmpty }

  public init(_ text: String, stemmer: any WordStemmer = LightStemmer()) {
    let words = SearchText.words(String(text.prefix(Self.maxCharacters)))
    let keyed = words.map { (word: $0, key: SearchText.key($0)) }.filter { !$0.key.isEmpty }
    // Other names of cities first: "Mährisch Ostrau" is two words for one key sequence.
    let keys = keyed.map(\.key)
    let replaced = PlaceNames.replacingExonyms(keys)
    var terms: [Term]
    if replaced == keys {
      terms = keyed.map { Self.term(word: $0.word, key: $0.key, stemmer: stemmer) }
    } else {
      // Words that were a city's other name are now the Czech name's keys, not stemmed.
      let original = Dictionary(keyed.map { ($0.key, $0.word) }, uniquingKeysWith: { a, _ in a })
      terms = replaced.map { key in
        original[key].map { Self.term(word: $0, key: key, stemmer: stemmer) }
          ?? Term(key: key, stems: [], typos: 0)
      }
    }
    let content = terms.filter { !StopWords.contains(key: $0.key) }
    if !content.isEmpty { terms = content }
    var seen = Set<String>()
    self.terms = Array(terms.filter { seen.insert($0.key).inserted }.prefix(Self.maxTerms))
  }

  static func term(word: String, key: String, stemmer: any WordStemmer) -> Term {
    let lower = word.lowercased().filter { $0.isLetter || $0.isNumber }
    let isNumber = key.allSatisfy(\.isNumber)
    var stems: [String] = []
    if !isNumber {
      let isCyrillic = lower.unicodeScalars.contains { (0x400...0x4FF).contains($0.value) }
      let languages: [StemLanguage] = isCyrillic ? [.russian, .ukrainian] : [.english]
      for language in languages {
        let stem = SearchText.key(stemmer.stem(lower, language: language))
        if stem.count >= 3 && stem != key && !stems.contains(stem) { stems.append(stem) }
      }
    }
    return Term(
      key: key, stems: stems,
      typos: isNumber ? 0 : EditDistance.allowedTypos(letters: lower.count))
  }
}
