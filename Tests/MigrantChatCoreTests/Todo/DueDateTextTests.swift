import Testing

@testable import MigrantChatCore

@Suite struct DueDateTextTests {
  /// Tuesday.
  let today = day("2026-11-24")

  @Test(arguments: [
    ("2026-12-01", "2026-12-01"), ("1.12.2026", "2026-12-01"), ("1. 12. 2026", "2026-12-01"),
    ("01.12.26", "2026-12-01"), ("1/12/2026", "2026-12-01"), ("1.12.", "2026-12-01"),
    ("1.12", "2026-12-01"), ("20.11.", "2027-11-20"), ("24.11", "2026-11-24"),
    ("today", "2026-11-24"), ("Tomorrow", "2026-11-25"), ("the day after tomorrow", "2026-11-26"),
    ("завтра", "2026-11-25"), ("послезавтра", "2026-11-26"), ("сьогодні", "2026-11-24"),
    ("післязавтра", "2026-11-26"), ("yesterday", "2026-11-23"), ("вчера", "2026-11-23"),
    ("вчора", "2026-11-23"), ("позавчора", "2026-11-22"), ("in 3 days", "2026-11-27"),
    ("in 2 weeks", "2026-12-08"),
    ("in a week", "2026-12-01"), ("in a month", "2026-12-24"), ("3 days", "2026-11-27"),
    ("next week", "2026-12-01"), ("через 3 дня", "2026-11-27"), ("через 5 дней", "2026-11-29"),
    ("через неделю", "2026-12-01"), ("через 2 недели", "2026-12-08"),
    ("через месяц", "2026-12-24"), ("через 3 дні", "2026-11-27"), ("через 5 днів", "2026-11-29"),
    ("через тиждень", "2026-12-01"), ("через 2 тижні", "2026-12-08"),
    ("через місяць", "2026-12-24"), ("friday", "2026-11-27"), ("on Friday", "2026-11-27"),
    ("tuesday", "2026-12-01"), ("в пятницу", "2026-11-27"), ("понеділок", "2026-11-30"),
    ("у п'ятницю", "2026-11-27"), ("у пʼятницю", "2026-11-27"), ("1 December", "2026-12-01"),
    ("December 1", "2026-12-01"), ("1 декабря 2026", "2026-12-01"), ("1 грудня", "2026-12-01"),
    ("5 мая", "2027-05-05"), ("3 березня 2027 р.", "2027-03-03"), ("29.02.2028", "2028-02-29"),
  ])
  func readsDatesAsPeopleTypeThem(_ typed: String, _ expected: String) {
    #expect(DueDateText.parse(typed, today: today)?.iso == expected, "\(typed)")
  }

  @Test(arguments: [
    "", "  ", "31.02.2026", "29.02.2027", "2026-13-01", "2026-1-1", "13/13/2026", "soon",
    "в следующем году", "через", "in days", "1.2.3.4", "99999999", "1.12.202", "через -3 дня",
    "in 5000 days", "32 December", "🙂", "1 декабря 12345", String(repeating: "1", count: 10_000),
  ])
  func refusesWhatItCannotRead(_ typed: String) {
    #expect(DueDateText.parse(typed, today: today) == nil, "\(typed)")
  }

  @Test func writesTheDateInEachLanguage() {
    let date = day("2026-12-01")
    #expect(DueDateText.format(date, .en) == "Tue 1 December 2026")
    #expect(DueDateText.format(date, .ru) == "вт 1 декабря 2026")
    #expect(DueDateText.format(date, .uk) == "вт 1 грудня 2026")
  }

  @Test func dayArithmetic() throws {
    let leap = try #require(DayDate(year: 2028, month: 2, day: 29))
    #expect(leap.adding(days: 1)?.iso == "2028-03-01")
    #expect(leap.adding(months: 12)?.iso == "2029-02-28")
    #expect(DayDate(year: 2026, month: 1, day: 31)?.adding(months: 1)?.iso == "2026-02-28")
    #expect(DayDate(year: 1970, month: 1, day: 1)?.ordinal == 0)
    #expect(DayDate(year: 1970, month: 1, day: 1)?.weekday == 3)
    for offset in stride(from: -25_000, through: 40_000, by: 997) {
      let day = try #require(DayDate(ordinal: offset))
      #expect(day.ordinal == offset)
    }
    #expect(DayDate(year: 2026, month: 2, day: 29) == nil)
    #expect(DayDate(iso: "2026-11-24") == today)
    #expect(today.days(since: day("2026-11-01")) == 23)
  }
}
