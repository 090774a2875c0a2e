import Foundation
import Synchronization

/// The result of replaying one transcript.
public struct TranscriptResult: Sendable {
  public var transcript: Transcript
  /// The first failing step, if any (later steps are not run).
  public var failure: Failure?
  public var seconds: Double
  /// The bot's answer time for each turn, in seconds.
  public var turnSeconds: [Double]
  /// Every step that ran: what was sent and what came back.
  public var steps: [StepRecord]

  public var passed: Bool { failure == nil }
  /// A failure that counts: not one the transcript expects (`expected_failure`).
  public var isFailure: Bool { !passed && transcript.expectedFailure == nil }
  /// Failed as its transcript expects (a known defect still there).
  public var isExpectedFailure: Bool { !passed && transcript.expectedFailure != nil }
  /// Expected to fail, and passed: the defect may have been fixed.
  public var isFixed: Bool { passed && transcript.expectedFailure != nil }
  /// Checks that were not made, each with its reason.
  public var skipped: [String] = []
  /// Checks that were made (an answer's messages, its count, each tracker check),
  /// passed or not: a transcript that made none while some were skipped checked nothing.
  public var checksMade = 0
  /// The first turn's network or server error (`ChatError.code`, `http_503` for a
  /// status), for counting errors by kind under load.
  public var errorCode: String?
  /// The id the bot keeps the conversation under (socket.io's session id, else the
  /// sender), and its language: where `--coverage` reads its tracker.
  public var conversationID: String?
  public var language: Language?
  /// A test story's verdict: every prediction, and the story as `failed_test_stories.yml`
  /// writes it.
  public var story: StoryJudge.Verdict?

  public struct Failure: Sendable {
    public var location: SourceLocation
    public var reasons: [String]
    /// Expected and actual, rendered as the user would have seen them.
    public var diff: [String]
  }

  public struct StepRecord: Sendable {
    public var user: String
    public var expected: [MessageExpectation]?
    public var actual: [BotMessage]
    public var passed: Bool
  }
}

/// Replays transcripts through a `ChatSession`, so a transcript types exactly
/// what a person would (button numbers, titles) and sees what they would see.
public struct TranscriptRunner: Sendable {
  public var makeTransport: @Sendable () -> any ChatTransport
  public var language: Language
  public var width: Int
  /// Where `utter` and `slot_was_set` checks look; nil: they are skipped with the reason.
  public var tracker: (any TrackerSource)?
  /// The contact directory, for `cards` checks.
  public var directory: ContactDirectory?
  /// `--ignore`: values masked in every transcript's text checks (with its own `ignore:`).
  public var ignore: TextMask = .none
  /// `--skip-fixtures`: Rasa Pro fixtures are said skipped rather than set.
  public var skipFixtures = false
  /// Judges test stories by the model's predictions; nil: they fail, saying why.
  public var storyJudge: StoryJudge?
  /// `--stories execute`: test stories are sent and judged by what the bot ran.
  public var storyMode = StoryMode.predict
  /// Reads the lines of steps with `read: true` (#48); nil: those are sent as written.
  public var reader: TypedLineReader?

  public init(
    language: Language, width: Int = 80, tracker: (any TrackerSource)? = nil,
    directory: ContactDirectory? = nil,
    makeTransport: @escaping @Sendable () -> any ChatTransport
  ) {
    self.directory = directory
    self.language = language
    self.width = width
    self.tracker = tracker
    self.makeTransport = makeTransport
  }

  /// The report's language: the user's `--lang`, whatever language a transcript talks in.
  public var l10n: Localizer { Localizer(language) }

  /// Replays `transcript`; `onTurn` hears each turn's answer time as it comes
  /// (0 for the start message's, then each step's 1-based number).
  public func run(
    _ transcript: Transcript, onTurn: (@Sendable (_ step: Int, _ seconds: Double) -> Void)? = nil
  ) async -> TranscriptResult {
    if let story = transcript.story {
      return storyMode == .execute
        ? await execute(story, transcript) : await judge(story, transcript)
    }
    let language = transcript.language ?? self.language
    let sender = transcript.sender ?? SenderID.random()
    let session = ChatSession(
      transport: makeTransport(), store: TransientSessionStore(), language: language,
      senderID: sender, startMessage: transcript.start ?? "", directory: directory)
    await session.readTypedLines(with: reader)
    let clock = ContinuousClock()
    let began = clock.now
    var result = TranscriptResult(
      transcript: transcript, failure: nil, seconds: 0, turnSeconds: [], steps: [])
    result.skipped = transcript.unsupported.map { $0.text(l10n) }
    if let first = transcript.fixtures.first {
      let names = transcript.fixtures.map(\.name).joined(separator: ", ")
      if skipFixtures {
        result.skipped.append(
          Transcript.Unsupported.fixtures(location: first.location, names: names).text(l10n))
      } else if let reason = await setFixtures(transcript.fixtures, sender: sender) {
        result.failure = TranscriptResult.Failure(
          location: first.location,
          reasons: [
            l10n(
              .replayFixturesNotSet,
              ["location": first.location.description, "names": names, "detail": reason])
          ], diff: [])
      }
    }
    await session.setMessageMetadata(transcript.metadata)
    let mask = ignore.adding(transcript.ignore)
    var steps = transcript.steps[...]
    if result.failure == nil, transcript.start != nil {
      let turnStart = clock.now
      let opened = await session.start()
      result.errorCode = Self.errorCode(in: opened)
      // The start message is a turn like any other, checked or not: its answer time
      // counts, a timeout's too (under load a start that timed out was missing from the
      // latencies and the turns). One that never reached the bot (no connection) is no
      // answer time of the bot's.
      if !Self.neverReachedTheBot(result.errorCode) {
        result.turnSeconds.append(Self.seconds(clock.now - turnStart))
        onTurn?(0, result.turnSeconds[result.turnSeconds.count - 1])
      }
      if let check = transcript.startCheck {
        // The start's answer is checked like a step's.
        await verify(
          check, events: opened, sender: await session.trackerSender, language: language,
          mask: mask, into: &result)
      } else if let error = Self.error(in: opened) {
        result.failure = TranscriptResult.Failure(
          location: transcript.location,
          reasons: [l10n(.replayStartFailed, ["detail": error])], diff: [])
      }
    }
    var number = 0
    while result.failure == nil, let step = steps.popFirst() {
      await session.setMessageMetadata(step.metadata)
      let turnStart = clock.now
      let events = await session.handle(
        step: step.user,
        as: step.clicked ? .clicked : step.verbatim ? .verbatim : step.read ? .read : .typed)
      number += 1
      let failedTurn = Self.errorCode(in: events)
      // A line refused before it was sent (no such button) is no answer time of the bot's.
      let refused = events.contains {
        if case .inputError = $0 { true } else { false }
      }
      if !refused && !Self.neverReachedTheBot(failedTurn) {
        result.turnSeconds.append(Self.seconds(clock.now - turnStart))
        onTurn?(number, result.turnSeconds[result.turnSeconds.count - 1])
      }
      if result.errorCode == nil { result.errorCode = failedTurn }
      await verify(
        step, events: events, sender: await session.trackerSender, language: language,
        mask: mask, into: &result)
    }
    if result.failure == nil { result.failure = nothingChecked(transcript, result) }
    result.seconds = Self.seconds(clock.now - began)
    result.conversationID = await session.trackerSender
    result.language = language
    return result
  }

  /// A test story, judged by the model's predictions (`StoryJudge`).
  private func judge(_ story: TestStory, _ transcript: Transcript) async -> TranscriptResult {
    let clock = ContinuousClock()
    let began = clock.now
    var result = TranscriptResult(
      transcript: transcript, failure: nil, seconds: 0, turnSeconds: [], steps: [])
    guard let storyJudge else {
      result.failure = TranscriptResult.Failure(
        location: story.location, reasons: [l10n(.storyNoModel)], diff: [])
      return result
    }
    let verdict = await storyJudge.judge(story)
    record(verdict, of: story, failed: .storyModelFailed, wrong: .storyWrongAction, into: &result)
    result.seconds = Self.seconds(clock.now - began)
    return result
  }

  /// A test story sent turn by turn, judged by the actions its tracker shows were run
  /// (`StoryExecutor`).
  private func execute(_ story: TestStory, _ transcript: Transcript) async -> TranscriptResult {
    let clock = ContinuousClock()
    let began = clock.now
    let language = transcript.language ?? self.language
    var result = TranscriptResult(
      transcript: transcript, failure: nil, seconds: 0, turnSeconds: [], steps: [])
    guard let tracker else {
      result.failure = TranscriptResult.Failure(
        location: story.location, reasons: [l10n(.storyNoModel)], diff: [])
      return result
    }
    let session = ChatSession(
      transport: makeTransport(), store: TransientSessionStore(), language: language,
      senderID: SenderID.random(), startMessage: "", directory: directory)
    let l10n = self.l10n
    let turns = Mutex<[Double]>([])
    let verdict = await StoryExecutor.run(
      story,
      send: { line in
        let start = ContinuousClock.now
        let events = await session.handle(step: line, as: .verbatim)
        turns.withLock { $0.append(Self.seconds(ContinuousClock.now - start)) }
        return Self.error(in: events, l10n: l10n)
      },
      events: {
        // Over socket.io the answer can come before the tracker is stored: it is read
        // again, a little later each time, until the bot listens (or a few seconds pass).
        let sender = await session.trackerSender
        var events = await tracker.events(sender: sender)
        var wait = 0.02
        while let read = events, !StoryExecutor.turnEnded(read), wait < 2.5 {
          try? await Task.sleep(for: .seconds(wait))
          wait *= 1.5
          events = await tracker.events(sender: sender)
        }
        return events
      })
    result.turnSeconds = turns.withLock { $0 }
    record(verdict, of: story, failed: .storyRunFailed, wrong: .storyWrongExecuted, into: &result)
    result.conversationID = await session.trackerSender
    result.language = language
    result.seconds = Self.seconds(clock.now - began)
    return result
  }

  /// A story's verdict in `result`: the first wrong action's line fails it, with every
  /// wrong one said and the story as `failed_test_stories.yml` writes it.
  private func record(
    _ verdict: StoryJudge.Verdict, of story: TestStory, failed: MessageKey, wrong: MessageKey,
    into result: inout TranscriptResult
  ) {
    result.story = verdict
    result.checksMade = verdict.checks.count
    if let error = verdict.error {
      result.failure = TranscriptResult.Failure(
        location: story.location, reasons: [l10n(failed, ["detail": error.message(l10n)])],
        diff: [])
    } else if let first = verdict.firstWrong {
      let wrongs = verdict.checks.filter { !$0.passed }
      // How the bot's NLU read the turn where it parted from the story, when not as the
      // story says: the likely cause, said after the difference it explains.
      let misread = verdict.misread.map { reading in
        l10n(
          .storyMisread,
          [
            "text": TerminalSanitizer.clean(reading.text, keepNewlines: false),
            "intent": TerminalSanitizer.clean(reading.intent, keepNewlines: false),
            "confidence": l10n.number(reading.confidence, fractionDigits: 2),
            "expected": reading.expected ?? "",
          ])
      }
      result.failure = TranscriptResult.Failure(
        location: first.location ?? story.location,
        reasons: wrongs.map { check in
          l10n(
            wrong,
            [
              "expected": check.expected, "predicted": check.prediction.action,
              "policy": check.prediction.policy ?? "-",
              "confidence": l10n.number(check.prediction.confidence, fractionDigits: 2),
            ])
        } + (misread.map { [$0] } ?? []), diff: verdict.annotated.map { "  " + $0 })
    }
  }

  /// Rasa Pro's fixtures, set as slot events before the first message: nil when set,
  /// else why not.
  private func setFixtures(_ fixtures: [Transcript.Fixture], sender: String) async -> String? {
    guard let tracker else { return l10n(.replayFixturesNoServer) }
    return await tracker.append(fixtures.flatMap(\.events), sender: sender)?.message(l10n)
  }

  /// A transcript that ran and checked nothing does not pass: one with no steps (`/save`
  /// after `--resume` writes `steps: []`), or one whose every check was skipped (tracker
  /// checks without `--enable-api`). Steps with no checks at all still check that each
  /// turn was answered without an error.
  private func nothingChecked(_ transcript: Transcript, _ result: TranscriptResult)
    -> TranscriptResult.Failure?
  {
    if transcript.steps.isEmpty && transcript.startCheck == nil {
      return TranscriptResult.Failure(
        location: transcript.location, reasons: [l10n(.replayNoSteps)], diff: [])
    }
    guard result.checksMade == 0, !result.skipped.isEmpty else { return nil }
    return TranscriptResult.Failure(
      location: transcript.location,
      reasons: [l10n(.replayAllChecksSkipped)], diff: [])
  }

  /// Checks one step's answer; a failure is recorded in `result`.
  private func verify(
    _ step: Transcript.Step, events: [ChatEvent], sender: String, language: Language,
    mask: TextMask, into result: inout TranscriptResult
  ) async {
    let actual = events.flatMap { event -> [BotMessage] in
      if case .reply(let reply, _) = event { return reply.messages }
      return []
    }
    var cards = ContactCards.unresolved
    for case .reply(_, let found) in events where found.resolved {
      cards.resolved = true
      cards.found.merge(found.found) { first, _ in first }
    }
    let turnError = Self.error(in: events, l10n: l10n)
    var reasons = turnError.map { [$0] } ?? []
    if step.bot != nil || step.messageCount != nil { result.checksMade += 1 }
    if reasons.isEmpty {
      reasons = check(step, actual, cards: cards, language: language, mask: mask)
    }
    // What the channel said (socket.io: silent, cut, other event names) explains a failure.
    if !reasons.isEmpty {
      let renderer = Renderer(width: 1000, color: false, language: l10n.language)
      for case .notice(.channel(let note)) in events where note != .conversationNotKept {
        reasons.append(renderer.message(for: .channel(note)))
      }
    }
    // The tracker's checks are made whenever the turn reached the bot: a wrong text
    // must not hide a wrong action or slot of the same turn.
    if turnError == nil && step.trackerCheckCount > 0 {
      if let events = await tracker?.events(sender: sender) {
        result.checksMade += step.trackerCheckCount
        let wrong =
          Self.checkTracker(step, events, l10n: l10n)
          + step.tracker.mismatches(events, l10n: l10n)
        if !wrong.isEmpty { reasons += wrong + [Self.turnEvents(events, l10n: l10n)] }
      } else {
        result.skipped.append(
          l10n.plural(
            .replayTrackerSkipped, count: step.trackerCheckCount,
            ["location": step.location.description]))
      }
    }
    result.steps.append(
      TranscriptResult.StepRecord(
        user: step.user, expected: step.bot, actual: actual, passed: reasons.isEmpty))
    if !reasons.isEmpty {
      result.failure = TranscriptResult.Failure(
        location: step.location, reasons: reasons,
        diff: diff(step, actual, language: language, mask: mask))
    }
  }

  /// Why the turn got no answer: a network or server error, or an unusable input line.
  /// The kind of the first network or server error in `events`, if any.
  /// A turn that never reached the bot (no connection, no such host, cancelled, a message
  /// too large for the server's socket.io limit and so never sent): no answer time of the
  /// bot's, kept out of its latency. A timeout or an HTTP error did reach it, and its time
  /// counts.
  static func neverReachedTheBot(_ code: String?) -> Bool {
    guard let code else { return false }
    return [
      "connection_refused", "host_not_found", "network", "libcurl_missing", "cancelled",
      "tls_verification", "redirect_refused", "too_many_redirects", "socket_message_too_large",
    ].contains(code)
  }

  static func errorCode(in events: [ChatEvent]) -> String? {
    for case .failure(let error) in events {
      if case .httpStatus(_, let status, _) = error { return "http_\(status)" }
      return error.code
    }
    return nil
  }

  static func error(in events: [ChatEvent], l10n: Localizer = Localizer(.en)) -> String? {
    let renderer = Renderer(width: 1000, color: false, language: l10n.language)
    for event in events {
      switch event {
      case .failure(let error): return error.message(l10n)
      case .inputError(let error): return renderer.message(for: error)
      default: continue
      }
    }
    return nil
  }

  func check(
    _ step: Transcript.Step, _ actual: [BotMessage], cards: ContactCards = .unresolved,
    language: Language = .en, mask: TextMask = .none
  ) -> [String] {
    if step.inOrderAmongOthers { return checkInOrder(step, actual, mask: mask) }
    var reasons: [String] = []
    if let count = step.messageCount, actual.count != count {
      reasons.append(l10n.plural(.replayMessageCount, count: count, ["got": "\(actual.count)"]))
    }
    guard let expected = step.bot else { return reasons }
    for (index, expectation) in expected.enumerated() {
      guard index < actual.count else {
        reasons.append(
          l10n(
            .replayMessageMissing,
            ["number": "\(index + 1)", "expected": expectation.summary]))
        continue
      }
      for problem in expectation.mismatches(
        actual[index], cards: cards, language: language, l10n: l10n, mask: mask)
      {
        reasons.append(
          l10n(
            .replayMessageProblem,
            [
              "number": "\(index + 1)", "location": expectation.location.description,
              "problem": problem,
            ]))
      }
    }
    if actual.count > expected.count && !step.allowExtra && step.messageCount == nil {
      reasons.append(l10n.plural(.replayExtraMessages, count: actual.count - expected.count))
    }
    return reasons
  }

  /// Each expected message, in order, somewhere among the actual ones (Rasa `bot` steps).
  func checkInOrder(_ step: Transcript.Step, _ actual: [BotMessage], mask: TextMask = .none)
    -> [String]
  {
    var next = 0
    for expectation in step.bot ?? [] {
      guard
        let found = actual[next...].firstIndex(where: {
          expectation.mismatches($0, mask: mask).isEmpty
        })
      else {
        return [
          l10n(
            .replayInOrderMissing,
            ["expected": expectation.summary, "location": expectation.location.description])
        ]
      }
      next = found + 1
    }
    return []
  }

  /// Rasa's tracker after this turn: the bot actions (`metadata.utter_action` or
  /// `action` events) and slots set since the last user event.
  static func checkTracker(
    _ step: Transcript.Step, _ events: [JSONValue], l10n: Localizer = Localizer(.en)
  ) -> [String] {
    let lastUser = events.lastIndex { $0["event"]?.stringValue == "user" } ?? -1
    let recent = events.suffix(from: lastUser + 1)
    var actions: [String] = []
    for event in recent {
      if event["event"]?.stringValue == "bot",
        let utter = event["metadata"]?["utter_action"]?.stringValue
      {
        actions.append(utter)
      }
      if event["event"]?.stringValue == "action", let name = event["name"]?.stringValue {
        actions.append(name)
      }
    }
    var reasons: [String] = []
    var position = 0
    for utter in step.utters {
      if let found = actions[position...].firstIndex(of: utter) {
        position = found + 1
      } else {
        reasons.append(
          l10n(
            .replayUtterMissing, ["utter": utter, "actions": actions.joined(separator: ", ")]))
      }
    }
    let slots = recent.filter { $0["event"]?.stringValue == "slot" }
    for check in step.slots {
      let set = slots.filter { $0["name"]?.stringValue == check.name }
      if set.isEmpty {
        reasons.append(l10n(.replaySlotNotSet, ["slot": check.name]))
      } else if let value = check.value, !set.contains(where: { $0["value"] == value }) {
        let got = set.compactMap { $0["value"]?.compactText }.joined(separator: ", ")
        reasons.append(
          l10n(.replaySlotValue, ["slot": check.name, "expected": value.compactText, "got": got]))
      }
    }
    return reasons
  }

  /// The tracker's events of the failed turn, one per line, so the failure shows why.
  static func turnEvents(_ events: [JSONValue], l10n: Localizer) -> String {
    let lastUser = events.lastIndex { $0["event"]?.stringValue == "user" } ?? 0
    let lines = events.suffix(from: lastUser).map(TrackerLine.init).map {
      "    " + $0.kind + ": " + TerminalSanitizer.clean($0.text, keepNewlines: false)
    }
    return l10n(.replayTurnEvents) + "\n" + lines.joined(separator: "\n")
  }

  /// The expected and actual answers rendered as a user would have seen them.
  ///
  /// Parts that matched loosely (contains, regex, ...) are shown as they came,
  /// so the diff points only at what did not match.
  func diff(
    _ step: Transcript.Step, _ actual: [BotMessage], language: Language, mask: TextMask = .none
  ) -> [String] {
    let renderer = Renderer(width: width, color: false, language: language)
    func lines(_ messages: [BotMessage]) -> [String] {
      let text = renderer.render(.reply(BotReply(messages: messages))).stdout
      return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(
        String.init)
    }
    var expected: [BotMessage] = []
    for (index, expectation) in (step.bot ?? []).enumerated() {
      let real = index < actual.count ? actual[index] : nil
      expected.append(Self.picture(of: expectation, like: real, mask: mask))
    }
    if step.allowExtra || step.bot == nil { expected += actual.dropFirst(expected.count) }
    return UnifiedDiff.diff(expected: lines(expected), actual: lines(actual))
  }

  /// A message that looks like what `expectation` asks for; an exact text that matched
  /// only with the changing values masked is shown as it came.
  static func picture(
    of expectation: MessageExpectation, like real: BotMessage?, mask: TextMask = .none
  ) -> BotMessage {
    var message = BotMessage()
    func text(_ match: TextMatch?, _ actual: String?) -> String? {
      guard let match else { return actual }
      if case .exact(let text, _) = match {
        return !mask.isEmpty && match.matches(actual, mask: mask) ? actual : text
      }
      return match.matches(actual, mask: mask) ? actual : "‹\(match.summary)›"
    }
    message.text = text(expectation.text, real?.text)
    message.image = text(expectation.image, real?.image)
    switch expectation.buttons {
    case .exact(let titles)?: message.buttons = titles.map { Button(title: $0, payload: $0) }
    case let match? where !match.matches(real?.buttons.map(\.title) ?? []):
      message.buttons = [Button(title: "‹\(match.summary)›", payload: "")]
    default: message.buttons = real?.buttons ?? []
    }
    var contacts: [JSONValue]? = real.map { $0.contactIDs.map(JSONValue.string) }
    switch expectation.contacts {
    case .exact(let ids)?: contacts = ids.map(JSONValue.string)
    case let match? where !match.matches(real?.contactIDs ?? []):
      contacts = [.string("‹\(match.summary)›")]
    default: break
    }
    var custom = real?.custom
    if let expected = expectation.custom, !(real?.custom?.contains(subset: expected) ?? false) {
      custom = expected
    }
    if let contacts, !contacts.isEmpty {
      if case .object(var fields) = custom ?? .object([:]) {
        fields["contacts"] = .array(contacts)
        custom = .object(fields)
      }
    }
    message.custom = custom
    return message
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
