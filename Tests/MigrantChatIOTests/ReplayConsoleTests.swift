import Testing

@testable import MigrantChatCore
@testable import MigrantChatIO

/// Replay's closing lines follow the user's language and its plural rules.
@Suite struct ReplayConsoleTests {
  @Test func theSummaryUsesPluralRules() {
    let none = ReplayConsole.Outcome(results: [], skipped: 1)
    #expect(ReplayConsole.summary(none, l10n: Localizer(.en)) == "0 passed, 0 failed, 1 skipped\n")
    #expect(
      ReplayConsole.summary(none, l10n: Localizer(.ru)) == "0 пройдено, 0 провалено, 1 пропущен\n")
    let five = ReplayConsole.Outcome(results: [], skipped: 5)
    #expect(
      ReplayConsole.summary(five, l10n: Localizer(.uk)) == "0 пройдено, 0 провалено, 5 пропущено\n")
  }
}
