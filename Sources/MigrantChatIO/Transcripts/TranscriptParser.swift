import Foundation
import MigrantChatCore
import Yams

/// Reads transcript YAML files: one conversation per YAML document (`---` between).
///
/// Strict about keys, liberal about scalars: an unknown key is an error naming
/// it and its line (a typo must never make a check pass silently), while
/// numbers and booleans are taken as text where text is expected (`user: 2`).
public enum TranscriptParser {
  /// A problem in a transcript file, with where it is.
  public struct Problem: Error, Sendable, Hashable {
    public var file: String
    public var line: Int
    public var column: Int?
    public var kind: Kind

    public enum Kind: Sendable, Hashable {
      case notYAML(detail: String)
      case unknownKey(key: String, allowed: [String])
      case missing(key: String)
      case expected(what: String, key: String)
      case conflicting(keys: [String])
      case badRegex(pattern: String)
      /// An `ignore:` pattern that matches the empty text (it would mask everything).
      case ignoreMatchesEmpty(pattern: String)
      case badLanguage(value: String)
      case unreadable
      /// Nothing in the file: empty, or only `---` (it used to be passed over silently).
      case empty
      case isDirectory
      /// Binary: not UTF-8, or NUL bytes.
      case notText
      /// Rasa Pro's `stub_custom_actions`: the deployed action server cannot be stubbed.
      case stubbedActions(names: [String])
      /// A test case names a fixture or a metadata entry the file does not define.
      case undefined(what: String, name: String, defined: [String])
      /// A test story step `replay` cannot judge (a checkpoint, a rule's condition, a
      /// bot's text as an action), with why.
      case storyStep(key: String)
      /// Rasa's training data or domain (`nlu:`, `responses:` …), not a test.
      case rasaNotATest(key: String)
    }

    public func message(_ l10n: Localizer) -> String {
      let place = "\(file):\(line)" + (column.map { ":\($0)" } ?? "")
      let text: String =
        switch kind {
        case .notYAML(let detail): l10n(.transcriptNotYAML, ["detail": detail])
        case .unknownKey(let key, let allowed):
          l10n(.transcriptUnknownKey, ["key": key, "allowed": allowed.joined(separator: ", ")])
        case .missing(let key): l10n(.transcriptMissing, ["key": key])
        case .expected(let what, let key): l10n(.transcriptExpected, ["what": what, "key": key])
        case .conflicting(let keys):
          l10n(.transcriptConflicting, ["keys": keys.joined(separator: ", ")])
        case .badRegex(let pattern): l10n(.transcriptBadRegex, ["pattern": pattern])
        case .ignoreMatchesEmpty(let pattern):
          l10n(.ignoreMatchesEmpty, ["pattern": pattern])
        case .badLanguage(let value): l10n(.transcriptBadLanguage, ["value": value])
        case .unreadable: l10n(.transcriptUnreadable)
        case .empty: l10n(.transcriptEmpty)
        case .isDirectory: l10n(.transcriptIsDirectory)
        case .notText: l10n(.transcriptNotText)
        case .stubbedActions(let names):
          l10n(.transcriptStubbedActions, ["names": names.joined(separator: ", ")])
        case .storyStep(let key): l10n(.storyUnsupportedStep, ["key": key])
        case .rasaNotATest(let key): l10n(.transcriptRasaNotATest, ["key": key])
        case .undefined(let what, let name, let defined):
          l10n(
            .transcriptUndefined,
            [
              "what": what, "name": name,
              "defined": defined.isEmpty ? "-" : defined.joined(separator: ", "),
            ])
        }
      return place + ": " + TerminalSanitizer.clean(text, keepNewlines: false)
    }
  }

  public static func load(path: String) throws(Problem) -> [Transcript] {
    let transcripts = try parse(try text(path: path), file: path)
    guard !transcripts.isEmpty else {
      throw Problem(file: path, line: 1, column: nil, kind: .empty)
    }
    return transcripts
  }

  /// A file's text: a folder, an unreadable or a binary file is a problem with its name.
  static func text(path: String) throws(Problem) -> String {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      throw Problem(file: path, line: 1, column: nil, kind: .isDirectory)
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Problem(file: path, line: 1, column: nil, kind: .unreadable)
    }
    guard !data.contains(0), let text = String(validating: data, as: UTF8.self) else {
      throw Problem(file: path, line: 1, column: nil, kind: .notText)
    }
    return text
  }

  public static func parse(_ text: String, file: String) throws(Problem) -> [Transcript] {
    var documents: [Node] = []
    do {
      // nextRoot, not compose_all: its sequence stops quietly at an error.
      let parser = try Yams.Parser(yaml: text)
      while let root = try parser.nextRoot() { documents.append(root) }
    } catch let error as YamlError {
      throw yamlProblem(error, file: file)
    } catch {
      throw Problem(file: file, line: 1, column: nil, kind: .notYAML(detail: "\(error)"))
    }
    let reader = Reader(file: file)
    var transcripts: [Transcript] = []
    for node in documents {
      if case .scalar(let scalar) = node, scalar.string.isEmpty { continue }
      if node.mapping?["test_cases"] != nil {
        transcripts += try reader.rasaTestCases(node)
      } else if node.mapping?["stories"] != nil || node.mapping?["rules"] != nil {
        transcripts += try reader.testStories(node)
      } else if let rasa = node.mapping?.first(where: {
        Self.rasaDataKeys.contains($0.key.string ?? "")
      }) {
        // An NLU file or a domain left in tests/: said as what it is, not as a
        // transcript with unknown keys.
        throw reader.problem(rasa.key, .rasaNotATest(key: rasa.key.string ?? ""))
      } else if let mapping = node.mapping, mapping["version"] != nil,
        let other = mapping.first(where: { $0.key.string != "version" })
      {
        // `version:` makes it a Rasa file: `storys:` is a typo of a Rasa key.
        throw reader.problem(
          other.key,
          .unknownKey(
            key: other.key.string ?? "", allowed: ["stories", "rules", "test_cases", "version"]))
      } else {
        transcripts.append(try reader.transcript(node))
      }
    }
    return transcripts
  }

  /// The top-level keys of Rasa's training data, domain and config: never a test.
  static let rasaDataKeys: Set<String> = [
    "nlu", "responses", "intents", "entities", "slots", "forms", "actions", "session_config",
    "pipeline", "policies", "e2e_actions",
  ]

  static func yamlProblem(_ error: YamlError, file: String) -> Problem {
    switch error {
    case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _):
      return Problem(
        file: file, line: mark.line, column: mark.column, kind: .notYAML(detail: problem))
    default:
      return Problem(file: file, line: 1, column: nil, kind: .notYAML(detail: "\(error)"))
    }
  }

  // MARK: - Reading nodes

  struct Reader {
    let file: String

    /// `map` with a typed error (the standard one rethrows `any Error`).
    func each<T>(_ nodes: [Node], _ body: (Node) throws(Problem) -> T) throws(Problem) -> [T] {
      var results: [T] = []
      for node in nodes { results.append(try body(node)) }
      return results
    }

    func optional<T>(_ node: Node?, _ body: (Node) throws(Problem) -> T) throws(Problem) -> T? {
      guard let node else { return nil }
      return try body(node)
    }

    func problem(_ node: Node, _ kind: Problem.Kind) -> Problem {
      Problem(file: file, line: node.mark?.line ?? 1, column: node.mark?.column, kind: kind)
    }

    func location(_ node: Node) -> SourceLocation {
      SourceLocation(file: file, line: node.mark?.line ?? 1)
    }

    /// The mapping's entries, after checking every key is allowed.
    func entries(
      _ node: Node, allowed: [String], what: String, key: String
    ) throws(Problem) -> [String: Node] {
      guard let mapping = node.mapping else { throw problem(node, .expected(what: what, key: key)) }
      var result: [String: Node] = [:]
      for (keyNode, value) in mapping {
        let name = keyNode.string ?? ""
        guard allowed.contains(name) else {
          throw problem(keyNode, .unknownKey(key: name, allowed: allowed))
        }
        result[name] = value
      }
      return result
    }

    func text(_ node: Node, key: String) throws(Problem) -> String {
      guard let scalar = node.scalar else { throw problem(node, .expected(what: "text", key: key)) }
      return scalar.string
    }

    func bool(_ node: Node, key: String) throws(Problem) -> Bool {
      guard let value = node.bool else {
        throw problem(node, .expected(what: "true or false", key: key))
      }
      return value
    }

    func list(_ node: Node, key: String) throws(Problem) -> [String] {
      guard let sequence = node.sequence else {
        throw problem(node, .expected(what: "a list", key: key))
      }
      return try each(Array(sequence)) { item throws(Problem) in try text(item, key: key) }
    }

    func transcript(_ node: Node) throws(Problem) -> Transcript {
      let fields = try entries(
        node,
        allowed: ["name", "language", "sender", "start", "expected_failure", "ignore", "steps"],
        what: "a mapping", key: "transcript")
      guard let nameNode = fields["name"] else { throw problem(node, .missing(key: "name")) }
      guard let stepsNode = fields["steps"] else { throw problem(node, .missing(key: "steps")) }
      var language: Language?
      if let languageNode = fields["language"] {
        let code = try text(languageNode, key: "language")
        guard let parsed = Language(code: code) else {
          throw problem(languageNode, .badLanguage(value: code))
        }
        language = parsed
      }
      guard let sequence = stepsNode.sequence else {
        throw problem(stepsNode, .expected(what: "a list", key: "steps"))
      }
      // `start: /start`, or `start: {user: /start, bot: [...]}` to check its answer too.
      var start: String?
      var startCheck: Transcript.Step?
      if let startNode = fields["start"] {
        if startNode.mapping == nil {
          start = try text(startNode, key: "start")
        } else {
          startCheck = try step(startNode)
          start = startCheck?.user
        }
      }
      var transcript = Transcript(
        name: try text(nameNode, key: "name"), language: language,
        sender: try optional(fields["sender"]) { node throws(Problem) in
          try text(node, key: "sender")
        },
        start: start, startCheck: startCheck,
        steps: try each(Array(sequence)) { node throws(Problem) in try step(node) },
        location: location(node))
      transcript.expectedFailure = try optional(fields["expected_failure"]) {
        node throws(Problem) in try text(node, key: "expected_failure")
      }
      if let ignoreNode = fields["ignore"] { transcript.ignore = try ignore(ignoreNode) }
      return transcript
    }

    /// `ignore: REGEX` or a list of them: values masked in the text checks.
    func ignore(_ node: Node) throws(Problem) -> [String] {
      let patterns =
        node.sequence == nil ? [try text(node, key: "ignore")] : try list(node, key: "ignore")
      for pattern in patterns {
        switch TextMask.problem(with: pattern) {
        case .notARegex?: throw problem(node, .badRegex(pattern: pattern))
        case .matchesEmpty?: throw problem(node, .ignoreMatchesEmpty(pattern: pattern))
        case nil: continue
        }
      }
      return patterns
    }

    /// Rasa's end-to-end test files: `test_cases` with `user`, `bot`, `utter`, `slot_was_set`.
    ///
    /// `user` and `bot` are checked over HTTP (bot texts in order, other messages
    /// may come between); `utter` and `slot_was_set` through the tracker when the
    /// server has its HTTP API on. `metadata` entries named by a test case give its
    /// language; `fixtures` cannot be applied over the REST channel and are reported.
    func rasaTestCases(_ node: Node) throws(Problem) -> [Transcript] {
      let fields = try entries(
        node, allowed: ["test_cases", "fixtures", "metadata", "stub_custom_actions"],
        what: "a mapping", key: "test_cases")
      if let stubs = fields["stub_custom_actions"] {
        let names = (stubs.mapping?.keys).map { $0.compactMap(\.string) } ?? []
        throw problem(stubs, .stubbedActions(names: names))
      }
      var definitions = RasaDefinitions(metadata: [:], fixtures: [:])
      for (name, entry) in try namedEntries(fields["metadata"], key: "metadata") {
        guard let object = Self.json(entry.value).objectValue else {
          throw problem(entry.value, .expected(what: "a mapping", key: "metadata"))
        }
        definitions.metadata[name] = (object, entry.location)
      }
      for (name, entry) in try namedEntries(fields["fixtures"], key: "fixtures") {
        definitions.fixtures[name] = (try fixtureSlots(entry.value), entry.location)
      }
      guard let cases = fields["test_cases"]?.sequence else {
        throw problem(node, .expected(what: "a list", key: "test_cases"))
      }
      return try each(Array(cases)) { testCase throws(Problem) in
        try rasaTestCase(testCase, definitions: definitions)
      }
    }

    /// A file's named fixtures and metadata (`- name: ...` entries of a list).
    struct RasaDefinitions {
      var metadata: [String: ([String: JSONValue], SourceLocation)]
      var fixtures: [String: ([SlotCheck], SourceLocation)]
    }

    /// `- name: value` entries of a list, by name.
    func namedEntries(_ node: Node?, key: String) throws(Problem)
      -> [String: (value: Node, location: SourceLocation)]
    {
      guard let node else { return [:] }
      guard let sequence = node.sequence else {
        throw problem(node, .expected(what: "a list of '- name: ...' entries", key: key))
      }
      var named: [String: (value: Node, location: SourceLocation)] = [:]
      for entry in sequence {
        guard let mapping = entry.mapping else {
          throw problem(entry, .expected(what: "a '- name: ...' entry", key: key))
        }
        for (name, value) in mapping {
          named[name.string ?? ""] = (value, location(name))
        }
      }
      return named
    }

    /// A fixture's slots: `- slot: value` entries, in order.
    func fixtureSlots(_ node: Node) throws(Problem) -> [SlotCheck] {
      guard let sequence = node.sequence else {
        throw problem(node, .expected(what: "a list of '- slot: value' entries", key: "fixtures"))
      }
      var slots: [SlotCheck] = []
      for entry in sequence {
        guard let mapping = entry.mapping else {
          throw problem(entry, .expected(what: "a '- slot: value' entry", key: "fixtures"))
        }
        for (name, value) in mapping {
          slots.append(SlotCheck(name: name.string ?? "", value: Self.json(value)))
        }
      }
      return slots
    }

    func rasaTestCase(_ node: Node, definitions: RasaDefinitions) throws(Problem) -> Transcript {
      let fields = try entries(
        node, allowed: ["test_case", "steps", "fixtures", "metadata"], what: "a mapping",
        key: "test_cases")
      guard let nameNode = fields["test_case"] else {
        throw problem(node, .missing(key: "test_case"))
      }
      guard let stepNodes = fields["steps"]?.sequence else {
        throw problem(node, .missing(key: "steps"))
      }
      var transcript = Transcript(
        name: try text(nameNode, key: "test_case"), steps: [], location: location(node))
      if let name = fields["metadata"] {
        transcript.metadata = try metadata(named: name, in: definitions)
        if let code = transcript.metadata["language"]?.stringValue {
          transcript.language = Language(code: code)
        }
      }
      for name in fields["fixtures"]?.sequence ?? [] {
        let fixtureName = try text(name, key: "fixtures")
        guard let (slots, _) = definitions.fixtures[fixtureName] else {
          throw problem(
            name,
            .undefined(
              what: "fixtures", name: fixtureName, defined: definitions.fixtures.keys.sorted()))
        }
        transcript.fixtures.append(
          Transcript.Fixture(name: fixtureName, slots: slots, location: location(name)))
      }
      for stepNode in stepNodes {
        let step = try entries(
          stepNode,
          allowed: [
            "user", "bot", "utter", "slot_was_set", "slot_was_not_set", "metadata", "assertions",
          ],
          what: "a mapping",
          key: "steps")
        if let user = step["user"] {
          var userStep = Transcript.Step(
            user: try text(user, key: "user"), bot: [], allowExtra: true,
            location: location(stepNode))
          userStep.inOrderAmongOthers = true
          userStep.verbatim = true
          // The test case's metadata, with the step's own over it.
          userStep.metadata = transcript.metadata
          if let name = step["metadata"] {
            userStep.metadata.merge(try metadata(named: name, in: definitions)) { $1 }
          }
          if let assertions = step["assertions"] {
            try self.assertions(assertions, into: &userStep)
          }
          transcript.steps.append(userStep)
          continue
        }
        guard !transcript.steps.isEmpty else {
          throw problem(stepNode, .expected(what: "after a user step", key: "bot"))
        }
        if let metadata = step["metadata"] {
          // Sent with a message: on a bot step it would do nothing, silently.
          throw problem(metadata, .expected(what: "on a user step", key: "metadata"))
        }
        let last = transcript.steps.count - 1
        if let bot = step["bot"] {
          transcript.steps[last].bot?.append(
            MessageExpectation(
              text: .exact(try text(bot, key: "bot"), ignoreCase: false),
              location: location(stepNode)))
        }
        if let utter = step["utter"] {
          transcript.steps[last].utters.append(try text(utter, key: "utter"))
        }
        if let slots = step["slot_was_set"] {
          transcript.steps[last].slots += try slotChecks(slots, key: "slot_was_set")
        }
        if let slots = step["slot_was_not_set"] {
          transcript.steps[last].tracker.slotsNotSet += try slotChecks(
            slots, key: "slot_was_not_set")
        }
        if let assertions = step["assertions"] {
          try self.assertions(assertions, into: &transcript.steps[last])
        }
      }
      return transcript
    }

    /// The metadata a test case or a step names.
    func metadata(named node: Node, in definitions: RasaDefinitions) throws(Problem)
      -> [String: JSONValue]
    {
      let name = try text(node, key: "metadata")
      guard let (metadata, _) = definitions.metadata[name] else {
        throw problem(
          node,
          .undefined(what: "metadata", name: name, defined: definitions.metadata.keys.sorted()))
      }
      return metadata
    }

    func step(_ node: Node) throws(Problem) -> Transcript.Step {
      let fields = try entries(
        node,
        allowed: [
          "user", "button", "bot", "messages", "allow_extra", "read", "intent", "entities",
          "slot_was_set",
          "slot_was_not_set", "action", "utter", "not",
        ], what: "a mapping", key: "steps")
      let user: String
      switch (fields["user"], fields["button"]) {
      case (let typed?, nil): user = try text(typed, key: "user")
      case (nil, let title?): user = try text(title, key: "button")
      case (nil, nil): throw problem(node, .missing(key: "user"))
      default: throw problem(node, .conflicting(keys: ["user", "button"]))
      }
      var expectations: [MessageExpectation]?
      if let bot = fields["bot"] {
        guard let sequence = bot.sequence else {
          throw problem(bot, .expected(what: "a list of messages", key: "bot"))
        }
        expectations = try each(Array(sequence)) { node throws(Problem) in try message(node) }
      }
      var count: Int?
      if let messages = fields["messages"] {
        guard let value = messages.int, value >= 0 else {
          throw problem(messages, .expected(what: "a number", key: "messages"))
        }
        count = value
      }
      var step = Transcript.Step(
        user: user, bot: expectations, messageCount: count,
        allowExtra: try optional(fields["allow_extra"]) { node throws(Problem) in
          try bool(node, key: "allow_extra")
        } ?? false,
        location: location(node))
      step.clicked = fields["button"] != nil
      step.read =
        try optional(fields["read"]) { node throws(Problem) in try bool(node, key: "read") }
        ?? false
      try trackerChecks(fields, into: &step)
      return step
    }

    func message(_ node: Node) throws(Problem) -> MessageExpectation {
      let fields = try entries(
        node, allowed: ["text", "buttons", "contacts", "image", "custom", "not"],
        what: "a mapping", key: "bot")
      var expectation = MessageExpectation(location: location(node))
      expectation.text = try optional(fields["text"]) { node throws(Problem) in
        try textMatch(node, key: "text")
      }
      expectation.image = try optional(fields["image"]) { node throws(Problem) in
        try textMatch(node, key: "image")
      }
      expectation.buttons = try optional(fields["buttons"]) { node throws(Problem) in
        try listMatch(node, key: "buttons")
      }
      if let contacts = fields["contacts"], let items = contacts.sequence,
        items.contains(where: { $0.mapping != nil })
      {
        expectation.cards = try each(Array(items)) { card throws(Problem) in
          var matches: [String: TextMatch] = [:]
          for (key, value) in try entries(
            card, allowed: MessageExpectation.cardFields, what: "card fields", key: "contacts")
          {
            matches[key] = try textMatch(value, key: key)
          }
          return matches
        }
      } else {
        expectation.contacts = try optional(fields["contacts"]) { node throws(Problem) in
          try listMatch(node, key: "contacts")
        }
      }
      expectation.custom = fields["custom"].map(Self.json)
      if let negated = fields["not"] {
        if let sequence = negated.sequence {
          expectation.not = try each(Array(sequence)) { node throws(Problem) in try message(node) }
        } else {
          expectation.not = [try message(negated)]
        }
      }
      return expectation
    }

    func textMatch(_ node: Node, key: String) throws(Problem) -> TextMatch {
      if node.scalar != nil { return .exact(try text(node, key: key), ignoreCase: false) }
      let modes = ["exact", "contains", "regex", "glob", "any_of"]
      let fields = try entries(
        node, allowed: modes + ["ignore_case"], what: "text or a match", key: key)
      let ignoreCase =
        try optional(fields["ignore_case"]) { node throws(Problem) in
          try bool(node, key: "ignore_case")
        }
        ?? false
      let given = modes.filter { fields[$0] != nil }
      guard given.count == 1, let mode = given.first, let value = fields[mode] else {
        throw problem(node, given.isEmpty ? .missing(key: "contains") : .conflicting(keys: given))
      }
      switch mode {
      case "exact": return .exact(try text(value, key: mode), ignoreCase: ignoreCase)
      case "contains": return .contains(try text(value, key: mode), ignoreCase: ignoreCase)
      case "glob": return .glob(try text(value, key: mode), ignoreCase: ignoreCase)
      case "regex":
        let pattern = try text(value, key: mode)
        guard (try? NSRegularExpression(pattern: pattern)) != nil else {
          throw problem(value, .badRegex(pattern: pattern))
        }
        return .regex(pattern, ignoreCase: ignoreCase)
      default:
        guard let choices = value.sequence else {
          throw problem(value, .expected(what: "a list", key: "any_of"))
        }
        return .anyOf(
          try each(Array(choices)) { choice throws(Problem) in
            let match = try textMatch(choice, key: "any_of")
            if ignoreCase, case .exact(let text, _) = match {
              return .exact(text, ignoreCase: true)
            }
            return match
          })
      }
    }

    func listMatch(_ node: Node, key: String) throws(Problem) -> ListMatch {
      if node.sequence != nil { return .exact(try list(node, key: key)) }
      let fields = try entries(node, allowed: ["exact", "contains"], what: "a list", key: key)
      switch (fields["exact"], fields["contains"]) {
      case (let exact?, nil): return .exact(try list(exact, key: "exact"))
      case (nil, let contains?): return .contains(try list(contains, key: "contains"))
      case (nil, nil): throw problem(node, .missing(key: "contains"))
      default: throw problem(node, .conflicting(keys: ["exact", "contains"]))
      }
    }

    /// A YAML node as JSON: scalars by their YAML type. `strictBooleans`: only `true` and
    /// `false` are booleans, as YAML 1.2 (Rasa's reader) has it; `yes`, `no`, `on`, `off`
    /// stay text (a categorical slot's values).
    static func json(_ node: Node) -> JSONValue { json(node, strictBooleans: false) }

    static func json(_ node: Node, strictBooleans: Bool) -> JSONValue {
      switch node {
      case .scalar(let scalar):
        if scalar.style == .plain {
          if let bool = node.bool,
            !strictBooleans || ["true", "false"].contains(scalar.string.lowercased())
          {
            return .bool(bool)
          }
          if let number = node.float, scalar.string.rangeOfCharacter(from: .letters) == nil {
            return .number(number)
          }
          if node.null != nil { return .null }
        }
        return .string(scalar.string)
      case .sequence(let sequence):
        return .array(sequence.map { json($0, strictBooleans: strictBooleans) })
      case .mapping(let mapping):
        var object: [String: JSONValue] = [:]
        for (key, value) in mapping {
          object[key.string ?? ""] = json(value, strictBooleans: strictBooleans)
        }
        return .object(object)
      case .alias: return .null
      }
    }
  }
}
