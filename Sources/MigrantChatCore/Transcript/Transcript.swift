/// A scripted conversation: what the user says, and what the bot must answer.
public struct Transcript: Sendable, Hashable {
  public var name: String
  public var language: Language?
  /// A fixed conversation id; by default each run gets a fresh random one.
  public var sender: String?
  /// Sent before the steps, and again after `/restart` and `/new`, as the chat does.
  public var start: String?
  /// What the answer to `start` must be (`start: {user: ..., bot: [...]}`); nil checks nothing.
  public var startCheck: Step?
  /// Parts of the file that were not applied (Rasa `fixtures` with `--skip-fixtures`).
  public var unsupported: [Unsupported] = []
  /// Rasa Pro's `fixtures`: slots set through the tracker's events API before the
  /// first step, in the file's order.
  public var fixtures: [Fixture] = []
  /// Rasa Pro's test-case `metadata`: sent with every user message, under each
  /// step's own `metadata`.
  public var metadata: [String: JSONValue] = [:]
  public var steps: [Step]
  /// Where it was read from, for messages: `file:line`.
  public var location: SourceLocation
  /// `expected_failure: REASON`: a known defect of the bot (what `explore` found). A run
  /// that fails is expected (XFAIL, not a failure); one that passes says the bot may have
  /// been fixed (FIXED).
  public var expectedFailure: String?
  /// `ignore:` patterns: values that change from run to run, masked in text checks.
  public var ignore: [String] = []
  /// A Rasa test story (`stories:` or `rules:`), judged by the model's predictions
  /// rather than replayed as a chat: `steps` is empty then.
  public var story: TestStory?

  public init(
    name: String, language: Language? = nil, sender: String? = nil, start: String? = nil,
    startCheck: Step? = nil, steps: [Step], location: SourceLocation
  ) {
    self.name = name
    self.language = language
    self.sender = sender
    self.start = start
    self.startCheck = startCheck
    self.steps = steps
    self.location = location
  }

  /// A part of a transcript that replay did not apply, reported as skipped.
  public enum Unsupported: Sendable, Hashable {
    /// Rasa `fixtures`, with `--skip-fixtures`: slots set before the conversation.
    case fixtures(location: SourceLocation, names: String)

    public func text(_ l10n: Localizer) -> String {
      switch self {
      case .fixtures(let location, let names):
        l10n(.replayFixturesSkipped, ["location": location.description, "names": names])
      }
    }
  }

  /// A Rasa Pro fixture named by a test case: the slots it sets, in order.
  public struct Fixture: Sendable, Hashable {
    public var name: String
    public var slots: [SlotCheck]
    public var location: SourceLocation

    public init(name: String, slots: [SlotCheck], location: SourceLocation) {
      self.name = name
      self.slots = slots
      self.location = location
    }

    /// The tracker events that set its slots (`POST /conversations/{id}/tracker/events`).
    public var events: [JSONValue] {
      slots.map { slot in
        .object([
          "event": .string("slot"), "name": .string(slot.name), "value": slot.value ?? .null,
        ])
      }
    }
  }

  /// One user turn and the expectations for the bot's answer to it.
  public struct Step: Sendable, Hashable {
    /// A line as typed: text, a button number, or a button's title.
    public var user: String
    /// Written `button:`: a click on a title, not words typed.
    public var clicked = false
    /// Rasa's end-to-end files: `user:` is sent exactly as written, never read as a
    /// button's number or title.
    public var verbatim = false
    /// `read: true`: the line is read as the chat reads one before sending it (typed with
    /// the wrong layout or in Latin letters, #48); a step is otherwise sent as written.
    public var read = false
    /// The bot's messages, in order; nil checks nothing about the answer.
    public var bot: [MessageExpectation]?
    /// The exact number of messages, when given.
    public var messageCount: Int?
    /// Messages after the expected ones are allowed.
    public var allowExtra: Bool
    /// Rasa end-to-end files: the expected messages appear in this order, others may come between.
    public var inOrderAmongOthers: Bool = false
    /// Rasa `utter` steps: bot actions the tracker must show after this user turn.
    public var utters: [String] = []
    /// Rasa `slot_was_set`: slots (with a value, when given) the tracker must show.
    public var slots: [SlotCheck] = []
    /// The other tracker checks: intent, entities, `slot_was_not_set`, actions, `not`.
    public var tracker = TrackerExpectations()

    /// Rasa Pro's `metadata` for this message (the test case's, then the step's own).
    public var metadata: [String: JSONValue] = [:]
    /// Checks that need Rasa's tracker (`--enable-api`).
    public var trackerCheckCount: Int { utters.count + slots.count + tracker.count }
    public var location: SourceLocation

    public init(
      user: String, bot: [MessageExpectation]?, messageCount: Int? = nil, allowExtra: Bool = false,
      location: SourceLocation
    ) {
      self.user = user
      self.bot = bot
      self.messageCount = messageCount
      self.allowExtra = allowExtra
      self.location = location
    }
  }
}

/// A `slot_was_set` check: the slot, and its value when one is given.
public struct SlotCheck: Sendable, Hashable {
  public var name: String
  public var value: JSONValue?

  public init(name: String, value: JSONValue?) {
    self.name = name
    self.value = value
  }
}

/// Where a replay reads a conversation's tracker: Rasa's HTTP API (`--enable-api`).
public protocol TrackerSource: Sendable {
  /// The tracker's events, or nil when the server does not publish trackers.
  func events(sender: String) async -> [JSONValue]?
  /// Adds events to the conversation (`POST /conversations/{id}/tracker/events`): nil
  /// when they were added, else why not, in a few words (`404 Not Found`).
  func append(_ events: [JSONValue], sender: String) async -> StoryModelFailure?
}

extension TrackerSource {
  /// A source that only reads: nothing can be added.
  public func append(_ events: [JSONValue], sender: String) async -> StoryModelFailure? {
    StoryModelFailure("this tracker source cannot add events")
  }
}

/// `file:line` in a transcript.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
  public var file: String
  public var line: Int

  public init(file: String, line: Int) {
    self.file = file
    self.line = line
  }

  public var description: String { "\(file):\(line)" }
}

/// What one bot message must look like; every given part must match.
public struct MessageExpectation: Sendable, Hashable {
  public var text: TextMatch?
  public var buttons: ListMatch?
  public var contacts: ListMatch?
  /// The contact cards, in order: fields of each card (`name`, `city`, ...) to match.
  public var cards: [[String: TextMatch]]?
  public var image: TextMatch?
  /// A JSON subset of `custom`: every key given must be there with that value.
  public var custom: JSONValue?
  /// Parts that must *not* match.
  public var not: [MessageExpectation]
  public var location: SourceLocation

  public init(
    text: TextMatch? = nil, buttons: ListMatch? = nil, contacts: ListMatch? = nil,
    image: TextMatch? = nil, custom: JSONValue? = nil, not: [MessageExpectation] = [],
    location: SourceLocation
  ) {
    self.text = text
    self.buttons = buttons
    self.contacts = contacts
    self.image = image
    self.custom = custom
    self.not = not
    self.location = location
  }
}

/// How a text must match.
public indirect enum TextMatch: Sendable, Hashable {
  case exact(String, ignoreCase: Bool)
  case contains(String, ignoreCase: Bool)
  case regex(String, ignoreCase: Bool)
  /// `*` any run of characters, `?` one character.
  case glob(String, ignoreCase: Bool)
  case anyOf([TextMatch])
}

/// How a list (button titles, contact ids) must match.
public enum ListMatch: Sendable, Hashable {
  /// These, in this order, and no others.
  case exact([String])
  /// At least these, in any order.
  case contains([String])
}
