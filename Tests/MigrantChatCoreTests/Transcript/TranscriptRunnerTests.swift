import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct TranscriptRunnerTests {
  let here = SourceLocation(file: "t.yaml", line: 3)

  func runner(_ answer: @escaping @Sendable (ChatRequest) async throws(ChatError) -> BotReply)
    -> TranscriptRunner
  {
    TranscriptRunner(language: .en) { FakeTransport(answer: answer) }
  }

  static let menu = ChatSessionTests.menu

  func step(_ user: String, _ bot: [MessageExpectation]?, count: Int? = nil, extra: Bool = false)
    -> Transcript.Step
  {
    Transcript.Step(user: user, bot: bot, messageCount: count, allowExtra: extra, location: here)
  }

  func expect(_ text: String) -> MessageExpectation {
    MessageExpectation(text: .exact(text, ignoreCase: false), location: here)
  }

  @Test func buttonsByNumberAndTitleReachTheBotAsPayloads() async {
    let transport = FakeTransport { request throws(ChatError) in
      request.message == "/start"
        ? Self.menu : BotReply(messages: [BotMessage(text: "got " + request.message)])
    }
    let runner = TranscriptRunner(language: .ru) { transport }
    let transcript = Transcript(
      name: "t", start: "/start",
      steps: [step("2", [expect("got /work")]), step("Health", [expect("got /health")])],
      location: here)
    let result = await runner.run(transcript)
    #expect(result.passed, "\(String(describing: result.failure))")
    #expect(transport.messages == ["/start", "/work", "/health"])
    #expect(transport.sent.withLock { $0.allSatisfy { $0.language == .ru } })
    #expect(result.turnSeconds.count == 2)
  }

  /// A transcript's line is sent exactly as written (a payload is never read as a
  /// title, nothing is asked); a line that could not be sent fails its step, saying why.
  @Test func linesAreSentAsWrittenOrTheStepSaysWhyNot() async {
    let transport = FakeTransport { request throws(ChatError) in
      request.message == "/start"
        ? Self.menu : BotReply(messages: [BotMessage(text: "got " + request.message)])
    }
    let runner = TranscriptRunner(language: .en) { transport }
    let payloads = await runner.run(
      Transcript(
        name: "t", start: "/start",
        steps: [
          step("/healthy", [expect("got /healthy")]),
          step("Healt", [expect("got Healt")]),
        ], location: here))
    #expect(payloads.passed, "\(String(describing: payloads.failure))")
    #expect(transport.messages == ["/start", "/healthy", "Healt"])

    var click = step("Housing", nil)
    click.clicked = true
    let noButton = await runner.run(
      Transcript(name: "t", start: "/start", steps: [click], location: here))
    #expect(
      noButton.failure?.reasons
        == [
          "No button “Housing” in the latest answer; its buttons: Health; Work. Nothing was sent."
        ]
    )
    let lookup = await runner.run(
      Transcript(name: "t", start: "/start", steps: [step("/contacts brno", nil)], location: here))
    #expect(
      lookup.failure?.reasons.first?.hasPrefix(
        "“/contacts brno” was not sent: it is a command of the client's own.") == true,
      "\(String(describing: lookup.failure))")
    let number = await runner.run(
      Transcript(name: "t", start: "/start", steps: [step("7", nil)], location: here))
    #expect(
      number.failure?.reasons == ["There is no button 7. Choose a number from 1 to 2."])

    // Rasa's end-to-end steps: the text as written, a number too.
    var verbatim = step("1", [expect("got 1")])
    verbatim.verbatim = true
    let e2e = await runner.run(
      Transcript(name: "t", start: "/start", steps: [verbatim], location: here))
    #expect(e2e.passed, "\(String(describing: e2e.failure))")
  }

  @Test func extraMessagesFailUnlessAllowed() async {
    let runner = runner { _ in Self.menu }
    let strict = await runner.run(
      Transcript(name: "t", steps: [step("hi", [expect("Hello")])], location: here))
    #expect(
      strict.failure?.reasons == ["1 unexpected extra message; add it, or allow_extra: true"])
    let loose = await runner.run(
      Transcript(name: "t", steps: [step("hi", [expect("Hello")], extra: true)], location: here))
    #expect(loose.passed)
    let counted = await runner.run(
      Transcript(name: "t", steps: [step("hi", nil, count: 3)], location: here))
    #expect(counted.failure?.reasons == ["expected 3 messages, got 2"])
  }

  @Test func missingMessagesAndTheDiff() async {
    let runner = runner { _ in BotReply(messages: [BotMessage(text: "Hello")]) }
    let result = await runner.run(
      Transcript(
        name: "t", steps: [step("hi", [expect("Hello"), expect("More")])], location: here))
    #expect(result.failure?.location == here)
    #expect(result.failure?.reasons.first?.hasPrefix("message 2: missing") == true)
    #expect(result.failure?.diff == ["--- expected", "+++ actual", " Hello", "-More"])
  }

  @Test func aDeadServerIsAFailedTranscriptWithTheReason() async {
    let runner = runner { _ throws(ChatError) in
      throw .connectionRefused(server: "http://127.0.0.1:9")
    }
    let result = await runner.run(
      Transcript(name: "t", steps: [step("hi", [expect("x")]), step("again", nil)], location: here))
    #expect(!result.passed)
    #expect(result.failure?.reasons.first?.contains("connection refused") == true)
    #expect(result.steps.count == 1, "later steps do not run")
  }

  @Test func aMessageNeverSentHasNoAnswerTimeButATimeoutHas() async {
    let tooLarge = runner { _ throws(ChatError) in
      throw .socketMessageTooLarge(server: "http://x", limitBytes: 10, bytes: 20)
    }
    let unsent = await tooLarge.run(
      Transcript(name: "t", steps: [step("hi", [expect("x")])], location: here))
    #expect(!unsent.passed)
    #expect(unsent.turnSeconds.isEmpty, "a message never sent is no answer time of the bot's")
    let slow = runner { _ throws(ChatError) in throw .timedOut(server: "http://x", seconds: 1) }
    let timedOut = await slow.run(
      Transcript(name: "t", steps: [step("hi", [expect("x")])], location: here))
    #expect(!timedOut.passed)
    #expect(timedOut.turnSeconds.count == 1, "a timeout reached the bot and its time counts")
  }

  @Test func theStartMessageFailingIsReported() async {
    let runner = runner { _ throws(ChatError) in throw .notJSON(server: "http://x") }
    let result = await runner.run(
      Transcript(name: "t", start: "/start", steps: [step("hi", nil)], location: here))
    #expect(result.failure?.reasons.first?.hasPrefix("start message: ") == true)
  }

  @Test func looseMatchesShowTheActualTextInTheDiff() {
    let expectation = MessageExpectation(
      text: .contains("Hel", ignoreCase: false), buttons: .contains(["Nope"]), location: here)
    let picture = TranscriptRunner.picture(
      of: expectation,
      like: BotMessage(text: "Hello", buttons: [Button(title: "Yes", payload: "/y")]))
    #expect(picture.text == "Hello")
    #expect(picture.buttons.map(\.title) == [#"‹contains ["Nope"]›"#])
  }
}

@Suite struct TranscriptDiffGoldenTests {
  /// A failing step against the offline assistant: the diff as `replay` prints it.
  @Test(arguments: Language.allCases)
  func diffGolden(language: Language) async {
    let assistant = OfflineAssistant(tree: SampleGuidance.tree(), stemmer: LightStemmer())
    let runner = TranscriptRunner(language: language) { OfflineTransport(assistant: assistant) }
    let here = SourceLocation(file: "golden.yaml", line: 1)
    let transcript = Transcript(
      name: "golden", start: "/start",
      steps: [
        Transcript.Step(
          user: "3",
          bot: [
            MessageExpectation(
              text: .contains(":", ignoreCase: false), buttons: .exact(["Wrong guide", "Back"]),
              location: here)
          ], location: here)
      ], location: here)
    let result = await runner.run(transcript)
    let output =
      ((result.failure?.reasons ?? []) + [""] + (result.failure?.diff ?? []))
      .joined(separator: "\n") + "\n"
    expectGolden(output, named: "replay-diff-\(language.rawValue)")
  }
}
