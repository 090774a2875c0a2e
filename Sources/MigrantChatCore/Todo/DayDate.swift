import Foundation

/// A calendar day (no time, no time zone): what a task is due on.
///
/// Stored and exchanged as ISO 8601 `YYYY-MM-DD`; "today" is the day in the
/// user's own time zone. Arithmetic goes through the proleptic Gregorian
/// calendar in UTC, where every day has 24 hours.
public struct DayDate: Sendable, Hashable, Comparable, CustomStringConvertible {
  public let year: Int
  public let month: Int
  public let day: Int

  /// Nil for a day that does not exist (31 February) or a year outside 1900...2999.
  public init?(year: Int, month: Int, day: Int) {
    guard (1900...2999).contains(year), (1...12).contains(month), day >= 1,
      day <= Self.daysIn(month: month, year: year)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// `YYYY-MM-DD`, exactly.
  public init?(iso text: some StringProtocol) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    self.init(year: year, month: month, day: day)
  }

  /// The day `date` falls on in the system's time zone (`TZ`, else `/etc/localtime`),
  /// by libc's `localtime_r`: what `DayDate(date)` gives, without Foundation's
  /// `Calendar` and `TimeZone.current`, which cost the chat's start 1.6 million
  /// instructions (for the to-do reminder, before the first answer).
  public static func local(_ date: Date = Date()) -> DayDate {
    // A date no `time_t` holds is read as Foundation reads it (as before), not trapped on.
    guard var seconds = time_t(exactly: date.timeIntervalSince1970.rounded(.down)) else {
      return DayDate(date)
    }
    var parts = tm()
    guard localtime_r(&seconds, &parts) != nil,
      let day = DayDate(
        year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
    else { return DayDate(date) }
    return day
  }

  /// The day `date` falls on in `timeZone`.
  public init(_ date: Date, timeZone: TimeZone = .current) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    // The calendar always gives the three; the fallback is never taken.
    self.year = parts.year ?? 2000
    self.month = parts.month ?? 1
    self.day = parts.day ?? 1
  }

  public var iso: String {
    String(format: "%04d-%02d-%02d", year, month, day)
  }

  public var description: String { iso }

  /// `YYYYMMDD`, as iCalendar writes a DATE value.
  public var basic: String {
    String(format: "%04d%02d%02d", year, month, day)
  }

  /// Days since 1970-01-01 (negative before).
  public var ordinal: Int {
    // Howard Hinnant's days_from_civil.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The day `ordinal` days after 1970-01-01; nil outside the supported years.
  public init?(ordinal: Int) {
    let z = ordinal + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    self.init(year: year, month: month, day: day)
  }

  public func adding(days: Int) -> DayDate? { DayDate(ordinal: ordinal + days) }

  /// The same day `months` months later, or the month's last day when it is shorter.
  public func adding(months: Int) -> DayDate? {
    let index = year * 12 + (month - 1) + months
    let newYear = index / 12
    let newMonth = index % 12 + 1
    guard (1900...2999).contains(newYear) else { return nil }
    return DayDate(
      year: newYear, month: newMonth,
      day: min(day, Self.daysIn(month: newMonth, year: newYear)))
  }

  /// Days from `other` to this day: positive when this day is later.
  public func days(since other: DayDate) -> Int { ordinal - other.ordinal }

  /// 0 Monday ... 6 Sunday.
  public var weekday: Int {
    // 1970-01-01 was a Thursday (3).
    ((ordinal % 7) + 7 + 3) % 7
  }

  public static func < (lhs: DayDate, rhs: DayDate) -> Bool { lhs.ordinal < rhs.ordinal }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}
