import Foundation

/// How `replay` judges test stories: by the model's predictions (`rasa test core`'s
/// way, nothing runs) or by sending the user lines and reading what really ran.
public enum StoryMode: String, Sendable, CaseIterable {
  case predict
  case execute
}

/// `--stories execute`: a test story's user turns are sent to the bot as a user would
/// send them (a `user:` line as written, an `intent:` as Rasa's `/intent{…}` payload),
/// and after each turn the conversation's tracker says which actions the bot and its
/// action server really ran. Those are compared, in order, with the story's actions and
/// Rasa's implicit `action_listen` at the end of each turn; the first difference fails
/// the story and nothing more is sent, since the conversation has left the story's way.
///
/// `slot_was_set` and `active_loop` lines are what those actions set: they are not
/// compared, as `rasa test core` compares only actions.
public struct StoryExecutor: Sendable {
  /// Sends one user line; nil when the bot answered, else why not (in the user's words).
  public typealias Send = @Sendable (String) async -> String?
  /// The conversation's tracker events once the turn has ended; nil when there are none.
  public typealias Events = @Sendable () async -> [JSONValue]?

  private static let listen = "action_listen"

  /// A story split at its user turns: the actions expected after each (the first turn
  /// has no user line: actions a story names before anyone spoke).
  struct Turn {
    var user: TestStory.Step?
    var steps: [TestStory.Step] = []
  }

  static func turns(_ story: TestStory) -> [Turn] {
    var turns = [Turn(user: nil)]
    for step in story.steps {
      if case .user = step {
        turns.append(Turn(user: step))
      } else {
        turns[turns.count - 1].steps.append(step)
      }
    }
    if turns[0].steps.isEmpty { turns.removeFirst() }
    return turns
  }

  /// What is sent for a user step: its text, or `/intent{"entity": "value"}`.
  static func line(_ step: TestStory.Step) -> String {
    guard case .user(let text, let intent, let entities, _) = step else { return "" }
    if let text { return text }
    var line = "/" + (intent ?? "")
    if !entities.isEmpty {
      var values: [String: JSONValue] = [:]
      for entity in entities { values[entity.entity] = entity.value }
      line += JSONValue.object(values).compactText
    }
    return line
  }

  /// The actions run after the last user turn in `events`, with their policy and
  /// confidence; before any user turn, those after the session started.
  static func executed(_ events: [JSONValue], afterUser: Bool) -> [StoryPrediction] {
    let start =
      afterUser
      ? (events.lastIndex { $0["event"]?.stringValue == "user" }.map { $0 + 1 } ?? events.count)
      : 0
    var ran: [StoryPrediction] = []
    for event in events[start...] {
      if !afterUser && event["event"]?.stringValue == "user" { break }
      guard event["event"]?.stringValue == "action", let name = event["name"]?.stringValue,
        name != "action_session_start", name != "action_unlikely_intent"
      else { continue }
      ran.append(
        StoryPrediction(
          action: name, policy: event["policy"]?.stringValue,
          confidence: event["confidence"]?.numberValue ?? 1))
    }
    return ran
  }

  /// Whether the tracker's latest turn has ended: the bot listens again.
  public static func turnEnded(_ events: [JSONValue]) -> Bool {
    guard let action = events.lastIndex(where: { $0["event"]?.stringValue == "action" }),
      events[action]["name"]?.stringValue == listen
    else { return false }
    let user = events.lastIndex { $0["event"]?.stringValue == "user" } ?? -1
    return action > user
  }

  public static func run(_ story: TestStory, send: Send, events: Events) async
    -> StoryJudge.Verdict
  {
    var verdict = StoryJudge.Verdict()
    let turns = Self.turns(story)
    var diverged = false
    for (index, turn) in turns.enumerated() {
      // The turn's intent line (or its user line): marked where the NLU read it otherwise.
      var intentLine: Int?
      if let user = turn.user {
        let line = Self.line(user)
        if case .user(let text, let intent, let entities, _) = user {
          var lines = TestStory.yaml(text: text, intent: intent ?? "", entities: entities)
          // A `user:` line without an intent stays without one; the mark of a misread
          // goes on the line itself then.
          if text != nil && intent == nil { lines.removeLast() }
          intentLine =
            verdict.annotated.count
            + (lines.firstIndex { $0.hasPrefix("- intent:") || $0.hasPrefix("  intent:") } ?? 0)
          verdict.annotated += lines
        }
        if diverged {
          verdict.annotated += turn.steps.flatMap(\.yaml)
          continue
        }
        if let failure = await send(line) {
          verdict.error = StoryModelFailure(failure)
          return verdict
        }
      } else if diverged {
        verdict.annotated += turn.steps.flatMap(\.yaml)
        continue
      }
      guard let tracker = await events() else {
        verdict.error = StoryModelFailure("GET /conversations/{id}/tracker: no events")
        return verdict
      }
      var ran = Self.executed(tracker, afterUser: turn.user != nil)[...]
      var reading: StoryJudge.Reading?
      if let user = turn.user, case .user(let text, let intent, _, _) = user,
        let read = tracker.last(where: { $0["event"]?.stringValue == "user" })?["parse_data"]?[
          "intent"]
      {
        let read = StoryJudge.Reading(
          text: text ?? Self.line(user), expected: intent,
          intent: read["name"]?.stringValue ?? "?", confidence: read["confidence"]?.numberValue ?? 0
        )
        verdict.readings.append(read)
        reading = read
      }
      // A retrieval response runs under its base name (`utter_faq`); the story names the
      // one the intent chose (`utter_faq/ask_visa`).
      let retrieval = TrackerEvents.lastRetrievalIntent(tracker)
      var expected: [(name: String, location: SourceLocation?)] = []
      for case .action(let name, let location) in turn.steps { expected.append((name, location)) }
      let last = index == turns.count - 1
      if !last || story.endsListening { expected.append((Self.listen, nil)) }
      var position = 0
      for step in turn.steps {
        guard case .action = step else {
          verdict.annotated += step.yaml
          continue
        }
        if diverged {
          verdict.annotated += step.yaml
          continue
        }
        let want = expected[position]
        position += 1
        var got = ran.popFirst() ?? StoryPrediction(action: Self.listen, policy: nil, confidence: 1)
        if let slash = want.name.firstIndex(of: "/"), got.action == want.name[..<slash],
          let retrieval,
          let chosen = retrieval.split(separator: "/", maxSplits: 1).dropFirst().first
        {
          got.action += "/" + chosen
        }
        let check = StoryJudge.Check(expected: want.name, prediction: got, location: want.location)
        verdict.checks.append(check)
        if check.passed {
          verdict.annotated += step.yaml
        } else {
          diverged = true
          verdict.annotated.append(Self.marked("- action: " + want.name, got.action))
          Self.markMisread(reading, at: intentLine, in: &verdict)
        }
      }
      // The turn's end: the bot listens, as the story's next user line (or its end) says.
      if !diverged, position < expected.count {
        let got = ran.popFirst() ?? StoryPrediction(action: Self.listen, policy: nil, confidence: 1)
        let check = StoryJudge.Check(expected: Self.listen, prediction: got, location: nil)
        verdict.checks.append(check)
        if !check.passed {
          diverged = true
          verdict.annotated.append(Self.marked("- action: " + Self.listen, got.action))
          Self.markMisread(reading, at: intentLine, in: &verdict)
        }
      }
    }
    return verdict
  }

  /// Where the bot parted from the story at a turn its NLU read otherwise than the story
  /// says, that reading is the likely cause: kept, and marked on the intent's line.
  static func markMisread(
    _ reading: StoryJudge.Reading?, at line: Int?, in verdict: inout StoryJudge.Verdict
  ) {
    guard let reading, reading.differs, let line, verdict.annotated.indices.contains(line) else {
      return
    }
    verdict.misread = reading
    verdict.annotated[line] = marked(verdict.annotated[line], reading.intent, as: "predicted")
  }

  /// The line where the story and the bot parted, marked with what the bot ran (the
  /// server's name on one line: a newline in it cannot add YAML lines).
  static func marked(_ line: String, _ ran: String, as label: String = "executed") -> String {
    line + "  # " + label + ": " + TerminalSanitizer.clean(ran, keepNewlines: false)
  }
}
