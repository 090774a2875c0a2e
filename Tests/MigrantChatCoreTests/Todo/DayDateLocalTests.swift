import Foundation
import Testing

@testable import MigrantChatCore

/// `DayDate.local` (libc's `localtime_r`) is the day Foundation's calendar gives in the
/// system's time zone, the one it replaces on the chat's start.
@Suite struct DayDateLocalTests {
  @Test func theDayIsFoundationsInTheSystemsTimeZone() {
    // Every three hours and a minute across two years (leap day, both clock changes,
    // the turn of a year), and the instants just before and after a midnight in UTC.
    let start = 1_767_225_600.0  // 2026-01-01T00:00:00Z
    var instants = stride(from: start - 366 * 86_400, to: start + 400 * 86_400, by: 10_860.0)
      .map { $0 }
    instants += [start - 1, start, start + 1, 0, 951_782_400]  // 1970, 2000-02-29
    for seconds in instants {
      let date = Date(timeIntervalSince1970: seconds)
      #expect(DayDate.local(date) == DayDate(date, timeZone: .current), "\(date)")
    }
  }

  @Test func aDayOutsideTheRangeFallsBackToFoundation() {
    // Year 1899: no DayDate by year, month and day; Foundation's reading is kept.
    let date = Date(timeIntervalSince1970: -2_209_075_200)
    #expect(DayDate.local(date) == DayDate(date, timeZone: .current))
  }
}
