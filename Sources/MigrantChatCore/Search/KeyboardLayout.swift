/// Text typed with the wrong keyboard layout on, read as it was meant: a
/// Russian or Ukrainian word typed on the Latin layout (`ghfuf` is прага,
/// `,hyj` is брно: the comma is the key of б), or a Czech or English word typed
/// on the Cyrillic one (`иктщ` is brno).
///
/// The layouts are the standard ones against US QWERTY: Russian ЙЦУКЕН (the
/// Windows and X11 `ru` layout) and Ukrainian (X11 `ua`, Windows "Ukrainian
/// (Enhanced)": і on the key of ы, ї on ъ, є on э, ґ on the backslash key, the
/// apostrophe on the backquote). Keys that type no letter (digits, space) are
/// the same in both, so a postcode or a house number passes through unchanged.
public enum KeyboardLayout: String, Sendable, CaseIterable {
  case russian
  case ukrainian

  /// The QWERTY keys, lowercase then with Shift, and what this layout types on each.
  private var pairs: [(latin: Character, cyrillic: Character)] {
    let letters = Array("qwertyuiopasdfghjklzxcvbnm")
    // Russian and Ukrainian put the same letters on the letter keys but ы/і; the
    // punctuation keys carry the rest.
    let lower = Array(
      self == .russian ? "йцукенгшщзфывапролдячсмить" : "йцукенгшщзфівапролдячсмить")
    var pairs = zip(letters, lower).map { (latin: $0, cyrillic: $1) }
    pairs += pairs.map { (Character($0.latin.uppercased()), Character($0.cyrillic.uppercased())) }
    switch self {
    case .russian:
      pairs += [
        ("[", "х"), ("]", "ъ"), (";", "ж"), ("'", "э"), (",", "б"), (".", "ю"), ("`", "ё"),
        ("{", "Х"), ("}", "Ъ"), (":", "Ж"), ("\"", "Э"), ("<", "Б"), (">", "Ю"), ("~", "Ё"),
      ]
    case .ukrainian:
      pairs += [
        ("[", "х"), ("]", "ї"), (";", "ж"), ("'", "є"), (",", "б"), (".", "ю"), ("\\", "ґ"),
        ("{", "Х"), ("}", "Ї"), (":", "Ж"), ("\"", "Є"), ("<", "Б"), (">", "Ю"), ("|", "Ґ"),
      ]
    }
    return pairs
  }

  /// Latin key → the Cyrillic letter, per layout.
  private static let toCyrillic: [KeyboardLayout: [Character: Character]] = Dictionary(
    uniqueKeysWithValues: allCases.map { layout in
      (
        layout,
        Dictionary(layout.pairs.map { ($0.latin, $0.cyrillic) }, uniquingKeysWith: { a, _ in a })
      )
    })

  /// Cyrillic letter → the Latin key, both layouts together (they differ only in
  /// letters the other lacks).
  private static let toLatin: [Character: Character] = {
    var map: [Character: Character] = [:]
    for layout in allCases {
      for pair in layout.pairs where map[pair.cyrillic] == nil { map[pair.cyrillic] = pair.latin }
    }
    // The Ukrainian apostrophe key is the backquote; ё is on it in Russian.
    map["ʼ"] = "`"
    return map
  }()

  /// Whether a chunk of text is Cyrillic: then it is read as the Latin keys.
  static func isCyrillic(_ chunk: Substring) -> Bool {
    chunk.unicodeScalars.contains { (0x400...0x4FF).contains($0.value) }
  }

  /// `chunk` read as the keys it was typed on, in this layout: a Latin chunk as
  /// Cyrillic, a Cyrillic one as Latin. Nil when nothing would change.
  public func switched(_ chunk: Substring) -> String? {
    var changed = false
    var result = ""
    result.reserveCapacity(chunk.utf8.count * 2)
    let cyrillic = Self.isCyrillic(chunk)
    let map = cyrillic ? Self.toLatin : (Self.toCyrillic[self] ?? [:])
    for character in chunk {
      if let other = map[character] {
        result.append(other)
        changed = true
      } else {
        result.append(character)
      }
    }
    return changed ? result : nil
  }

  /// The whole text switched, chunk by chunk (whitespace kept).
  public func switched(_ text: String) -> String? {
    let chunks = Self.chunks(text)
    var changed = false
    let result = chunks.map { chunk -> String in
      guard !chunk.allSatisfy(\.isWhitespace), let other = switched(chunk) else {
        return String(chunk)
      }
      changed = true
      return other
    }.joined()
    return changed ? result : nil
  }

  /// The text's runs of whitespace and of everything else, in order.
  static func chunks(_ text: String) -> [Substring] {
    var chunks: [Substring] = []
    var start = text.startIndex
    var index = text.startIndex
    while index < text.endIndex {
      let next = text.index(after: index)
      if next < text.endIndex && text[index].isWhitespace != text[next].isWhitespace {
        chunks.append(text[start..<next])
        start = next
      }
      index = next
    }
    if start < text.endIndex { chunks.append(text[start...]) }
    return chunks
  }

  /// The readings of `text` worth a search: chunk by chunk (`reading`), then
  /// all of it in each layout (a name of two words, "vsuhfwsqyf cke;,f" for
  /// "міграційна служба", reads as a whole what neither word does alone); each
  /// once, never the text as typed. `preferring` comes first where the two
  /// layouts read alike (the interface's language: "зайнятості", not
  /// "зайнятосты").
  public static func readings(
    of text: String, preferring: KeyboardLayout = .russian, strength: (String) -> Int?
  ) -> [String] {
    // Each chunk looked up once, though both the check below and `reading` ask.
    var looked: [String: Int?] = [:]
    func remembered(_ chunk: String) -> Int? {
      if let known = looked[chunk] { return known }
      let found = strength(chunk)
      looked[chunk] = .some(found)
      return found
    }
    var readings: [String] = []
    // The whole text switched only when no word of three letters or more matches as
    // typed: "qwqwqw usti nad labem" is not "йцйцйц гыеш тфв дфиуь" (which costs a
    // search of every garbled word's typos, and finds nothing).
    let text = String(text.prefix(SearchQuery.maxCharacters))
    let typedRight = chunks(text).contains { chunk in
      guard SearchText.keys(String(chunk)).joined().count >= 3,
        let found = remembered(String(chunk))
      else { return false }
      return found < KeyVocabulary.Match.typo.rawValue
    }
    let whole = typedRight ? [] : order(preferring).map { $0.switched(text) }
    for reading in [reading(of: text, preferring: preferring, strength: remembered)] + whole {
      if let reading, reading != text, !readings.contains(reading) { readings.append(reading) }
    }
    return readings
  }

  /// The layout people with this interface language type in, when either would do.
  public static func preferred(for language: Language) -> KeyboardLayout {
    language == .uk ? .ukrainian : .russian
  }

  private static func order(_ preferring: KeyboardLayout) -> [KeyboardLayout] {
    [preferring] + allCases.filter { $0 != preferring }
  }

  /// The best reading of `text` as a person meant it, chunk by chunk: a chunk
  /// stays as typed unless one of the layouts reads it as something `strength`
  /// finds better (lower is better; nil, nothing). Nil when every chunk stays.
  ///
  /// Chunk by chunk, so a query typed half in the wrong layout ("ghfuf
  /// cizinecka policie") is read as meant. A chunk of one or two letters goes
  /// with the others: "d ,hys" is "в брні", though "d" alone is a word start.
  public static func reading(
    of text: String, preferring: KeyboardLayout = .russian, strength: (String) -> Int?
  ) -> String? {
    guard text.count <= SearchQuery.maxCharacters else {
      return reading(
        of: String(text.prefix(SearchQuery.maxCharacters)), preferring: preferring,
        strength: strength)
    }
    let layouts = order(preferring)
    var switchedBy: (layout: KeyboardLayout, fromCyrillic: Bool)?
    var chunks = chunks(text).map { chunk in
      (typed: chunk, text: String(chunk), switched: false, known: false)
    }
    // The words a query reads (8) and the spaces between: the rest stays as typed.
    for index in chunks.indices.prefix(SearchQuery.maxTerms * 2 + 1)
    where !chunks[index].typed.allSatisfy(\.isWhitespace) {
      let chunk = chunks[index].typed
      let typed = strength(String(chunk))
      chunks[index].known = typed != nil
      var best: (text: String, strength: Int, layout: KeyboardLayout)?
      for layout in layouts {
        guard let other = layout.switched(chunk), let found = strength(other) else { continue }
        if found < (best?.strength ?? typed ?? Int.max) { best = (other, found, layout) }
      }
      guard let best else { continue }
      chunks[index] = (chunk, best.text, true, true)
      switchedBy = switchedBy ?? (best.layout, isCyrillic(chunk))
    }
    guard let switchedBy else { return nil }
    // A short word in the same alphabet as the switched ones goes with them when it
    // matched nothing as typed, or when it is a small word in the other layout ("d"
    // is "в"); "MV ,hyj" keeps its "MV", "в ghfut" its "в".
    for index in chunks.indices where !chunks[index].switched {
      let chunk = chunks[index].typed
      guard chunk.count <= 2, isCyrillic(chunk) == switchedBy.fromCyrillic,
        let other = switchedBy.layout.switched(chunk),
        !chunks[index].known || StopWords.contains(key: SearchText.key(other))
      else { continue }
      chunks[index].text = other
    }
    return chunks.map(\.text).joined()
  }
}
