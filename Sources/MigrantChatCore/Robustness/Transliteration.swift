/// Russian and Ukrainian text in Latin letters, the ways people write it
/// (issue #35: bots trained on Cyrillic fall to `nlu_fallback` on all of them).
///
/// The schemes and their tables:
/// - `iso9`: ISO 9:1995 (GOST 7.79-2000 system A), one Latin letter, with
///   diacritics, per Cyrillic letter: ж ž, х h, ц c, ч č, ш š, щ ŝ, ы y, э è,
///   ю û, я â, є ê, і ì, ї ï, ґ g̀, ь ʹ, ъ ʺ.
/// - `ua-2010`: Ukraine's national transliteration, Resolution of the Cabinet of
///   Ministers of Ukraine No. 55 of 27 January 2010 (the passport system): г h,
///   ґ g, и y, і i, х kh, ц ts, щ shch; є ї й ю я as ye yi y yu ya at the start of
///   a word and ie i i iu ia elsewhere; зг is zgh; ь and the apostrophe are
///   left out. Used for Russian text too, as people with Ukrainian passports do.
/// - `informal`: chat Latin ("translit"), as in the issue's `privet`,
///   `zhitelstvo`: ж zh, х h (Russian) or kh (Ukrainian), ц ts, ч ch, ш sh,
///   щ sch, ы y, ё yo, ю yu, я ya; ь and ъ left out; Ukrainian г h, и y, і i.
/// - `czech`: as a Czech reader spells the sounds (the Czech academic
///   transliteration): ж ž, х ch, ц c, ч č, ш š, щ šč, й j, ю ju, я ja, ё jo,
///   є je, ї ji; Ukrainian г h and и y.
public enum Transliteration: String, Sendable, CaseIterable {
  case iso9
  case ua2010 = "ua-2010"
  case informal
  case czech

  /// `text` in this scheme; letters of other scripts stay, capitals stay capitals.
  public func apply(_ text: String, language: Language) -> String {
    let ukrainian = language == .uk
    var output = ""
    var previous: Character?
    for character in text {
      let lower = Character(character.lowercased())
      let wordStart = previous.map { !($0.isLetter || $0 == "'" || $0 == "’" || $0 == "ʼ") } ?? true
      let spelled: String
      if self == .ua2010, lower == "г", previous.map({ $0.lowercased() == "з" }) == true {
        spelled = "gh"  // зг is zgh, so it does not read as zh
      } else {
        spelled = spelling(lower, ukrainian: ukrainian, wordStart: wordStart) ?? String(character)
      }
      output += character.isUppercase && lower != character ? Self.capitalized(spelled) : spelled
      previous = character
    }
    return output
  }

  /// Chat Latin as people really type it: no two alike. Each letter that people
  /// spell several ways is spelled one of them, drawn from `generator` (ж zh or
  /// j, х h, kh or x, ц ts, c or tz, ч ch or 4, ш sh or w, щ sch, shch or sh,
  /// ы y or i, й y, j or i, я ya, ja or ia, ю yu, ju or iu, ё yo, jo or e, є ye
  /// or je, ї yi or ji, ь left out or '), the others as in `informal`. The
  /// first way is the most common and is drawn half the time.
  public static func chat(
    _ text: String, language: Language, using generator: inout SeededGenerator
  ) -> String {
    var output = ""
    for character in text {
      let lower = Character(character.lowercased())
      let spelled: String
      if let ways = (language == .uk ? chatUkrainian[lower] : nil) ?? chatWays[lower] {
        let index =
          ways.count == 1 || Bool.random(using: &generator)
          ? 0 : Int.random(in: 1..<ways.count, using: &generator)
        spelled = ways[index]
      } else {
        spelled =
          Transliteration.informal.spelling(lower, ukrainian: language == .uk, wordStart: false)
          ?? String(character)
      }
      output += character.isUppercase && lower != character ? capitalized(spelled) : spelled
    }
    return output
  }

  private static let chatWays: [Character: [String]] = [
    "ж": ["zh", "j"], "х": ["h", "kh", "x"], "ц": ["ts", "c", "tz"], "ч": ["ch", "4"],
    "ш": ["sh", "w"], "щ": ["sch", "shch", "sh"], "ы": ["y", "i"], "й": ["y", "j", "i"],
    "я": ["ya", "ja", "ia"], "ю": ["yu", "ju", "iu"], "ё": ["yo", "jo", "e"],
    "є": ["ye", "je"], "ї": ["yi", "ji"], "ь": ["", "'"],
  ]

  private static let chatUkrainian: [Character: [String]] = [
    "г": ["h", "g"], "и": ["y", "i"], "х": ["kh", "h", "x"],
  ]

  private static func capitalized(_ text: String) -> String {
    text.prefix(1).uppercased() + text.dropFirst()
  }

  /// One lowercase letter in this scheme; nil for what is not a Russian or Ukrainian letter.
  func spelling(_ letter: Character, ukrainian: Bool, wordStart: Bool) -> String? {
    if let common = Self.common[letter] { return common }
    switch self {
    case .iso9: return Self.iso9Table[letter]
    case .ua2010:
      if let positional = Self.ua2010Positional[letter] {
        return wordStart ? positional.initial : positional.other
      }
      return Self.ua2010Table[letter]
    case .informal:
      if ukrainian, let own = Self.informalUkrainian[letter] { return own }
      return Self.informalTable[letter]
    case .czech:
      if ukrainian, let own = Self.czechUkrainian[letter] { return own }
      return Self.czechTable[letter]
    }
  }

  /// Letters every scheme spells alike.
  private static let common: [Character: String] = [
    "а": "a", "б": "b", "в": "v", "д": "d", "е": "e", "з": "z", "к": "k", "л": "l", "м": "m",
    "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f",
  ]

  private static let iso9Table: [Character: String] = [
    "г": "g", "ґ": "g̀", "ё": "ë", "є": "ê", "ж": "ž", "и": "i", "і": "ì", "ї": "ï", "й": "j",
    "х": "h", "ц": "c", "ч": "č", "ш": "š", "щ": "ŝ", "ъ": "ʺ", "ы": "y", "ь": "ʹ", "э": "è",
    "ю": "û", "я": "â", "'": "’", "’": "’", "ʼ": "’",
  ]

  private static let ua2010Table: [Character: String] = [
    "г": "h", "ґ": "g", "ё": "io", "ж": "zh", "и": "y", "і": "i", "х": "kh", "ц": "ts",
    "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e", "'": "", "’": "",
    "ʼ": "",
  ]

  private static let ua2010Positional: [Character: (initial: String, other: String)] = [
    "є": ("ye", "ie"), "ї": ("yi", "i"), "й": ("y", "i"), "ю": ("yu", "iu"), "я": ("ya", "ia"),
  ]

  private static let informalTable: [Character: String] = [
    "г": "g", "ґ": "g", "ё": "yo", "є": "ye", "ж": "zh", "и": "i", "і": "i", "ї": "yi",
    "й": "y", "х": "h", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "sch", "ъ": "", "ы": "y",
    "ь": "", "э": "e", "ю": "yu", "я": "ya", "'": "", "’": "", "ʼ": "",
  ]

  private static let informalUkrainian: [Character: String] = ["г": "h", "и": "y", "х": "kh"]

  private static let czechTable: [Character: String] = [
    "г": "g", "ґ": "g", "ё": "jo", "є": "je", "ж": "ž", "и": "i", "і": "i", "ї": "ji",
    "й": "j", "х": "ch", "ц": "c", "ч": "č", "ш": "š", "щ": "šč", "ъ": "", "ы": "y", "ь": "",
    "э": "e", "ю": "ju", "я": "ja", "'": "", "’": "", "ʼ": "",
  ]

  private static let czechUkrainian: [Character: String] = ["г": "h", "и": "y"]
}
