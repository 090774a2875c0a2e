/// Russian and Ukrainian written in Latin letters, read back into Cyrillic: the
/// standards' spellings and the chat ones (zh/j, kh/h/x, ch/4, sh/w, ya/ja/ia,
/// shch/sch, y/i, ts/c, Czech-style š ž č, ISO 9's diacritics). A spelling reads
/// several ways (i is и, і or й; y is ы, и or й; h is х or г), and ь, ъ and the
/// Ukrainian apostrophe are often left out: each word is read every way the
/// language's word table has a word starting so, and the most common word wins.
struct LatinLetters: Sendable {
  /// Latin spellings (lowercase) and the Cyrillic each may stand for, as table keys.
  private let rules: [[UInt8]: [[UInt8]]]
  private let longest: Int
  private let language: Language
  /// A word may be read at most this many ways part-way (a guard on odd input).
  static let maxStates = 400

  init(language: Language) {
    self.language = language
    var rules: [String: [String]] = Self.common
    for (latin, cyrillic) in language == .uk ? Self.ukrainian : Self.russian {
      rules[latin] = cyrillic
    }
    // ASCII spellings by their bytes; letters with diacritics by scalar (`scalarRules`).
    self.rules = Dictionary(
      uniqueKeysWithValues: rules.map { latin, readings in
        (Array(latin.utf8), readings.compactMap { WordTable.key($0) })
      })
    self.longest = rules.keys.map(\.unicodeScalars.count).max() ?? 1
    self.scalarRules = Dictionary(
      uniqueKeysWithValues: Self.accented.map {
        ($0.key, $0.value.compactMap { WordTable.key($0) })
      })
  }

  private let scalarRules: [Unicode.Scalar: [[UInt8]]]

  /// Whether a letter is one a Latin spelling of Russian or Ukrainian uses.
  static func isReadable(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x61...0x7A, 0x27, 0x60, 0x34, 0x2D: return true
    default: return accented[scalar] != nil
    }
  }

  /// The most common word `word` (lowercase, its apostrophes `'`) may be, with its Zipf
  /// frequency in `table` (or in `extra`, the conversation's own words, when more).
  func read(_ word: String, table: WordTable, extra: WordTable?) -> (key: [UInt8], zipf: Double)? {
    let scalars = Array(word.unicodeScalars)
    guard !scalars.isEmpty, scalars.count <= 40 else { return nil }
    var known: [[UInt8]: Bool] = [:]
    func open(_ prefix: [UInt8]) -> Bool {
      if let seen = known[prefix] { return seen }
      let found = table.hasPrefix(prefix) || extra?.hasPrefix(prefix) == true
      known[prefix] = found
      return found
    }
    // states[i]: the readings of the first i letters that some word starts with, and
    // what each cost: a spelling's less usual reading (i as й, j as ж) and a soft
    // sign not typed cost a little, so the usual reading wins between words as common.
    var states: [[[UInt8]: Double]] = Array(repeating: [:], count: scalars.count + 1)
    states[0] = [[]: 0]
    var made = 0
    func add(_ key: [UInt8], cost: Double, at position: Int) {
      // A whole reading of five letters or more is kept though no word starts so: it
      // may be a form of one the table holds in others (`inflectedZipf`).
      guard open(key) || (position == scalars.count && key.count >= 5) else { return }
      if let before = states[position][key], before <= cost { return }
      states[position][key] = cost
      made += 1
    }
    for position in 0..<scalars.count {
      for (prefix, cost) in states[position] {
        for (length, outputs) in expansions(scalars, at: position) {
          for (rank, output) in outputs.enumerated() {
            let next = prefix + output
            let spent = cost + Double(rank) * Self.rankCost
            add(next, cost: spent, at: position + length)
            // A soft sign (or the Ukrainian apostrophe) people leave out after a consonant.
            if let last = next.last, Self.consonants.contains(last) {
              for sign in language == .uk ? Self.ukrainianSigns : Self.russianSigns {
                add(next + [sign], cost: spent + Self.signCost, at: position + length)
              }
            }
          }
        }
        if made > Self.maxStates { break }
      }
      if made > Self.maxStates { break }
    }
    var best: (key: [UInt8], zipf: Double)?
    func consider(_ key: [UInt8], _ zipf: Double) {
      if let current = best,
        zipf < current.zipf || (zipf == current.zipf && !key.lexicographicallyPrecedes(current.key))
      {
        return
      }
      best = (key, zipf)
    }
    for (key, cost) in states[scalars.count] {
      let zipf = max(table.zipf(key: key) ?? 0, extra?.zipf(key: key) ?? 0)
      if zipf > 0 { consider(key, zipf - cost) }
    }
    // No word read exactly: a form of one the table holds in other forms.
    if best == nil {
      // The cheapest few readings only: each is a scan of the table (#48's 1 ms budget).
      let cheapest = states[scalars.count].sorted { $0.value < $1.value }.prefix(8)
      for (key, cost) in cheapest {
        if let zipf = table.inflectedZipf(key: key) { consider(key, zipf - cost) }
      }
    }
    return best
  }

  /// What reading a spelling its second (third…) way costs, in Zipf.
  static let rankCost = 0.3
  /// What a soft sign or apostrophe not typed costs.
  static let signCost = 0.2

  /// The spellings that start at `position`: how many letters each takes, and what it reads as.
  private func expansions(_ scalars: [Unicode.Scalar], at position: Int) -> [(Int, [[UInt8]])] {
    var found: [(Int, [[UInt8]])] = []
    if let accented = scalarRules[scalars[position]] { found.append((1, accented)) }
    var latin: [UInt8] = []
    for length in 1...longest where position + length <= scalars.count {
      let scalar = scalars[position + length - 1]
      guard scalar.isASCII else { break }
      latin.append(UInt8(scalar.value))
      if let outputs = rules[latin] { found.append((length, outputs)) }
    }
    return found
  }

  private static let consonants: Set<UInt8> = Set(
    "бвгґджзклмнпрстфхцчшщ".unicodeScalars.compactMap { WordTable.code($0) })
  // ъ is never left out at the end of a word (only pre-1918 spelling had it there);
  // before я, е, ё, ю it comes with them (`ya` is also ъя).
  private static let russianSigns: [UInt8] = ["ь"].compactMap { WordTable.code($0) }
  private static let ukrainianSigns: [UInt8] = ["ь", "'"].compactMap { WordTable.code($0) }

  /// Spellings both languages share.
  private static let common: [String: [String]] = [
    "a": ["а"], "b": ["б"], "v": ["в"], "w": ["в", "ш"], "d": ["д"], "z": ["з"], "k": ["к"],
    "l": ["л"], "m": ["м"], "n": ["н"], "o": ["о"], "p": ["п"], "r": ["р"], "s": ["с"],
    "t": ["т"], "u": ["у"], "f": ["ф"], "c": ["ц", "к", "с", "ч"], "x": ["х", "кс"], "q": ["к"],
    "4": ["ч"], "zh": ["ж"], "kh": ["х"], "ch": ["ч", "х"], "sh": ["ш", "щ"], "shch": ["щ"],
    "sch": ["щ", "сч"], "ts": ["ц", "тс"], "tz": ["ц"], "cz": ["ч", "ц"], "-": ["-"],
  ]

  private static let russian: [String: [String]] = [
    "e": ["е", "э", "ё"], "i": ["и", "й", "ы"], "y": ["ы", "й", "и"], "j": ["й", "ж"],
    "g": ["г"], "h": ["х", "г"], "'": ["ь", "ъ"], "`": ["ь", "ъ"],
    "ya": ["я", "ья", "ъя"], "ja": ["я", "ья"], "ia": ["я", "ия", "ья"],
    "yu": ["ю", "ью"], "ju": ["ю"], "iu": ["ю", "ию"],
    "ye": ["е", "ье", "ъе", "ые"], "je": ["е", "ье"], "ie": ["ие", "е", "ье"],
    "yo": ["ё", "йо", "ьё", "ьо"], "jo": ["ё", "йо"], "io": ["ио", "ё", "ьо"],
    "yi": ["ый", "ий"], "iy": ["ий", "ый"], "yy": ["ый"], "ij": ["ий"], "yj": ["ый"],
    "tsa": ["тся", "ться", "ца"], "sa": ["са", "ся"],
    "ii": ["ий"],
  ]

  private static let ukrainian: [String: [String]] = [
    "e": ["е", "є"], "i": ["і", "и", "ї", "й"], "y": ["и", "й", "і"], "j": ["й", "ж"],
    "g": ["г", "ґ"], "h": ["г", "х"], "'": ["ь", "'"], "`": ["'", "ь"],
    "zgh": ["зг"],
    "ya": ["я", "'я", "ья"], "ja": ["я", "'я"], "ia": ["я", "ія", "'я"],
    "yu": ["ю", "'ю"], "ju": ["ю"], "iu": ["ю", "ію"],
    "ye": ["є", "'є", "е"], "je": ["є", "'є"], "ie": ["є", "іє"],
    "yi": ["ї", "ий", "'ї"], "ji": ["ї"], "iy": ["ій", "ий"], "yy": ["ий"], "ij": ["ій"],
    "yo": ["йо", "ьо"], "jo": ["йо"], "io": ["йо", "іо", "ьо"],
  ]

  /// ISO 9's and the Czech-style letters with diacritics.
  private static let accented: [Unicode.Scalar: [String]] = [
    "č": ["ч"], "š": ["ш"], "ž": ["ж"], "ŝ": ["щ"], "ë": ["ё"], "û": ["ю"], "â": ["я"],
    "ê": ["є"], "ï": ["ї"], "ì": ["і"], "è": ["э"], "ʹ": ["ь"], "ʺ": ["ъ"], "ǵ": ["ґ"],
  ]
}
