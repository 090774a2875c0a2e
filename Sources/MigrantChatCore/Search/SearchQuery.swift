/// A query as the searches use it: its words as keys, other names of cities
/// replaced by the Czech ones, small words left out, each word with its stems
/// and the typos it may have; the names of office kinds (`OfficeKinds`) and
/// postcodes as groups of words that match in several ways.
public struct SearchQuery: Sendable, Hashable {
  public struct Term: Sendable, Hashable {
    /// `SearchText.key` of the word (or of the Czech city name it stands for).
    public var key: String
    /// Keys of the word's stems that differ from `key`, three letters or more.
    public var stems: [String]
    /// Edits a matching word may be away (0 for short words and numbers).
    public var typos: Int
    /// Only an equal key matches, not one the word starts (an acronym: "up").
    public var wholeWord = false
    /// The word as typed, to name it ("Opava" matches no office); empty for the
    /// words an office kind or a postcode stands for.
    public var word = ""
  }

  /// Words that match in any of several ways: a contact matches the group when
  /// it matches every term of one alternative. The first alternative is the
  /// words as typed.
  public struct Group: Sendable, Hashable {
    public var alternatives: [[Term]]
  }

  /// The words that are not in a group.
  public var terms: [Term]
  public var groups: [Group] = []

  /// The most of a query that is read: longer text is cut, so a pasted page
  /// costs what a sentence does.
  public static let maxCharacters = 200
  public static let maxTerms = 8

  public var isEmpty: Bool { terms.isEmpty && groups.isEmpty }

  /// How many words and groups the query has.
  public var unitCount: Int { terms.count + groups.count }

  /// Whether the query has a word of three letters or more, or a group: a reading
  /// in another keyboard layout that has not (`"C` for "ЄС", `:RU` for "ЖКГ")
  /// would match by the start of a word alone, which says nothing.
  public var isSubstantial: Bool { !groups.isEmpty || terms.contains { $0.key.count >= 3 } }

  /// The words as typed of each word and group, in order (`terms`, then `groups`).
  public var typedWords: [String] {
    terms.map(\.word)
      + groups.map { $0.alternatives.first?.map(\.word).joined(separator: " ") ?? "" }
  }

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
    terms = Array(terms.filter { seen.insert($0.key).inserted }.prefix(Self.maxTerms))
    (self.terms, self.groups) = Self.grouped(terms)
  }

  /// `terms` with office kinds' names and postcodes made groups.
  static func grouped(_ terms: [Term]) -> ([Term], [Group]) {
    var plain: [Term] = []
    var groups: [Group] = []
    var index = 0
    while index < terms.count {
      if let (length, kinds) = OfficeKinds.match(terms, at: index) {
        // As typed, but without stems or typos: a name recognized says more than
        // words that share a stem with others ("миграционная полиция" is not
        // "миграционной политики"); its other forms are among the kind's names.
        let typed = terms[index..<index + length].map {
          // An acronym as typed is a whole word too: "ÚP" does not start "управление".
          Term(key: $0.key, stems: $0.stems, typos: 0, wholeWord: $0.key.count < 4, word: $0.word)
        }
        var alternatives = [typed]
        for kind in kinds {
          alternatives += OfficeKinds.alternatives[kind].filter { !alternatives.contains($0) }
        }
        groups.append(Group(alternatives: alternatives))
        index += length
      } else if let (length, group) = postcode(terms, at: index) {
        groups.append(group)
        index += length
      } else {
        plain.append(terms[index])
        index += 1
      }
    }
    return (plain, groups)
  }

  /// A Czech postcode, as written on letters (`602 00`) or not (`60200`): a group
  /// that matches either way, and how many terms it took.
  static func postcode(_ terms: [Term], at index: Int) -> (Int, Group)? {
    func digits(_ term: Term, _ count: Int) -> Bool {
      term.key.utf8.count == count && term.key.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }
    func number(_ key: String) -> Term { Term(key: key, stems: [], typos: 0, wholeWord: true) }
    let term = terms[index]
    if digits(term, 5) {
      let split = [number(String(term.key.prefix(3))), number(String(term.key.suffix(2)))]
      var typed = number(term.key)
      typed.word = term.word
      return (1, Group(alternatives: [[typed], split]))
    }
    if digits(term, 3), index + 1 < terms.count, digits(terms[index + 1], 2) {
      var pair = [number(term.key), number(terms[index + 1].key)]
      (pair[0].word, pair[1].word) = (term.word, terms[index + 1].word)
      return (2, Group(alternatives: [pair, [number(term.key + terms[index + 1].key)]]))
    }
    return nil
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
      typos: isNumber ? 0 : EditDistance.allowedTypos(letters: lower.count), word: word)
  }
}
