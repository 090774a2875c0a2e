import Foundation

/// Judges a test story against a deployed model as `rasa test core` does.
///
/// The story's events are made explicit as Rasa makes them (an `action_listen` before
/// each user turn and at the end; the slots a user turn's entities fill), then walked:
/// before each action, the model is asked for its next action given the events so far;
/// the story's own action is then added whatever was predicted, so one wrong prediction
/// does not spoil the rest. A form the model keeps running where the story leaves it
/// (`active_loop: null` without the form's questions answered) is rejected once and
/// asked again, as `rasa test core` emulates it.
public struct StoryJudge: Sendable {
  public struct Check: Sendable, Hashable {
    public var expected: String
    public var prediction: StoryPrediction
    /// The story's line for the action; nil for an implicit `action_listen`.
    public var location: SourceLocation?
    public var passed: Bool { expected == prediction.action }
  }

  /// What the bot's NLU made of a user turn: the story's text and intent, the tracker's.
  public struct Reading: Sendable, Hashable {
    public var text: String
    public var expected: String?
    public var intent: String
    public var confidence: Double
    public var differs: Bool { expected != nil && expected != intent }
  }

  public struct Verdict: Sendable {
    public var checks: [Check] = []
    /// The model could not be asked, and why.
    public var error: StoryModelFailure?
    /// The story as it ran, in Rasa's test-story YAML, a wrong prediction marked
    /// `# predicted: ACTION` as `rasa test core` marks it in `failed_test_stories.yml`.
    public var annotated: [String] = []
    /// `--stories execute`: how the bot's NLU read each user turn sent, in order.
    public var readings: [Reading] = []
    /// The turn where the bot parted from the story, read otherwise than the story says.
    public var misread: Reading?
    public var passed: Bool { error == nil && checks.allSatisfy(\.passed) }
    public var firstWrong: Check? { checks.first { !$0.passed } }
  }

  let model: any StoryModel
  let domain: StoryDomain

  /// Nil with the reason when the model's domain cannot be read (no `--enable-api`).
  public static func make(model: any StoryModel) async -> Result<StoryJudge, StoryModelFailure> {
    switch await model.domain() {
    case .success(let json): .success(StoryJudge(model: model, domain: StoryDomain(json: json)))
    case .failure(let failure): .failure(failure)
    }
  }

  init(model: any StoryModel, domain: StoryDomain) {
    self.model = model
    self.domain = domain
  }

  private static let listen = "action_listen"

  public func judge(_ story: TestStory) async -> Verdict {
    var verdict = Verdict()
    // The story's events, explicit, each with its line and its text as a story writes it.
    var gold: [(event: JSONValue, location: SourceLocation?, yaml: [String])] = []
    func addListen() {
      if gold.last?.event["event"]?.stringValue == "action"
        && gold.last?.event["name"]?.stringValue == Self.listen
      {
        return
      }
      gold.append((Self.action(Self.listen), nil, []))
    }
    for step in story.steps {
      switch step {
      case .user(let text, let intent, let entities, _):
        addListen()
        var parse: JSONValue
        if let intent {
          // A retrieval intent (`faq/ask_visa`): the intent is `faq`, the rest its response's.
          let base = intent.split(separator: "/", maxSplits: 1).first.map(String.init) ?? intent
          var named: [String: JSONValue] = ["name": .string(base), "confidence": .number(1)]
          if base != intent { named["full_retrieval_intent_name"] = .string(intent) }
          parse = .object([
            "intent": .object(named), "entities": .array(entities.map(\.json)),
            "text": .string(text ?? ""),
          ])
        } else {
          switch await model.parse(text ?? "") {
          case .success(let parsed): parse = parsed
          case .failure(let failure):
            verdict.error = failure
            return verdict
          }
          if !entities.isEmpty, case .object(var fields) = parse {
            fields["entities"] = .array(entities.map(\.json))
            parse = .object(fields)
          }
        }
        var event: [String: JSONValue] = ["event": .string("user"), "parse_data": parse]
        if let text { event["text"] = .string(text) }
        let read = intent ?? parse["intent"]?["name"]?.stringValue ?? "?"
        let yaml = TestStory.yaml(text: text, intent: read, entities: entities)
        gold.append((.object(event), nil, yaml))
        for slot in domain.slots(for: entities) { gold.append((slot, nil, [])) }
      case .action(let name, let location):
        gold.append((Self.action(name), location, step.yaml))
      case .activeLoop(let name):
        gold.append(
          (
            .object(["event": .string("active_loop"), "name": name.map(JSONValue.string) ?? .null]),
            nil, step.yaml
          ))
      case .slot(let name, let value):
        let set = value ?? domain.defaults[name] ?? .null
        gold.append(
          (
            .object(["event": .string("slot"), "name": .string(name), "value": set]), nil,
            step.yaml
          ))
      }
    }
    if story.endsListening { addListen() }
    guard let first = gold.first else { return verdict }
    var partial = [first.event]
    verdict.annotated += first.yaml
    for (event, location, yaml) in gold.dropFirst() {
      guard event["event"]?.stringValue == "action", let expected = event["name"]?.stringValue
      else {
        partial.append(event)
        verdict.annotated += yaml
        continue
      }
      var prediction: StoryPrediction
      switch await model.predict(partial) {
      case .success(let predicted): prediction = predicted
      case .failure(let failure):
        verdict.error = failure
        return verdict
      }
      if prediction.action != expected, prediction.policy != nil,
        let loop = TrackerEvents.activeLoop(partial), loop == prediction.action,
        domain.forms.contains(loop)
      {
        // The story leaves the form here: rejected, as the action server would.
        partial.append(
          .object(["event": .string("action_execution_rejected"), "name": .string(loop)]))
        switch await model.predict(partial) {
        case .success(let again): prediction = again
        case .failure(let failure):
          verdict.error = failure
          return verdict
        }
      }
      // A retrieval response is predicted by its base name (`utter_faq`); the story names
      // the one its intent chose (`utter_faq/ask_visa`), as Rasa's test compares them.
      if let slash = expected.firstIndex(of: "/"), prediction.action == expected[..<slash],
        let full = TrackerEvents.lastRetrievalIntent(partial),
        let chosen = full.split(separator: "/", maxSplits: 1).dropFirst().first
      {
        prediction.action += "/" + chosen
      }
      let check = Check(expected: expected, prediction: prediction, location: location)
      verdict.checks.append(check)
      var executed: [String: JSONValue] = ["event": .string("action"), "name": .string(expected)]
      if let policy = prediction.policy { executed["policy"] = .string(policy) }
      executed["confidence"] = .number(prediction.confidence)
      partial.append(.object(executed))
      if !check.passed {
        // Rasa writes a wrong prediction where the story's action is, listen included.
        let line = yaml.first ?? "- action: " + expected
        // The server's words on one line: a name with a newline cannot add YAML lines.
        verdict.annotated.append(
          line + "  # predicted: "
            + TerminalSanitizer.clean(prediction.action, keepNewlines: false))
      } else {
        verdict.annotated += yaml
      }
    }
    return verdict
  }

  static func action(_ name: String) -> JSONValue {
    .object(["event": .string("action"), "name": .string(name)])
  }

  /// A YAML double-quoted scalar.
  static func quoted(_ text: String) -> String {
    JSONValue.string(text.trimmingCharacters(in: .whitespacesAndNewlines)).compactText
  }
}

/// What a tracker's events say, for explore and the story judge.
enum TrackerEvents {
  /// The loop active at the end of `events`, or nil.
  static func activeLoop<Events: Sequence>(_ events: Events) -> String?
  where Events.Element == JSONValue {
    var loop: String?
    for event in events where event["event"]?.stringValue == "active_loop" {
      loop = event["name"]?.stringValue
    }
    return loop
  }

  /// The last user turn's retrieval intent in full (`faq/ask_visa`), or nil.
  static func lastRetrievalIntent(_ events: [JSONValue]) -> String? {
    events.last { $0["event"]?.stringValue == "user" }?["parse_data"]?["intent"]?[
      "full_retrieval_intent_name"]?.stringValue
  }
}
