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

  /// A transcript's name can be a bot's button titles (explore records them): its line
  /// keeps no escape sequence, passed or not; an expected failure says XFAIL and counts
  /// apart from the failures.
  @Test func namesFromOutsideAreCleanAndExpectedFailuresCountApart() {
    var transcript = Transcript(
      name: "explore en: A\u{1B}]0;x\u{07} > B\u{202E}", steps: [],
      location: SourceLocation(file: "f.yaml", line: 1))
    let passed = TranscriptResult(
      transcript: transcript, failure: nil, seconds: 0, turnSeconds: [], steps: [])
    let line = ReplayConsole.describe(passed, l10n: Localizer(.en))
    #expect(!line.contains("\u{1B}") && !line.contains("\u{202E}"), "\(line.debugDescription)")
    transcript.expectedFailure = "fallback: the bot did not understand"
    let failure = TranscriptResult.Failure(
      location: transcript.location, reasons: ["no"], diff: [])
    let expected = TranscriptResult(
      transcript: transcript, failure: failure, seconds: 0, turnSeconds: [], steps: [])
    #expect(ReplayConsole.describe(expected, l10n: Localizer(.en)).hasPrefix("XFAIL  "))
    let outcome = ReplayConsole.Outcome(results: [expected], skipped: 0)
    #expect(outcome.failed == 0)
    #expect(
      ReplayConsole.summary(outcome, l10n: Localizer(.en))
        == "0 passed, 0 failed, 1 expected failure\n")
  }
}
