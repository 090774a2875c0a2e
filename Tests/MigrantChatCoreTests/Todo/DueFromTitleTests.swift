import Testing

@testable import MigrantChatCore

/// A deadline at the end of a task's title becomes its due date (#48).
@Suite struct DueFromTitleTests {
  let today = DayDate(year: 2026, month: 11, day: 29) ?? DayDate.local()

  @Test(arguments: [
    (
      "подати заяву до 15 грудня", "подати заяву", "до 15 грудня",
      DayDate(year: 2026, month: 12, day: 15)
    ),
    ("call VZP by Friday", "call VZP", "by Friday", DayDate(year: 2026, month: 12, day: 4)),
    (
      "продлить визу через 2 недели", "продлить визу", "через 2 недели",
      DayDate(year: 2026, month: 12, day: 13)
    ),
    (
      "pay the fee 20.12.2026", "pay the fee", "20.12.2026", DayDate(year: 2026, month: 12, day: 20)
    ),
  ])
  func aDeadlineAtTheEndIsTheDueDate(title: String, rest: String, phrase: String, due: DayDate?) {
    let found = DueDateText.trailing(title, today: today)
    #expect(found?.title == rest)
    #expect(found?.phrase == phrase)
    #expect(found?.due == due)
  }

  @Test(arguments: [
    "подати заяву", "до 15 грудня", "call the office at 10", "Room 15", "buy 2 stamps",
    "visit Praha 5", "",
  ])
  func aTitleWithoutADeadlineKeepsItsWords(title: String) {
    #expect(DueDateText.trailing(title, today: today) == nil)
  }
}
