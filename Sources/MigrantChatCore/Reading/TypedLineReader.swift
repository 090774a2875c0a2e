/// The word tables a typed line is read with (`Tools/wordfreq`): English, Czech
/// (diacritics folded), Russian and Ukrainian.
public struct WordTables: Sendable {
  public let english: WordTable
  public let czech: WordTable
  public let russian: WordTable
  public let ukrainian: WordTable

  public init(english: WordTable, czech: WordTable, russian: WordTable, ukrainian: WordTable) {
    self.english = english
    self.czech = czech
    self.russian = russian
    self.ukrainian = ukrainian
  }

  func table(_ language: Language) -> WordTable {
    switch language {
    case .en: english
    case .ru: russian
    case .uk: ukrainian
    }
  }
}

/// A line read as it was meant, and how it had been typed.
public struct LineReading: Sendable, Hashable {
  public enum Way: String, Sendable {
    /// Russian or Ukrainian typed with the English layout on (`ghbdtn`).
    case englishLayout = "english-layout"
    /// Russian or Ukrainian in Latin letters (`privet`, `posvidka`).
    case latinLetters = "latin-letters"
    /// English typed with the Russian or Ukrainian layout on (`руддщ`).
    case cyrillicLayout = "cyrillic-layout"
  }

  public let typed: String
  public let text: String
  public let way: Way

  public init(typed: String, text: String, way: Way) {
    self.typed = typed
    self.text = text
    self.way = way
  }
}

/// Reads a line typed for the bot before it is sent (issue #48): a line typed with
/// the wrong keyboard layout, or Russian and Ukrainian in Latin letters, is read
/// into the conversation's language when its reading is words of that language and
/// the line as typed is not words of any language the chat expects (English,
/// Czech with or without diacritics, Russian, Ukrainian).
///
/// Decided by word frequencies: each word's Zipf frequency (3 is once in a million
/// words) as typed, in English or Czech, against its reading's in the conversation's
/// language. The reading is used when every word reads as a word and the reading
/// is clearly the commoner (`margin`). Never read: e-mails, web addresses, numbers
/// and codes, acronyms (VZP, OAMP), words with Czech diacritics, names the caller
/// knows (`isName`), a line of capitalised words (a name: "Olena Kovalenko").
public struct TypedLineReader: Sendable {
  private let tables: WordTables
  /// The Latin spellings' rules, made the first time a line is read in Latin
  /// letters (not at the chat's start: #50's budget).
  private static let russianLetters = LatinLetters(language: .ru)
  private static let ukrainianLetters = LatinLetters(language: .uk)
  /// A typed word counts as English or Czech from this Zipf frequency up: the lists
  /// hold Russian chat words (`privet` is 2.3 in English) below it.
  static let typedFloor = 3.0
  /// How much commoner (summed Zipf) the reading must be than the line as typed.
  static let margin = 2.5

  public init(tables: WordTables) {
    self.tables = tables
  }

  /// The reading of `line` in `language`, nil when it is sent as typed.
  /// `conversation`: the bot's own words in this conversation (they count as
  /// common words of the language); `isName`: names and places the directory knows.
  public func reading(
    of line: String, language: Language, conversation: WordTable? = nil,
    isName: (String) -> Bool = { _ in false }
  ) -> LineReading? {
    let text = line.trimmingWhitespace()
    guard !text.isEmpty, text.count <= 500, !text.hasPrefix("/") else { return nil }
    let chunks = KeyboardLayout.chunks(text)
    let hasCyrillic = text.unicodeScalars.contains { (0x400...0x4FF).contains($0.value) }
    let hasLatin = text.unicodeScalars.contains { $0.properties.isAlphabetic && $0.isASCII }
    var candidates: [(reading: String, gain: Double, way: LineReading.Way)] = []
    if language == .en {
      guard hasCyrillic else { return nil }
      if let found = read(
        chunks, way: .cyrillicLayout, language: language, extra: conversation, isName: isName)
      {
        candidates.append((found.text, found.gain, .cyrillicLayout))
      }
    } else {
      guard hasLatin else { return nil }
      // A line begun in Cyrillic and gone on with the English layout ("нужна
      // cnhf[jdrf") is read from where it went wrong; Latin letters are not mixed so.
      for way in hasCyrillic ? [.englishLayout] : [LineReading.Way.englishLayout, .latinLetters] {
        if let found = read(
          chunks, way: way, language: language, extra: conversation, isName: isName)
        {
          candidates.append((found.text, found.gain, way))
        }
      }
    }
    guard let best = candidates.max(by: { $0.gain < $1.gain }), best.reading != text else {
      return nil
    }
    return LineReading(typed: text, text: best.reading, way: best.way)
  }

  /// Whether every word of `line` is a common English word (as typed): such a line in
  /// an English chat is asked about nothing more.
  public func isEnglish(_ line: String) -> Bool {
    let words = line.lowercased().split { !$0.isLetter && $0 != "'" }
    return !words.isEmpty
      && words.allSatisfy { (tables.english.zipf(String($0)) ?? 0) >= Self.typedFloor }
  }

  /// The language of a line typed in Cyrillic: Ukrainian or Russian, by its letters
  /// (і ї є ґ; ы э ъ ё) and else by which language's words it is; nil when it is
  /// not words of either (or not Cyrillic).
  public func cyrillicLanguage(of line: String) -> Language? {
    let words = line.lowercased().split { !$0.isLetter && $0 != "'" && $0 != "ʼ" }
      .filter { KeyboardLayout.isCyrillic($0) }
    guard !words.isEmpty else { return nil }
    let letters = Set(words.joined())
    if !letters.isDisjoint(with: "іїєґ") { return .uk }
    if !letters.isDisjoint(with: "ыэъё") { return .ru }
    var russian = 0.0
    var ukrainian = 0.0
    for word in words {
      russian += tables.russian.zipf(String(word)) ?? 0
      ukrainian += tables.ukrainian.zipf(String(word)) ?? 0
    }
    guard max(russian, ukrainian) >= Self.typedFloor else { return nil }
    return ukrainian > russian ? .uk : .ru
  }

  /// The reading of the chunks one way, and how much commoner it is than as typed;
  /// nil when some word does not read, or the reading is not clearly commoner.
  private func read(
    _ chunks: [Substring], way: LineReading.Way, language: Language, extra: WordTable?,
    isName: (String) -> Bool
  ) -> (text: String, gain: Double)? {
    let target = tables.table(language)
    var output = ""
    var typedSum = 0.0
    var readSum = 0.0
    var words = 0
    // Words of letters, read or kept, and how many of them start with a capital.
    var lettered = 0
    var capitalised = 0
    var nameInside = false
    for chunk in chunks {
      if chunk.contains(where: \.isLetter) {
        lettered += 1
        if chunk.first?.isUppercase == true {
          capitalised += 1
          // A capitalised word after the first, not an acronym nor a place the tables
          // know: a name or a street ("Oksana", "Vinohradska"), which stays as written.
          if lettered > 1, chunk.dropFirst().first?.isLowercase == true, !isName(Self.core(chunk)) {
            nameInside = true
          }
        }
      }
      // Capitals on the wrong layout: an acronym of the language ("VDL" is МВД) when it
      // reads as a common word of it and is none as typed.
      if way == .englishLayout, chunk.count >= 2,
        chunk.allSatisfy({ $0.isLetter && $0.isUppercase }),
        let switched = KeyboardLayout.preferred(for: language).switched(chunk),
        let zipf = target.zipf(switched.lowercased()), zipf >= Self.typedFloor,
        typedFrequency(chunk, way: way) == 0
      {
        output += switched
        words += 1
        readSum += zipf
        continue
      }
      if chunk.allSatisfy(\.isWhitespace) || Self.isKept(chunk, way: way)
        || isName(Self.core(chunk)) || (way == .englishLayout && KeyboardLayout.isCyrillic(chunk))
      {
        output += chunk
        continue
      }
      if Self.hasCzechDiacritics(chunk) { return nil }
      guard
        let reading = readChunk(chunk, way: way, language: language, target: target, extra: extra)
      else { return nil }
      words += 1
      typedSum += typedFrequency(chunk, way: way)
      readSum += reading.zipf
      output += reading.text
    }
    guard words > 0 else { return nil }
    // Names in Latin letters ("Olena Kovalenko", "Ivan Petrenko") stay as written.
    if way == .latinLetters && ((lettered >= 2 && capitalised == lettered) || nameInside) {
      return nil
    }
    let gain = readSum - typedSum
    guard gain >= Self.margin else { return nil }
    return (output, gain)
  }

  /// How common the chunk is as typed, in a language the chat expects other than
  /// the reading's: 0 below `typedFloor`.
  private func typedFrequency(_ chunk: Substring, way: LineReading.Way) -> Double {
    let word = Self.core(chunk).lowercased()
    guard !word.isEmpty else { return 0 }
    var found = 0.0
    switch way {
    case .englishLayout, .latinLetters:
      found = max(
        tables.english.zipf(word) ?? 0, tables.czech.zipf(Self.folded(word)) ?? 0)
    case .cyrillicLayout:
      found = max(tables.russian.zipf(word) ?? 0, tables.ukrainian.zipf(word) ?? 0)
    }
    return found >= Self.typedFloor ? found : 0
  }

  /// One chunk read: its text and the Zipf frequency of its words (summed), nil
  /// when a word in it is not a word of the language.
  private func readChunk(
    _ chunk: Substring, way: LineReading.Way, language: Language, target: WordTable,
    extra: WordTable?
  ) -> (text: String, zipf: Double)? {
    switch way {
    case .latinLetters:
      guard language != .en else { return nil }
      let reader = language == .uk ? Self.ukrainianLetters : Self.russianLetters
      let (lead, core, trail) = Self.split(chunk)
      var word = core.lowercased().replacingOccurrences(of: "šč", with: "shch")
      word = String(word.map { $0 == "’" || $0 == "ʼ" ? "'" : $0 })
      guard !word.isEmpty, word.unicodeScalars.allSatisfy(LatinLetters.isReadable),
        word.contains(where: \.isLetter),
        let found = reader.read(word, table: target, extra: extra)
      else { return nil }
      var text = WordTable.word(found.key)
      // An acronym in Latin letters ("VNZh", "MVD") is one in Cyrillic: ВНЖ, МВД.
      if core.count > 1 && core.prefix(2).allSatisfy({ !$0.isLetter || $0.isUppercase }) {
        text = text.uppercased()
      } else if core.first?.isUppercase == true {
        text = text.prefix(1).uppercased() + text.dropFirst()
      }
      return (lead + text + trail, found.zipf)
    case .englishLayout:
      let layout = KeyboardLayout.preferred(for: language)
      // As typed, then with a stop or comma at the end kept as typed ("ghbdtn," is
      // "привет,", though the comma key is б).
      var tries = [chunk]
      if let last = chunk.last, ".,;".contains(last), chunk.count > 1 {
        tries.append(chunk.dropLast())
      }
      for (index, typed) in tries.enumerated() {
        guard var switched = layout.switched(typed) else { continue }
        switched = String(
          switched.map { character in
            // The Ukrainian layout's apostrophe is on the backquote key.
            if character == "`" && language == .uk { return "'" }
            return Self.layoutPunctuation[character] ?? character
          })
        if index == 1, let last = chunk.last { switched.append(last) }
        if let zipf = Self.wordsFrequency(switched, in: target, extra: extra) {
          return (switched, zipf)
        }
      }
      return nil
    case .cyrillicLayout:
      guard let switched = KeyboardLayout.russian.switched(chunk),
        let zipf = Self.wordsFrequency(switched, in: target, extra: extra)
      else { return nil }
      return (switched, zipf)
    }
  }

  /// The summed Zipf frequency of the words in `text` (runs of letters and
  /// apostrophes), nil when one is not in the table.
  private static func wordsFrequency(_ text: String, in table: WordTable, extra: WordTable?)
    -> Double?
  {
    var sum = 0.0
    var any = false
    for word in text.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "'" && $0 != "ʼ" })
    {
      let trimmed = word.trimmingCharacters(in: ["'", "ʼ"])
      guard !trimmed.isEmpty else { continue }
      guard let key = WordTable.key(String(trimmed)) else { return nil }
      var zipf = max(table.zipf(key: key) ?? 0, extra?.zipf(key: key) ?? 0)
      if zipf == 0 { zipf = table.inflectedZipf(key: key) ?? 0 }
      guard zipf > 0 else { return nil }
      sum += zipf
      any = true
    }
    return any ? sum : nil
  }

  /// The keys of the punctuation that the Russian and Ukrainian layouts move: what
  /// a person on the wrong layout meant by them.
  private static let layoutPunctuation: [Character: Character] = [
    "/": ".", "?": ",", "&": "?", "^": ":", "$": ";", "@": "\"", "#": "№",
  ]

  /// Chunks kept as typed: addresses, numbers and codes, acronyms.
  static func isKept(_ chunk: Substring, way: LineReading.Way) -> Bool {
    let text = String(chunk)
    if text.contains("://") || text.lowercased().hasPrefix("www.") { return true }
    if let at = text.firstIndex(of: "@"), text[text.index(after: at)...].contains(".") {
      return true
    }
    let letters = chunk.filter(\.isLetter)
    if chunk.contains(where: \.isNumber) {
      // Chat Latin's 4 for ч ("4to") is read; any other digit is a number or a code.
      let digits = chunk.filter(\.isNumber)
      return !(way == .latinLetters && !letters.isEmpty && digits.allSatisfy { $0 == "4" })
    }
    if letters.isEmpty {
      return way != .englishLayout || chunk.allSatisfy { !Self.layoutKeys.contains($0) }
    }
    // An acronym: two letters or more, all capitals (VZP, OAMP, ÚP); not with the
    // layout's letter keys inside (`{B`).
    if letters.count >= 2 && letters.allSatisfy(\.isUppercase) {
      return !(way == .englishLayout && chunk.contains(where: Self.layoutKeys.contains))
    }
    // A domain name: a dot and a top-level domain, at the end or before a path
    // (mvcr.cz, frs.gov.cz/cs/).
    let host = text.split(separator: "/", maxSplits: 1).first.map(String.init) ?? text
    if let dot = host.lastIndex(of: "."), dot != host.startIndex {
      let tld = host[host.index(after: dot)...].lowercased()
      if Self.domains.contains(tld) { return true }
    }
    return false
  }

  private static let layoutKeys: Set<Character> = [
    "[", "]", ";", "'", ",", ".", "`", "{", "}", ":", "\"", "<", ">", "~",
  ]
  private static let domains: Set<String> = [
    "cz", "com", "org", "net", "eu", "ua", "ru", "info", "gov", "io", "sk", "de",
  ]

  /// Czech (or Slovak) letters no Latin spelling of Russian or Ukrainian uses.
  static func hasCzechDiacritics(_ chunk: Substring) -> Bool {
    chunk.contains { "áéíóúůýěřňťďľĺôäÁÉÍÓÚŮÝĚŘŇŤĎĽĹÔÄ".contains($0) }
  }

  /// The chunk without the punctuation around it.
  static func core(_ chunk: Substring) -> String {
    String(split(chunk).core)
  }

  static func split(_ chunk: Substring) -> (lead: Substring, core: Substring, trail: Substring) {
    func isPart(_ character: Character) -> Bool {
      character.isLetter || character.isNumber || character == "'" || character == "’"
        || character == "ʼ" || character == "`"
    }
    let start = chunk.firstIndex(where: isPart) ?? chunk.endIndex
    let end = chunk.lastIndex(where: isPart).map { chunk.index(after: $0) } ?? start
    return (chunk[..<start], chunk[start..<max(start, end)], chunk[max(start, end)...])
  }

  /// Czech as typed without diacritics (the Czech table is folded so).
  static func folded(_ word: String) -> String {
    String(
      String.UnicodeScalarView(
        word.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
          !(0x300...0x36F).contains($0.value)
        }))
  }
}
