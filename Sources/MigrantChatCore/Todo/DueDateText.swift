import Foundation

/// Due dates as people type them, and as each language writes them.
///
/// Read in any of the three languages whatever the chat's language is (people
/// mix them): `2026-12-01`; `1.12.2026`, `1. 12. 2026`, `1/12/2026` (day
/// first, as in Czechia, Russia and Ukraine; also for English, since the users
/// live in Czechia); `1.12.` or `1.12` (the next such day); `1 December`,
/// `1 декабря 2026`, `1 грудня`; `today`, `tomorrow`, `the day after
/// tomorrow` and their Russian and Ukrainian words; a weekday (the next one
/// after today); `in 3 days`, `in 2 weeks`, `in a month`, `next week`, `через 3
/// дня`, `через неделю`, `через 3 дні`, `через місяць`.
public enum DueDateText {
  /// The day `text` names, counted from `today`; nil when it cannot be read.
  public static func parse(_ text: String, today: DayDate) -> DayDate? {
    let words =
      text.lowercased()
      .replacingOccurrences(of: "’", with: "'")
      .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
      .map(String.init)
    guard !words.isEmpty, words.count <= 6 else { return nil }
    let joined = words.joined(separator: " ")
    if let date = DayDate(iso: joined) { return date }
    if let date = numeric(joined, today: today) { return date }
    if let days = dayWords[joined] { return today.adding(days: days) }
    if let weekday = weekday(words) {
      let ahead = (weekday - today.weekday + 7) % 7
      return today.adding(days: ahead == 0 ? 7 : ahead)
    }
    if let date = relative(words, today: today) { return date }
    return named(words, today: today)
  }

  // MARK: - Numbers

  /// `1.12.2026`, `1. 12. 2026`, `1/12/2026`, `1.12.26`, `1.12.`, `1.12`.
  private static func numeric(_ text: String, today: DayDate) -> DayDate? {
    let compact = text.replacingOccurrences(of: " ", with: "")
    guard let separator = compact.first(where: { $0 == "." || $0 == "/" }),
      compact.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == separator) })
    else { return nil }
    var parts = compact.split(separator: separator, omittingEmptySubsequences: false).map(
      String.init)
    if parts.last == "" { parts.removeLast() }
    guard (2...3).contains(parts.count), parts.allSatisfy({ (1...4).contains($0.count) }),
      let day = Int(parts[0]), let month = Int(parts[1])
    else { return nil }
    if parts.count == 3 {
      guard var year = Int(parts[2]), parts[2].count == 2 || parts[2].count == 4 else {
        return nil
      }
      if parts[2].count == 2 { year += 2000 }
      return DayDate(year: year, month: month, day: day)
    }
    return nextOccurrence(month: month, day: day, today: today)
  }

  /// This year's day, or next year's when this year's has passed.
  private static func nextOccurrence(month: Int, day: Int, today: DayDate) -> DayDate? {
    if let date = DayDate(year: today.year, month: month, day: day), date >= today { return date }
    return DayDate(year: today.year + 1, month: month, day: day)
  }

  // MARK: - Words

  private static let dayWords: [String: Int] = [
    "today": 0, "tomorrow": 1, "day after tomorrow": 2, "the day after tomorrow": 2,
    "сегодня": 0, "завтра": 1, "послезавтра": 2, "сьогодні": 0, "післязавтра": 2,
    "next week": 7, "на следующей неделе": 7, "наступного тижня": 7, "на наступному тижні": 7,
  ]

  /// Weekday names and their short forms, Monday first, in the three languages
  /// (Russian and Ukrainian also in the accusative: "в пятницу", "у п'ятницю").
  private static let weekdays: [Set<String>] = [
    ["monday", "mon", "понедельник", "пн", "понеділок"],
    ["tuesday", "tue", "вторник", "вт", "вівторок"],
    ["wednesday", "wed", "среда", "среду", "ср", "середа", "середу"],
    ["thursday", "thu", "четверг", "чт", "четвер"],
    ["friday", "fri", "пятница", "пятницу", "пт", "п'ятниця", "п'ятницю"],
    ["saturday", "sat", "суббота", "субботу", "сб", "субота", "суботу"],
    ["sunday", "sun", "воскресенье", "вс", "неділя", "неділю", "нд"],
  ]

  /// `friday`, `on friday`, `next friday`, `в пятницу`, `у п'ятницю`: 0 Monday ... 6 Sunday.
  private static func weekday(_ words: [String]) -> Int? {
    var words = words[...]
    if words.count == 2, ["on", "next", "в", "во", "у", "наступного"].contains(words[0]) {
      words = words.dropFirst()
    }
    guard words.count == 1, let word = words.first?.replacingOccurrences(of: "ʼ", with: "'")
    else { return nil }
    return weekdays.firstIndex { $0.contains(word) }
  }

  private enum Unit { case day, week, month }

  /// Word stems of units: English, Russian and Ukrainian forms share these.
  private static func unit(_ word: String) -> Unit? {
    if word.hasPrefix("day") || word.hasPrefix("ден") || word.hasPrefix("дн") || word == "день" {
      return .day
    }
    if word.hasPrefix("week") || word.hasPrefix("недел") || word.hasPrefix("тижн")
      || word == "тиждень"
    {
      return .week
    }
    if word.hasPrefix("month") || word.hasPrefix("месяц") || word.hasPrefix("місяц") {
      return .month
    }
    return nil
  }

  /// `in 3 days`, `in a week`, `через 2 недели`, `через місяць`, `3 days`.
  private static func relative(_ words: [String], today: DayDate) -> DayDate? {
    var rest = words[...]
    if let first = rest.first, ["in", "через", "за"].contains(first) { rest = rest.dropFirst() }
    guard let last = rest.last, let unit = unit(last) else { return nil }
    let count: Int
    switch rest.count {
    // "через неделю", "in a week" (below), not "in days".
    case 1 where singularUnits.contains(last): count = 1
    case 2:
      guard let number = Int(rest[rest.startIndex]) ?? numberWords[rest[rest.startIndex]] else {
        return nil
      }
      count = number
    default: return nil
    }
    guard (0...1200).contains(count) else { return nil }
    switch unit {
    case .day: return today.adding(days: count)
    case .week: return today.adding(days: 7 * count)
    case .month: return today.adding(months: count)
    }
  }

  private static let singularUnits: Set<String> = [
    "day", "week", "month", "день", "неделю", "неделя", "месяц", "тиждень", "місяць",
  ]

  private static let numberWords: [String: Int] = [
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "один": 1, "одну": 1, "одна": 1, "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5,
    "дві": 2, "чотири": 4, "п'ять": 5,
  ]

  /// Month stems, January first: English, Russian (any case), Ukrainian (genitive and nominative).
  private static let months: [[String]] = [
    ["jan", "январ", "січ"], ["feb", "феврал", "лют"], ["mar", "март", "берез"],
    ["apr", "апрел", "квіт"], ["may", "ма", "трав"], ["jun", "июн", "черв"],
    ["jul", "июл", "лип"], ["aug", "август", "серп"], ["sep", "сентябр", "верес"],
    ["oct", "октябр", "жовт"], ["nov", "ноябр", "листопад"], ["dec", "декабр", "груд"],
  ]

  private static func month(_ word: String) -> Int? {
    let word = word.trimmingCharacters(in: CharacterSet(charactersIn: "."))
    guard word.count >= 2 else { return nil }
    if word == "ма" || word == "мая" || word == "май" { return 5 }
    return months.firstIndex { stems in
      stems.contains { stem in stem != "ма" && word.hasPrefix(stem) }
    }.map { $0 + 1 }
  }

  /// `1 December`, `December 1`, `1 декабря 2026`, `1 грудня`.
  private static func named(_ words: [String], today: DayDate) -> DayDate? {
    var words = words.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ".")) }
    if words.last == "г" || words.last == "года" || words.last == "року" || words.last == "р" {
      words.removeLast()
    }
    guard (2...3).contains(words.count) else { return nil }
    let day: Int
    let monthNumber: Int
    if let number = Int(words[0]), let named = month(words[1]) {
      (day, monthNumber) = (number, named)
    } else if let named = month(words[0]), let number = Int(words[1].filter(\.isNumber)),
      words[1].first?.isNumber == true
    {
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
