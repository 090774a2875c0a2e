import Foundation
import Synchronization
import Testing

@testable import MigrantChatCore

#if canImport(FoundationXML)
  import FoundationXML
#endif

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
    // Each answer offers the menu again: a number or a title picks from the latest answer.
    let transport = FakeTransport { request throws(ChatError) in
      request.message == "/start"
        ? Self.menu
        : BotReply(
          messages: [BotMessage(text: "got " + request.message)] + Self.menu.messages)
    }
    let runner = TranscriptRunner(language: .ru) { transport }
    let transcript = Transcript(
      name: "t", start: "/start",
      steps: [
        step("2", [expect("got /work")], extra: true),
        step("Health", [expect("got /health")], extra: true),
      ],
      location: here)
    let result = await runner.run(transcript)
    #expect(result.passed, "\(String(describing: result.failure))")
    #expect(transport.messages == ["/start", "/work", "/health"])
    #expect(transport.sent.withLock { $0.allSatisfy { $0.language == .ru } })
    #expect(result.turnSeconds.count == 3, "the start message is a turn")
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

  /// A transcript that checked nothing does not pass (#46): no steps at all (`/save`
  /// after `--resume` wrote `steps: []`), or checks that were all skipped (tracker checks
  /// with no tracker to read). One check made is enough; the skipped ones are still said,
  /// and JUnit marks such a pass `<skipped>`, not a bare green `<testcase/>`.
  @Test func aTranscriptThatCheckedNothingDoesNotPass() async throws {
    let runner = runner { _ in Self.menu }
    let empty = await runner.run(Transcript(name: "e", start: "/start", steps: [], location: here))
    #expect(!empty.passed)
    #expect(
      empty.failure?.reasons == [
        "the transcript has no steps: nothing was checked (add a `user:` step and what the bot should answer)"
      ])

    var trackerOnly = step("hi", nil)
    trackerOnly.utters = ["utter_greet"]
    let skippedAll = await runner.run(
      Transcript(name: "s", start: "/start", steps: [trackerOnly], location: here))
    #expect(!skippedAll.passed)
    #expect(skippedAll.skipped.count == 1)
    #expect(skippedAll.failure?.reasons.first?.hasPrefix("every check was skipped") == true)

    var mixed = step("hi", [expect("Hello")], extra: true)
    mixed.utters = ["utter_greet"]
    let partly = await runner.run(
      Transcript(name: "p", start: "/start", steps: [mixed], location: here))
    #expect(partly.passed, "\(String(describing: partly.failure))")
    #expect(partly.checksMade == 1 && partly.skipped.count == 1)

    let unchecked = await runner.run(
      Transcript(name: "u", start: "/start", steps: [step("hi", nil)], location: here))
    #expect(unchecked.passed && unchecked.skipped.isEmpty)

    let xml = JUnitReport.xml([empty, skippedAll, partly, unchecked])
    let document = try XMLDocument(xmlString: xml)
    let suite = try document.nodes(forXPath: "//testsuite").first as? XMLElement
    #expect(suite?.attribute(forName: "failures")?.stringValue == "2")
    #expect(suite?.attribute(forName: "skipped")?.stringValue == "1")
    let skippedCases = try document.nodes(forXPath: "//testcase[skipped]/@name")
    #expect(skippedCases.map(\.stringValue) == ["p"])
    let bare = try document.nodes(forXPath: "//testcase[not(*)]/@name")
    #expect(bare.map(\.stringValue) == ["u"])
  }

  /// A wrong text does not hide a wrong action of the same turn (#46): both are said.
  @Test func aWrongTextDoesNotHideTheTrackersChecks() async {
    var wrong = step("hi", [expect("Goodbye")])
    wrong.utters = ["utter_greet"]
    var runner = TranscriptRunner(language: .en, tracker: AppendingTracker()) {
      FakeTransport { _ throws(ChatError) in BotReply(messages: [BotMessage(text: "Hello")]) }
    }
    runner.width = 80
    let result = await runner.run(Transcript(name: "t", steps: [wrong], location: here))
    let reasons = result.failure?.reasons ?? []
    #expect(reasons.contains { $0.contains("Goodbye") }, "\(reasons)")
    #expect(reasons.contains { $0.contains("utter_greet") }, "\(reasons)")
    #expect(result.checksMade == 2)
  }

  /// `--ignore` and `ignore:`: a value that changes from run to run is masked on both
  /// sides of an exact or contains check; a regex sees the text as it came; the diff of
  /// a failing step shows a masked-equal text as it came, not as a difference.
  @Test func ignoredValuesAreMaskedInTextChecks() async {
    let balance = Mutex(100)
    let bot = runner { _ in
      let value = balance.withLock { value in
        defer { value += 17 }
        return value
      }
      return BotReply(messages: [BotMessage(text: "Your balance is \(value) CZK, ID-\(value)x")])
    }
    let steps = [
      step("balance", [expect("Your balance is 5 CZK, ID-5x")]),
      step(
        "again",
        [MessageExpectation(text: .contains("is 1 CZK", ignoreCase: false), location: here)]),
      step(
        "regex",
        [MessageExpectation(text: .regex("is [0-9]+ CZK", ignoreCase: false), location: here)]),
    ]
    let plain = Transcript(name: "t", steps: steps, location: here)
    #expect(await bot.run(plain).failure != nil)
    var masked = bot
    masked.ignore = TextMask(patterns: ["[0-9]+"])
    let passed = await masked.run(plain)
    #expect(passed.passed, "\(String(describing: passed.failure))")
    var own = plain
    own.ignore = ["[0-9]+"]
    #expect(await bot.run(own).passed)

    var wrong = plain
    wrong.ignore = ["[0-9]+"]
    wrong.steps = [step("balance", [expect("Your balance is 5 EUR, ID-5x")])]
    let failed = await bot.run(wrong)
    #expect(failed.failure?.diff.contains { $0.hasPrefix("-") && $0.contains("EUR") } == true)
    #expect(failed.failure?.diff.contains { $0.hasPrefix("+") && $0.contains("CZK") } == true)
    #expect(TextMask(patterns: ["[0-9]+", "x$"]).apply("a1b22x") == "a‹…›b‹…›‹…›")
    #expect(TextMask.problem(with: "(") == .notARegex)
    #expect(TextMask.problem(with: "a?") == .matchesEmpty)
    #expect(TextMask.problem(with: "a+") == nil)
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
    // A `button:` line naming no button offered is refused before anything is sent.
    let answering = runner { _ throws(ChatError) in BotReply(messages: [BotMessage(text: "x")]) }
    var click = step("No such button", [expect("x")])
    click.clicked = true
    let refused = await answering.run(
      Transcript(name: "t", steps: [step("hi", [expect("x")]), click], location: here))
    #expect(!refused.passed)
    #expect(refused.turnSeconds.count == 1, "the refused line is no answer time of the bot's")
  }

  /// A start message that timed out reached the bot: its time is a turn's, checked or
  /// not (under load 89 timed-out starts were missing from the turns and latencies).
  @Test func aStartThatTimedOutIsATurn() async {
    let turns = Mutex<[Int]>([])
    let slow = runner { _ throws(ChatError) in throw .timedOut(server: "http://x", seconds: 1) }
    let result = await slow.run(
      Transcript(name: "t", start: "/start", steps: [step("hi", [expect("x")])], location: here)
    ) { step, _ in turns.withLock { $0.append(step) } }
    #expect(!result.passed)
    #expect(result.errorCode == "timeout")
    #expect(result.turnSeconds.count == 1)
    #expect(turns.withLock { $0 } == [0])
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

extension TranscriptRunnerTests {
  /// A tracker that takes appended events (or refuses them, saying why) and records them.
  final class AppendingTracker: TrackerSource {
    let appended = Mutex<[(sender: String, events: [JSONValue])]>([])
    let refusal: String?
    init(refusal: String? = nil) { self.refusal = refusal }
    func events(sender: String) async -> [JSONValue]? { [] }
    func append(_ events: [JSONValue], sender: String) async -> StoryModelFailure? {
      if refusal == nil { appended.withLock { $0.append((sender, events)) } }
      return refusal.map { StoryModelFailure($0) }
    }
  }

  func fixtureTranscript() -> Transcript {
    var transcript = Transcript(
      name: "booking", sender: "tester",
      steps: [step("hi", [expect("Hello")], extra: true)], location: here)
    transcript.fixtures = [
      Transcript.Fixture(
        name: "premium", slots: [SlotCheck(name: "tier", value: .string("gold"))],
        location: SourceLocation(file: "t.yaml", line: 2))
    ]
    transcript.metadata = ["device": .string("phone")]
    transcript.steps[0].metadata = ["device": .string("laptop"), "language": .string("English")]
    return transcript
  }

  /// Rasa Pro fixtures are set through the tracker's events API before the first
  /// message (#46), and each message carries its step's metadata over the language.
  @Test func fixturesAreSetFirstAndMetadataGoesWithTheMessage() async {
    let tracker = AppendingTracker()
    let transport = FakeTransport { request throws(ChatError) in
      #expect(tracker.appended.withLock { $0.count } == 1, "the slots are set before the message")
      return BotReply(messages: [BotMessage(text: "Hello")])
    }
    var runner = TranscriptRunner(language: .en, tracker: tracker) { transport }
    let result = await runner.run(fixtureTranscript())
    #expect(result.passed, "\(String(describing: result.failure))")
    let appended = tracker.appended.withLock { $0 }
    #expect(appended.map(\.sender) == ["tester"])
    #expect(
      appended.first?.events == [
        .object(["event": .string("slot"), "name": .string("tier"), "value": .string("gold")])
      ])
    let request = transport.sent.withLock { $0.first }
    #expect(request?.metadata == ["device": .string("laptop"), "language": .string("English")])
    let body = try? JSONParser.parse(request?.jsonBody ?? Data())
    #expect(body?["metadata"]?["device"]?.stringValue == "laptop")
    #expect(body?["language"]?.stringValue == "en", "the top-level language stays the run's")

    // --skip-fixtures: said skipped, nothing appended, the steps still run.
    runner.skipFixtures = true
    let skipping = AppendingTracker()
    runner.tracker = skipping
    let skipped = await runner.run(fixtureTranscript())
    #expect(skipped.passed)
    #expect(
      skipped.skipped.contains { $0.contains("fixtures (premium) not set (--skip-fixtures)") })
    #expect(skipping.appended.withLock { $0.isEmpty })
  }

  /// Fixtures that cannot be set fail the test case before anything is sent: a bot
  /// without the HTTP API, or no server at all.
  @Test func fixturesThatCannotBeSetFailTheTestCase() async {
    let transport = FakeTransport { _ throws(ChatError) in BotReply(messages: []) }
    for tracker in [AppendingTracker(refusal: "HTTP 404 (no --enable-api?)"), nil] {
      let runner = TranscriptRunner(language: .en, tracker: tracker) { transport }
      let result = await runner.run(fixtureTranscript())
      let reason = result.failure?.reasons.joined() ?? ""
      #expect(reason.hasPrefix("t.yaml:2: fixtures (premium) could not be set: "), "\(reason)")
      #expect(reason.contains(tracker == nil ? "no bot server" : "HTTP 404"), "\(reason)")
      #expect(reason.contains("--skip-fixtures"))
      #expect(result.failure?.location.line == 2)
    }
    #expect(transport.messages.isEmpty, "nothing was sent")
  }
}
