import Foundation
import MigrantChatCore
import Yams

/// Rasa's test stories, as `rasa test core --stories` reads them: `stories:` and
/// `rules:` with `user:` (entity marks `[Brno](city)` or `[Brno]{"entity": "city"}`),
/// `intent:` (with `entities:`), `action:`, `active_loop:`, `slot_was_set:` and `or:`
/// (each alternative its own story). Checkpoints, a rule's `condition:` and a bot's
/// text as an action are refused with the reason, as an unknown key is.
extension TranscriptParser.Reader {
  /// A name (an intent, an action, a slot): text that is not empty. `- intent:` with
  /// nothing after it would judge "expected , the model predicted …".
  func name(_ node: Node, key: String) throws(Problem) -> String {
    let given = try text(node, key: key).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !given.isEmpty else { throw problem(node, .expected(what: "a name", key: key)) }
    return given
  }

  func testStories(_ node: Node) throws(Problem) -> [Transcript] {
    let fields = try entries(
      node, allowed: ["version", "stories", "rules"], what: "a mapping", key: "stories")
    var transcripts: [Transcript] = []
    for key in ["stories", "rules"] {
      guard let list = fields[key] else { continue }
      guard let sequence = list.sequence else {
        throw problem(list, .expected(what: "a list", key: key))
      }
      for item in sequence {
        transcripts += try testStory(item, rule: key == "rules")
      }
    }
    return transcripts
  }

  func testStory(_ node: Node, rule: Bool) throws(Problem) -> [Transcript] {
    let nameKey = rule ? "rule" : "story"
    let fields = try entries(
      node,
      allowed: [
        nameKey, "steps", "metadata", "condition", "wait_for_user_input", "conversation_start",
      ],
      what: "a mapping", key: rule ? "rules" : "stories")
    if let condition = fields["condition"] {
      throw problem(condition, .storyStep(key: "condition"))
    }
    guard let nameNode = fields[nameKey] else { throw problem(node, .missing(key: nameKey)) }
    guard let stepsNode = fields["steps"] else { throw problem(node, .missing(key: "steps")) }
    guard let sequence = stepsNode.sequence else {
      throw problem(stepsNode, .expected(what: "a list", key: "steps"))
    }
    let name = try text(nameNode, key: nameKey)
    // A story that checks nothing never passes: said where it is.
    guard !sequence.isEmpty else {
      throw problem(stepsNode, .expected(what: "at least one step", key: "steps"))
    }
    // Each `or:` multiplies the story: one for each of its alternatives.
    var variants: [[TestStory.Step]] = [[]]
    for stepNode in sequence {
      let choices = try storySteps(stepNode)
      variants = variants.flatMap { variant in choices.map { variant + $0 } }
    }
    let at = location(node)
    let waits = try optional(fields["wait_for_user_input"]) { node throws(Problem) in
      try bool(node, key: "wait_for_user_input")
    }
    return variants.enumerated().map { index, steps in
      var transcript = Transcript(
        name: variants.count > 1 ? "\(name) (or \(index + 1))" : name, steps: [], location: at)
      var story = TestStory(name: name, steps: steps, location: at)
      story.endsListening = waits ?? true
      transcript.story = story
      return transcript
    }
  }

  /// One step of a story: its alternatives (one, but for `or:`), each some steps.
  func storySteps(_ node: Node) throws(Problem) -> [[TestStory.Step]] {
    guard let mapping = node.mapping else {
      throw problem(node, .expected(what: "a mapping", key: "steps"))
    }
    let keys = Set(mapping.keys.compactMap(\.string))
    for refused in ["checkpoint", "bot"] where keys.contains(refused) {
      throw problem(node, .storyStep(key: refused))
    }
    if let or = mapping["or"] {
      guard let alternatives = or.sequence, !alternatives.isEmpty else {
        throw problem(or, .expected(what: "a list of alternatives", key: "or"))
      }
      var choices: [[TestStory.Step]] = []
      for alternative in alternatives { choices += try storySteps(alternative) }
      return choices
    }
    if keys.contains("user") || keys.contains("intent") {
      let fields = try entries(
        node, allowed: ["user", "intent", "entities", "metadata"], what: "a mapping", key: "steps")
      var said: String?
      var entities: [TestStory.Entity] = []
      if let userNode = fields["user"] {
        (said, entities) = try Self.marked(
          try text(userNode, key: "user"), node: userNode, reader: self)
      }
      // As Rasa reads it: with a user line, its marks are the entities (`entities:` is not).
      if said == nil, let list = fields["entities"] { entities = try storyEntities(list) }
      let intent = try optional(fields["intent"]) { node throws(Problem) in
        Self.intentName(try name(node, key: "intent"))
      }
      return [[.user(text: said, intent: intent, entities: entities, location: location(node))]]
    }
    if let action = mapping["action"] {
      _ = try entries(node, allowed: ["action"], what: "a mapping", key: "steps")
      return [[.action(try name(action, key: "action"), location: location(node))]]
    }
    if let loop = mapping["active_loop"] {
      _ = try entries(node, allowed: ["active_loop"], what: "a mapping", key: "steps")
      let name = loop.null != nil ? nil : try text(loop, key: "active_loop")
      return [[.activeLoop(name == "null" ? nil : name)]]
    }
    if let slots = mapping["slot_was_set"] {
      _ = try entries(node, allowed: ["slot_was_set"], what: "a mapping", key: "steps")
      guard let list = slots.sequence else {
        throw problem(slots, .expected(what: "a list", key: "slot_was_set"))
      }
      var steps: [TestStory.Step] = []
      for item in list {
        if let pairs = item.mapping {
          for (name, value) in pairs {
            steps.append(
              .slot(name.string ?? "", TranscriptParser.Reader.json(value, strictBooleans: true)))
          }
        } else {
          steps.append(.slot(try name(item, key: "slot_was_set"), nil))
        }
      }
      return [steps]
    }
    let allowed = ["user", "intent", "action", "active_loop", "slot_was_set", "or"]
    let key = mapping.keys.first?.string ?? ""
    throw problem(mapping.keys.first ?? node, .unknownKey(key: key, allowed: allowed))
  }

  /// `entities:` of an intent step, as Rasa reads them: `- city` (no value), `- city:
  /// Brno` with `role:` and `group:` beside it, or `- entity: city` with `value:`.
  func storyEntities(_ node: Node) throws(Problem) -> [TestStory.Entity] {
    guard let list = node.sequence else {
      throw problem(node, .expected(what: "a list", key: "entities"))
    }
    var entities: [TestStory.Entity] = []
    for item in list {
      if item.mapping == nil {
        entities.append(
          TestStory.Entity(entity: try text(item, key: "entities"), value: .string("")))
        continue
      }
      guard let mapping = item.mapping else { continue }
      let role = mapping["role"]?.string
      let group = mapping["group"]?.string
      func value(_ node: Node?) -> JSONValue {
        node.map { TranscriptParser.Reader.json($0, strictBooleans: true) } ?? .string("")
      }
      if let entity = mapping["entity"] {
        entities.append(
          TestStory.Entity(
            entity: try text(entity, key: "entity"), value: value(mapping["value"]), role: role,
            group: group))
        continue
      }
      let names = mapping.keys.compactMap(\.string).filter { !["role", "group"].contains($0) }
      guard names.count == 1, let name = names.first else {
        throw problem(item, .expected(what: "one entity with its value", key: "entities"))
      }
      entities.append(
        TestStory.Entity(
          entity: name, value: value(mapping[name]), role: role, group: group))
    }
    return entities
  }

  /// An intent as Rasa reads it from a story: trimmed, without a leading `/`.
  static func intentName(_ given: String) -> String {
    let trimmed = given.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.hasPrefix("/") ? String(trimmed.dropFirst()) : trimmed
  }

  /// A user line with its entity marks taken out, and the entities they mark (with
  /// where they stand in the line, in characters as Rasa counts them).
  static func marked(_ line: String, node: Node, reader: TranscriptParser.Reader) throws(Problem)
    -> (String, [TestStory.Entity])
  {
    let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
    var text = ""
    var entities: [TestStory.Entity] = []
    var rest = Substring(trimmed)
    let mark = #/\[(?<shown>[^\]]+)\](?:\((?<name>[^)]+)\)|(?<json>\{[^}]*\}))/#
    while let match = rest.firstMatch(of: mark) {
      text += rest[..<match.range.lowerBound]
      let shown = String(match.output.shown)
      let start = text.unicodeScalars.count
      text += shown
      let end = text.unicodeScalars.count
      if let name = match.output.name {
        // `(city)`, or Rasa 1's `(city:brno)` with the value after a colon.
        let parts = name.split(separator: ":", maxSplits: 1).map(String.init)
        entities.append(
          TestStory.Entity(
            entity: parts[0], value: .string(parts.count > 1 ? parts[1] : shown), start: start,
            end: end))
      } else if let json = match.output.json {
        guard let object = try? BotReplyDecoder.parse(Data(utf8Of: json)),
          let entity = object["entity"]?.stringValue
        else {
          throw reader.problem(node, .expected(what: #"{"entity": "name", ...}"#, key: "user"))
        }
        entities.append(
          TestStory.Entity(
            entity: entity, value: object["value"] ?? .string(shown),
            role: object["role"]?.stringValue, group: object["group"]?.stringValue, start: start,
            end: end))
      }
      rest = rest[match.range.upperBound...]
    }
    text += rest
    return (text, entities)
  }
}
