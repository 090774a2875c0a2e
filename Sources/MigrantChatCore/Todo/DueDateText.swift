import Foundation

/// Due dates as people type them, and as each language writes them.
///
/// Read in any of the three languages whatever the chat's language is (people
/// mix them). The classes it reads, each with or without a leading "by",
/// "until", "к", "до", "по", "не позже", "не пізніше" (the deadline is the day
/// itself) and with trailing punctuation or "включительно"/"включно":
/// - numbers, day first as in Czechia, Russia and Ukraine (also for English):
///   `1.12.2026`, `1/12/26`, `20-12-2026`, `1.12.` (the next such day); year
///   first: `2026-12-01`, `2026/12/20`;
/// - a day and a month, full or short, with ordinals: `1 December`, `Dec 1st`,
///   `the 1st of December`, `1 дек.`, `20-го декабря`, `15 груд`, `першого грудня`;
///   a day alone: `the 15th`, `до 15-го` (the next such day);
/// - today, tomorrow, the day after, yesterday and their ru/uk words (`tonight`,
///   `завтра утром`, `вчора`);
/// - a weekday (the next one after today): `friday`, `by Fri`, `к пятнице`, `до
///   п'ятниці`; `this friday` (the coming one); `next friday`, `в следующую
///   пятницу`, `наступної п'ятниці`, `friday next week`: that day of next week;
/// - amounts: `in 3 days`, `in a fortnight`, `через полгода`, `через півроку`,
///   `in half a year`, `через полтора месяца`, `через рік`, `two weeks from now`;
///   `next week` (+7 days);
/// - ends: `end of the week` (Friday), `end of the month`, `до конца года`,
///   `this weekend` (Saturday).
/// Small typos in the words are forgiven (`tomorow`, `в пятнцу`).
public enum DueDateText {
  /// The day `text` names, also when typed with the wrong keyboard layout or in
  /// Latin letters (`lj rsywz vsczwz`, `za 2 tyzhni`, #48): read by `reader` into
  /// Ukrainian, Russian or English, or switched to either layout.
  public static func parse(_ text: String, today: DayDate, reader: TypedLineReader?) -> DayDate? {
    if let date = parse(text, today: today) { return date }
    guard let reader, text.count <= 100 else { return nil }
    var readings: [String] = []
    for language in [Language.uk, .ru, .en] {
      if let reading = reader.reading(of: text, language: language) {
        readings.append(reading.text)
      }
    }
    for layout in KeyboardLayout.allCases {
      if let switched = layout.switched(text) { readings.append(switched) }
    }
    return readings.lazy.compactMap { parse($0, today: today) }.first
  }

  /// A deadline at the end of a task's title, as Todoist reads one: "подати заяву до
  /// 15 грудня", "call VZP by Friday", "через 2 тижні" after the task. The phrase
  /// starts with a word that says a deadline ("до", "by", "через"…) or is a date
  /// in numbers; the title keeps at least one word. Nil when there is none.
  public static func trailing(_ title: String, today: DayDate, reader: TypedLineReader? = nil)
    -> (title: String, phrase: String, due: DayDate)?
  {
    let words = title.split(whereSeparator: \.isWhitespace)
    guard words.count >= 2 else { return nil }
    for length in stride(from: min(5, words.count - 1), through: 1, by: -1) {
      let phrase = words.suffix(length).joined(separator: " ")
      let first = String(words[words.count - length]).lowercased()
      // A date in numbers has its separators ("20.12.2026", "1.12."): "Room 15" is no date.
      let numeric =
        phrase.allSatisfy { $0.isNumber || ".-/".contains($0) }
        && phrase.contains(where: \.isNumber) && phrase.contains(where: { ".-/".contains($0) })
      guard
        numeric || deadlineWords.contains(first) || deadlineWords.contains(readFirst(first))
      else { continue }
      if let due = parse(phrase, today: today, reader: reader) {
        return (words.prefix(words.count - length).joined(separator: " "), phrase, due)
      }
    }
    return nil
  }

  /// The first word of a phrase read from the English layout ("lj" is "до").
  private static func readFirst(_ word: String) -> String {
    for layout in KeyboardLayout.allCases {
      if let switched = layout.switched(word), deadlineWords.contains(switched) { return switched }
    }
    return word
  }

  /// Words a deadline phrase starts with.
  static let deadlineWords: Set<String> = [
    "by", "until", "till", "due", "before", "in", "on", "next", "this", "tomorrow", "today",
    "до", "к", "ко", "через", "по", "не", "завтра", "сегодня", "послезавтра", "в", "во", "у",
    "за", "сьогодні", "післязавтра", "наступного", "наступної", "следующей", "следующего",
  ]

  /// The day `text` names, counted from `today`; nil when it cannot be read.
  public static func parse(_ text: String, today: DayDate) -> DayDate? {
    guard text.count <= 100 else { return nil }
    let normalized = normalize(text)
    if let date = numeric(normalized.joined(separator: ""), today: today) { return date }
    var words = normalized.map(strip).filter { !$0.isEmpty }
    words = dropFillers(words)
    guard !words.isEmpty, words.count <= 6 else { return nil }
    let joined = words.joined(separator: " ")
    if let date = DayDate(iso: joined) { return date }
    if let date = numeric(joined, today: today) { return date }
    if let days = dayWords[joined] { return today.adding(days: days) }
    if let date = end(words, today: today) { return date }
    if let date = weekdayDate(words, today: today) { return date }
    if let date = relative(words, today: today) { return date }
    if let date = named(words, today: today) { return date }
    if let date = holiday(words, today: today) { return date }
    let corrected = words.map(corrected)
    guard corrected != words else { return nil }
    let fixed = corrected.joined(separator: " ")
    if let days = dayWords[fixed] { return today.adding(days: days) }
    return weekdayDate(corrected, today: today)
  }

  // MARK: - Words

  /// Lower case, one apostrophe, Latin look-alikes inside Cyrillic words made
  /// Cyrillic, split at spaces and commas.
  private static func normalize(_ text: String) -> [String] {
    let lowered = text.lowercased()
      .replacingOccurrences(of: "’", with: "'").replacingOccurrences(of: "ʼ", with: "'")
      .replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "ё", with: "е")
    return lowered.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," || $0 == "\n" })
      .map { word in
        guard word.contains(where: { ("а"..."я").contains($0) || "іїєґ".contains($0) }) else {
          return String(word)
        }
        return String(word.map { lookAlikes[$0] ?? $0 })
      }
  }

  private static let lookAlikes: [Character: Character] = [
    "i": "і", "e": "е", "o": "о", "a": "а", "c": "с", "p": "р", "x": "х", "y": "у",
  ]

  /// Trailing punctuation off a word (a numeric date keeps its dots).
  private static func strip(_ word: String) -> String {
    var word = Substring(word)
    while let last = word.last, "!?;:)".contains(last) { word = word.dropLast() }
    while let first = word.first, "(".contains(first) { word = word.dropFirst() }
    if word.last == ".", !word.dropLast().allSatisfy({ $0.isNumber || $0 == "." }) {
      word = word.dropLast()
    }
    return String(word)
  }

  /// "by", "until", "к", "до", "не позже", "включно", "утром": they do not move the day.
  private static func dropFillers(_ words: [String]) -> [String] {
    var words = words[...]
    let leading: [[String]] = [
      ["no", "later", "than"], ["not", "later", "than"], ["не", "позже"], ["не", "позднее"],
      ["не", "пізніше"], ["by"], ["until"], ["till"], ["til"], ["due"], ["on"], ["к"], ["ко"],
      ["до"], ["по"],
    ]
    var changed = true
    while changed {
      changed = false
      for phrase in leading where words.count > phrase.count && words.starts(with: phrase) {
        words = words.dropFirst(phrase.count)
        changed = true
      }
    }
    let trailing: Set<String> = [
      "включительно", "включно", "утром", "вечером", "днем", "зранку", "ввечері", "вдень",
      "morning", "evening", "night",
    ]
    var result = Array(words)
    while result.count > 1, let last = result.last, trailing.contains(last) {
      result.removeLast()
      // "tomorrow in the morning".
      while result.count > 1, let last = result.last, ["in", "the"].contains(last) {
        result.removeLast()
      }
    }
    return result
  }

  private static let dayWords: [String: Int] = [
    "today": 0, "tonight": 0, "end of day": 0, "eod": 0, "end of today": 0, "this evening": 0,
    "tomorrow": 1, "tmrw": 1, "tmr": 1, "tomorrow morning": 1,
    "day after tomorrow": 2, "the day after tomorrow": 2,
    "сегодня": 0, "завтра": 1, "послезавтра": 2, "после завтра": 2,
    "сьогодні": 0, "післязавтра": 2, "після завтра": 2,
    // In the past: taken, with the warning every past date gets.
    "yesterday": -1, "day before yesterday": -2, "the day before yesterday": -2,
    "вчера": -1, "позавчера": -2, "вчора": -1, "учора": -1, "позавчора": -2,
    "next week": 7, "на следующей неделе": 7, "следующая неделя": 7, "следующей неделе": 7,
    "наступного тижня": 7, "на наступному тижні": 7, "наступний тиждень": 7,
  ]

  /// Weekday names and their short forms, Monday first, in the three languages
  /// (Russian and Ukrainian in the nominative, accusative, genitive and dative).
  private static let weekdays: [Set<String>] = [
    [
      "monday", "mon", "понедельник", "понедельника", "понедельнику", "пн", "понеділок",
      "понеділка", "понеділку",
    ],
    [
      "tuesday", "tue", "tues", "вторник", "вторника", "вторнику", "вт", "вівторок", "вівторка",
      "вівторку",
    ],
    [
      "wednesday", "wed", "weds", "среда", "среду", "среды", "среде", "ср", "середа", "середу",
      "середи", "середі",
    ],
    [
      "thursday", "thu", "thur", "thurs", "четверг", "четверга", "четвергу", "чт", "четвер",
      "четверга", "четвергу",
    ],
    [
      "friday", "fri", "пятница", "пятницу", "пятницы", "пятнице", "пт", "п'ятниця",
      "п'ятницю", "п'ятниці",
    ],
    [
      "saturday", "sat", "суббота", "субботу", "субботы", "субботе", "сб", "субота", "суботу",
      "суботи", "суботі",
    ],
    [
      "sunday", "sun", "воскресенье", "воскресенья", "воскресенью", "вс", "неділя", "неділю",
      "неділі", "нд",
    ],
  ]

  private static func weekdayNumber(_ word: String) -> Int? {
    weekdays.firstIndex { $0.contains(word) }
  }

  /// Words that make a weekday "of next week", and "of this week".
  private static func isNext(_ word: String) -> Bool {
    word == "next" || word == "след" || word.hasPrefix("следующ") || word.hasPrefix("наступн")
  }
  private static let thisWords: Set<String> = [
    "this", "эту", "этот", "это", "эта", "цю", "цей", "цієї", "цього", "ця", "coming",
  ]
  private static let prepositions: Set<String> = ["on", "в", "во", "у", "the"]

  /// A weekday, alone or with "this", "next", "next week".
  private static func weekdayDate(_ words: [String], today: DayDate) -> DayDate? {
    var words = words.filter { !prepositions.contains($0) }
    // "на этой неделе в пятницу", "this week on friday".
    let thisWeek: [[String]] = [["на", "этой", "неделе"], ["this", "week"], ["цього", "тижня"]]
    var this = removePhrase(thisWeek, from: &words)
    let nextWeekPhrases: [[String]] = [
      ["next", "week"], ["на", "следующей", "неделе"], ["следующей", "недели"],
      ["наступного", "тижня"], ["на", "наступному", "тижні"],
    ]
    // "next week" after the weekday or before it ("на следующей неделе во вторник").
    var nextWeek = removePhrase(nextWeekPhrases, from: &words)
    // "a week on friday": that day of next week.
    if words.count == 3, ["a", "week"] == Array(words.prefix(2)) {
      words.removeFirst(2)
      nextWeek = true
    }
    // A week after the coming one: "monday after next", "a week from friday", "через
    // неделю в пятницу", "в понеділок через тиждень".
    let later: [[String]] = [
      ["after", "next"], ["a", "week", "from"], ["через", "неделю"], ["через", "тиждень"],
    ]
    let weekLater = removePhrase(later, from: &words)
    while words.count >= 2, isNext(words[0]) {
      words.removeFirst()
      nextWeek = true
    }
    // "this friday", "this coming monday".
    while words.count >= 2, thisWords.contains(words[0]) {
      words.removeFirst()
      this = true
    }
    guard words.count == 1, let weekday = weekdayNumber(words[0]) else { return nil }
    if nextWeek {
      // The day in the calendar week after this one (weeks start on Monday).
      return today.adding(days: 7 - today.weekday + weekday)
    }
    let ahead = (weekday - today.weekday + 7) % 7
    return today.adding(days: (ahead == 0 && !this ? 7 : ahead) + (weekLater ? 7 : 0))
  }

  /// Removes each of `phrases` found at either end of `words` (with a word left over);
  /// true when any was.
  private static func removePhrase(_ phrases: [[String]], from words: inout [String]) -> Bool {
    var found = false
    for phrase in phrases where words.count > phrase.count {
      if Array(words.suffix(phrase.count)) == phrase {
        words.removeLast(phrase.count)
        found = true
      } else if words.starts(with: phrase) {
        words.removeFirst(phrase.count)
        found = true
      }
    }
    return found
  }

  /// The end of the week (Friday), of the month, of the year; the weekend (Saturday).
  private static func end(_ words: [String], today: DayDate) -> DayDate? {
    let words = words.filter { !["the", "of", "this", "на", "в", "у"].contains($0) }
    let joined = words.joined(separator: " ")
    let week: Set<String> = [
      "end week", "конца недели", "концу недели", "конец недели", "кінця тижня", "кінець тижня",
    ]
    let monthEnd: Set<String> = [
      "end month", "конца месяца", "концу месяца", "конец месяца", "кінця місяця", "кінець місяця",
    ]
    let yearEnd: Set<String> = [
      "end year", "конца года", "концу года", "конец года", "кінця року", "кінець року",
    ]
    let weekend: Set<String> = ["weekend", "выходные", "выходных", "вихідні", "вихідних"]
    let afterWeekend: Set<String> = [
      "after weekend", "после выходных", "після вихідних", "после выходного",
    ]
    if afterWeekend.contains(joined) {
      // The Monday after it (Monday is weekday 0: a week on from a Monday).
      return today.adding(days: 7 - today.weekday)
    }
    // The end or the middle of a named month: "by the end of December", "до конца
    // декабря", "mid-December", "в середині грудня".
    let parts = words.count == 1 ? words[0].split(separator: "-").map(String.init) : words
    if parts.count == 2, let named = month(parts[1]) {
      let ends: Set<String> = ["end", "конца", "концу", "конец", "кінця", "кінець", "кінці"]
      let middles: Set<String> = [
        "mid", "middle", "середине", "середина", "середины", "середині", "середини",
      ]
      let year = named >= today.month ? today.year : today.year + 1
      if ends.contains(parts[0]) {
        return DayDate(year: year, month: named, day: DayDate.daysIn(month: named, year: year))
      }
      if middles.contains(parts[0]) { return nextOccurrence(month: named, day: 15, today: today) }
    }
    if week.contains(joined) {
      return today.adding(days: (4 - today.weekday + 7) % 7)
    }
    if monthEnd.contains(joined) {
      return DayDate(
        year: today.year, month: today.month,
        day: DayDate.daysIn(month: today.month, year: today.year))
    }
    if yearEnd.contains(joined) { return DayDate(year: today.year, month: 12, day: 31) }
    if weekend.contains(joined) {
      return today.adding(days: today.weekday == 6 ? 0 : (5 - today.weekday + 7) % 7)
    }
    return nil
  }

  private enum Unit { case day, week, fortnight, month, year }

  /// Word stems of units: English, Russian and Ukrainian forms share these.
  private static func unit(_ word: String) -> Unit? {
    if word.hasPrefix("day") || word.hasPrefix("ден") || word.hasPrefix("дн") || word == "день" {
      return .day
    }
    if word.hasPrefix("fortnight") { return .fortnight }
    if word.hasPrefix("week") || word == "wk" || word == "wks" || word.hasPrefix("недел")
      || word.hasPrefix("тижн")
      || word == "тиждень"
    {
      return .week
    }
    if word.hasPrefix("month") || word.hasPrefix("месяц") || word.hasPrefix("місяц") {
      return .month
    }
    if word.hasPrefix("year")
      || ["год", "года", "лет", "рік", "роки", "років", "року"].contains(word)
    {
      return .year
    }
    return nil
  }

  /// `in 3 days`, `in a week`, `через 2 недели`, `через місяць`, `через полгода`,
  /// `two weeks from now`, `3 days`.
  private static func relative(_ words: [String], today: DayDate) -> DayDate? {
    var rest = words[...]
    if let first = rest.first, ["in", "через", "за", "after"].contains(first) {
      rest = rest.dropFirst()
    }
    for tail in [["from", "now"], ["from", "today"]]
    where rest.count > 2 && rest.suffix(2).elementsEqual(tail) {
      rest = rest.dropLast(2)
    }
    // "полгода", "півроку", "полмесяца", "half a year".
    let halves: [String: Int] = [
      "полгода": 6, "пол года": 6, "півроку": 6, "пів року": 6, "half a year": 6,
      "half year": 6, "six months": 6, "полмесяца": 0, "півмісяця": 0, "half a month": 0,
    ]
    let joined = rest.joined(separator: " ")
    if let months = halves[joined] {
      return months == 0 ? today.adding(days: 15) : today.adding(months: months)
    }
    guard let last = rest.last, let unit = unit(last) else { return nil }
    var count: Double
    switch rest.count {
    // "через неделю", "in a week" (below), not "in days".
    case 1 where singularUnits.contains(last) || last.hasPrefix("недельк") || last == "fortnight":
      count = 1
    case 2:
      let word = rest[rest.startIndex]
      guard
        let number = Double(word).flatMap({ $0 == $0.rounded() ? $0 : nil }) ?? numberWords[word]
      else {
        return nil
      }
      count = number
    case 3
    where ["a", "an"].contains(rest[rest.startIndex]) && rest[rest.startIndex + 1] == "half":
      count = 1.5
    default: return nil
    }
    guard (0...1200).contains(count) else { return nil }
    let whole = Int(count)
    let half = count != count.rounded(.down)
    switch unit {
    case .day: return today.adding(days: whole)
    case .week: return today.adding(days: 7 * whole + (half ? 3 : 0))
    case .fortnight: return today.adding(days: 14 * whole)
    case .month: return today.adding(months: whole)?.adding(days: half ? 15 : 0)
    case .year: return today.adding(months: 12 * whole + (half ? 6 : 0))
    }
  }

  private static let singularUnits: Set<String> = [
    "day", "week", "month", "year", "день", "неделю", "неделя", "месяц", "год", "тиждень",
    "місяць", "рік",
  ]

  private static let numberWords: [String: Double] = [
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "couple": 2,
    "один": 1, "одну": 1, "одна": 1, "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5,
    "шесть": 6, "семь": 7, "восемь": 8, "девять": 9, "десять": 10, "пару": 2, "полтора": 1.5,
    "полторы": 1.5, "дві": 2, "чотири": 4, "п'ять": 5, "шість": 6, "сім": 7, "вісім": 8,
    "дев'ять": 9, "десять ": 10, "півтора": 1.5, "півтори": 1.5,
  ]

  // MARK: - Numbers

  /// `1.12.2026`, `1. 12. 2026`, `1/12/2026`, `20-12-2026`, `1.12.26`, `1.12.`, `1.12`,
  /// `2026/12/20`.
  private static func numeric(_ text: String, today: DayDate) -> DayDate? {
    let compact = text.replacingOccurrences(of: " ", with: "")
    guard let separator = compact.first(where: { $0 == "." || $0 == "/" || $0 == "-" }),
      compact.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == separator) })
    else { return nil }
    var parts = compact.split(separator: separator, omittingEmptySubsequences: false).map(
      String.init)
    if parts.last == "" { parts.removeLast() }
    guard (2...3).contains(parts.count), parts.allSatisfy({ (1...4).contains($0.count) }) else {
      return nil
    }
    if parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int(parts[0]), let month = Int(parts[1]),
      let day = Int(parts[2])
    {
      return DayDate(year: year, month: month, day: day)
    }
    guard let day = Int(parts[0]), let month = Int(parts[1]), parts[0].count <= 2,
      parts[1].count <= 2
    else { return nil }
    if parts.count == 3 {
      guard var year = Int(parts[2]), parts[2].count == 2 || parts[2].count == 4 else {
        return nil
      }
      if parts[2].count == 2 { year += 2000 }
      return DayDate(year: year, month: month, day: day)
    }
    guard separator != "-" else { return nil }
    return nextOccurrence(month: month, day: day, today: today)
  }

  /// This year's day, or next year's when this year's has passed.
  private static func nextOccurrence(month: Int, day: Int, today: DayDate) -> DayDate? {
    if let date = DayDate(year: today.year, month: month, day: day), date >= today { return date }
    return DayDate(year: today.year + 1, month: month, day: day)
  }

  /// Month stems, January first: English, Russian (any case), Ukrainian (genitive and nominative).
  private static let months: [[String]] = [
    ["jan", "январ", "січ"], ["feb", "феврал", "лют"], ["mar", "март", "берез"],
    ["apr", "апрел", "квіт"], ["may", "ма", "трав"], ["jun", "июн", "черв"],
    ["jul", "июл", "лип"], ["aug", "август", "серп"], ["sep", "сентябр", "верес"],
    ["oct", "октябр", "жовт"], ["nov", "ноябр", "листопад"], ["dec", "декабр", "груд"],
  ]

  /// A month's name, full or cut short to three letters or more (`дек`, `груд.`, `sept`).
  private static func month(_ word: String) -> Int? {
    let word = word.trimmingCharacters(in: CharacterSet(charactersIn: "."))
    guard word.count >= 3 else { return nil }
    if word == "мая" || word == "май" { return 5 }
    return months.firstIndex { stems in
      stems.contains { stem in
        stem != "ма" && (word.hasPrefix(stem) || (stem.hasPrefix(word) && word.count >= 3))
      }
    }.map { $0 + 1 }
  }

  /// A day of the month: `1`, `1st`, `21st`, `15-го`, `10го`, `5-му`, `первого`.
  private static func dayNumber(_ word: String) -> Int? {
    if let named = ordinalWords[word] { return named }
    let digits = word.prefix(while: \.isNumber)
    guard (1...2).contains(digits.count), let day = Int(digits), (1...31).contains(day) else {
      return nil
    }
    let suffix = word.dropFirst(digits.count).drop(while: { $0 == "-" })
    let suffixes: Set<Substring> = [
      "", "st", "nd", "rd", "th", "го", "е", "ое", "ого", "му", "ому", "ее",
    ]
    return suffixes.contains(suffix) ? day : nil
  }

  private static let ordinalWords: [String: Int] = [
    "first": 1, "second": 2, "third": 3, "первое": 1, "первого": 1, "второго": 2, "третьего": 3,
    "перше": 1, "першого": 1, "другого": 2, "третього": 3,
  ]

  /// `1 December`, `December 1st`, `the 1st of December`, `1 дек. 2026`, `20-го грудня`,
  /// `Fri 4 Dec` (the weekday is not checked), `the 15th` (the next such day).
  private static func named(_ words: [String], today: DayDate) -> DayDate? {
    var words = words.filter {
      !["the", "of", "г", "года", "року", "р", "числа", "числу", "число"].contains($0)
    }
    if words.count > 1, weekdayNumber(words[0]) != nil { words.removeFirst() }
    // A day alone, written as a day ("15th", "15-го", "первого"; a bare "15" is no date):
    // the next such day of a month.
    if words.count == 1, let day = dayNumber(words[0]) {
      guard words[0].contains(where: \.isLetter) else { return nil }
      for offset in 0..<3 {
        let month = (today.month - 1 + offset) % 12 + 1
        let year = today.year + (today.month - 1 + offset) / 12
        if let date = DayDate(year: year, month: month, day: day), date >= today { return date }
      }
      return nil
    }
    guard (2...3).contains(words.count) else { return nil }
    let day: Int
    let monthNumber: Int
    if let number = dayNumber(words[0]), let named = month(words[1]) {
      (day, monthNumber) = (number, named)
    } else if let named = month(words[0]), let number = dayNumber(words[1]) {
      (day, monthNumber) = (number, named)
    } else {
      return nil
    }
    if words.count == 3 {
      guard let year = Int(words[2]), words[2].count == 4 else { return nil }
      return DayDate(year: year, month: monthNumber, day: day)
    }
    return nextOccurrence(month: monthNumber, day: day, today: today)
  }

  /// Holidays people set deadlines by: Christmas (25 December), New Year (1 January;
  /// its eve, 31 December), St Nicholas (6 December). "Before" one is the day before it.
  private static func holiday(_ words: [String], today: DayDate) -> DayDate? {
    var words = words
    var before = false
    if let first = words.first, ["before", "перед"].contains(first), words.count > 1 {
      words.removeFirst()
      before = true
    } else if let first = words.first, ["на", "on", "at", "for"].contains(first), words.count > 1 {
      words.removeFirst()
    }
    let joined = words.joined(separator: " ").replacingOccurrences(of: "'s", with: "s")
    let day: (month: Int, day: Int)?
    if joined.hasPrefix("christmas") || joined == "xmas" || joined.hasPrefix("рождеств")
      || joined.hasPrefix("різдв")
    {
      day = (12, 25)
    } else if ["new years eve", "new year eve"].contains(joined) {
      day = (12, 31)
    } else if ["new year", "new years", "new years day"].contains(joined)
      || joined.hasPrefix("нового год") || joined.hasPrefix("новый год")
      || joined.hasPrefix("новому году") || joined.hasPrefix("нового рок")
      || joined.hasPrefix("новий рік") || joined.hasPrefix("новому році")
    {
      day = (1, 1)
    } else if joined.hasPrefix("миколая") || joined.hasPrefix("николая")
      || joined.hasPrefix("миколай")
    {
      day = (12, 6)
    } else {
      day = nil
    }
    guard let day, let date = nextOccurrence(month: day.month, day: day.day, today: today) else {
      return nil
    }
    return before ? date.adding(days: -1) : date
  }

  // MARK: - Typos

  /// Every word a typo could be meant as, for the typo pass.
  private static let vocabulary: [String] = Array(
    Set(weekdays.flatMap { $0 } + dayWords.keys.filter { !$0.contains(" ") })
  ).filter { $0.count >= 5 }.sorted()

  /// `word`, or the one vocabulary word it is a small typo of.
  private static func corrected(_ word: String) -> String {
    guard word.count >= 5, !vocabulary.contains(word) else { return word }
    let bound = word.count >= 8 ? 2 : 1
    let close = vocabulary.filter { TitleMatch.distance(word, $0, limit: bound) != nil }
    // Several close words of one weekday ("пятницу", "п'ятницю") are that weekday.
    let weekdaysMeant = Set(close.compactMap(weekdayNumber))
    if close.count > 1, weekdaysMeant.count == 1, close.allSatisfy({ weekdayNumber($0) != nil }) {
      return close[0]
    }
    return close.count == 1 ? close[0] : word
  }

  // MARK: - Writing

  /// `Tue 1 December 2026`, `вт 1 декабря 2026`, `вт 1 грудня 2026`.
  public static func format(_ date: DayDate, _ language: Language) -> String {
    let (weekdayNames, monthNames) = names(language)
    return
      "\(weekdayNames[date.weekday]) \(date.day) \(monthNames[date.month - 1]) \(date.year)"
  }

  private static func names(_ language: Language) -> ([String], [String]) {
    switch language {
    case .en: english
    case .ru: russian
    case .uk: ukrainian
    }
  }

  private static let english = (
    ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
    [
      "January", "February", "March", "April", "May", "June", "July", "August", "September",
      "October", "November", "December",
    ]
  )

  private static let russian = (
    ["пн", "вт", "ср", "чт", "пт", "сб", "вс"],
    [
      "января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября",
      "октября", "ноября", "декабря",
    ]
  )

  private static let ukrainian = (
    ["пн", "вт", "ср", "чт", "пт", "сб", "нд"],
    [
      "січня", "лютого", "березня", "квітня", "травня", "червня", "липня", "серпня", "вересня",
      "жовтня", "листопада", "грудня",
    ]
  )
}
