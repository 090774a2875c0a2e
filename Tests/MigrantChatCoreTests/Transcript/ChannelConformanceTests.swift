import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct ChannelConformanceTests {
  let location = SourceLocation(file: "t.yaml", line: 1)

  func result(_ steps: [[BotMessage]], failure: String? = nil, start: Bool = false)
    -> TranscriptResult
  {
    var transcript = Transcript(name: "t", steps: [], location: location)
    if start { transcript.startCheck = Transcript.Step(user: "hi", bot: nil, location: location) }
    var result = TranscriptResult(
      transcript: transcript, failure: nil, seconds: 0, turnSeconds: [],
      steps: steps.enumerated().map {
        TranscriptResult.StepRecord(
          user: "line \($0.offset)", expected: nil, actual: $0.element, passed: true)
      })
    if let failure {
      result.failure = TranscriptResult.Failure(location: location, reasons: [failure], diff: [])
    }
    return result
  }

  @Test func socketioParagraphsAndQuickRepliesAreTheRESTAnswer() {
    let rest = [BotMessage(text: "One.\n\nTwo.", buttons: [Button(title: "Yes", payload: "/y")])]
    let socket = [
      BotMessage(text: "One."),
      BotMessage(text: "Two.", buttons: [Button(title: "Yes", payload: "/y")]),
    ]
    #expect(ChannelConformance.lines(rest) == ChannelConformance.lines(socket))
    #expect(ChannelConformance.compare(result([rest]), result([socket])).isEmpty)
  }

  /// `--ignore`: a balance that differs between the two runs is no difference; the
  /// rest of the line still is.
  @Test func maskedValuesAreNoDifference() {
    let rest = [[BotMessage(text: "Your balance is 120 CZK")]]
    let socket = [[BotMessage(text: "Your balance is 87 CZK")]]
    let mask = TextMask(patterns: ["[0-9]+"])
    #expect(ChannelConformance.compare(result(rest), result(socket)).count == 1)
    #expect(ChannelConformance.compare(result(rest), result(socket), mask: mask).isEmpty)
    let other = [[BotMessage(text: "Your balance is 87 EUR")]]
    let differences = ChannelConformance.compare(result(rest), result(other), mask: mask)
    #expect(differences.first?.second == ["text: Your balance is ‹…› EUR"])
  }

  @Test func aLostCardIsADifferenceAtItsStep() {
    let withCard = [
      BotMessage(text: "Offices:"), BotMessage(custom: .object(["contacts": .array([.number(5)])])),
    ]
    let without = [BotMessage(text: "Offices:")]
    let differences = ChannelConformance.compare(
      result([[BotMessage(text: "Hi")], withCard], start: true),
      result([[BotMessage(text: "Hi")], without], start: true))
    #expect(differences.count == 1)
    #expect(differences[0].step == 1)
    #expect(differences[0].first == ["text: Offices:", "contacts: 5"])
    #expect(differences[0].second == ["text: Offices:"])
  }

  @Test func aChannelThatStoppedIsSaidAndNothingAfterIsCompared() {
    let differences = ChannelConformance.compare(
      result([[BotMessage(text: "a")], [BotMessage(text: "b")], [BotMessage(text: "c")]]),
      result([[BotMessage(text: "a")], []], failure: "timed out"))
    #expect(differences.count == 1)
    #expect(differences[0].step == 2)
    #expect(differences[0].secondStopped == "timed out")
  }

  @Test func theTranscriptIsPlayedWithoutItsExpectations() {
    var step = Transcript.Step(user: "x", bot: [], messageCount: 3, location: location)
    step.utters = ["utter_x"]
    var transcript = Transcript(name: "t", start: "/start", steps: [step], location: location)
    transcript.expectedFailure = "known"
    let bare = ChannelConformance.unchecked(transcript)
    #expect(bare.steps[0].bot == nil && bare.steps[0].messageCount == nil)
    #expect(bare.steps[0].utters.isEmpty && bare.expectedFailure == nil)
    #expect(bare.startCheck?.user == "/start")
  }

  @Test func serverTextCannotWriteALine() {
    let lines = ChannelConformance.lines([BotMessage(text: "a\u{1B}[2Jb\nc")])
    #expect(lines.allSatisfy { !$0.contains("\u{1B}") && !$0.contains("\n") })
  }
}
