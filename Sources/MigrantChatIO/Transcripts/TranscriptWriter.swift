import Foundation
import MigrantChatCore
import Yams

/// Writes a recorded conversation as a transcript with exact expectations.
///
/// Replaying a fresh recording against the same bot passes; people then
/// loosen the checks by hand (`contains`, `regex`, ...). The start message
/// is written as `start:` with its answer, not as a step, so that a
/// `/restart` or `/new` in the recording sends it again on replay, as the
/// chat did.
public enum TranscriptWriter {
  /// Why a recording could not be written; the file keeps what it had.
  public enum Failure: Error, CustomStringConvertible {
    case cannotSerialize(detail: String)
    case cannotWrite(AtomicFile.Failure)

    public var description: String {
      switch self {
      case .cannotSerialize(let detail): detail
      case .cannotWrite(let failure): failure.description
      }
    }
  }

  /// Turns the document into YAML text; a parameter so a test can make it fail.
  public typealias Serializer = @Sendable (Node) throws -> String

  public static let yamsSerializer: Serializer = { node in
    try Yams.serialize(node: node, allowUnicode: true)
  }

  /// `faulty`: turns (0 the start's answer, then each step) whose answer is a defect
  /// (`explore`'s findings): written as "anything but this answer", so the transcript
  /// fails while the defect is there; `expectedFailure` names it.
  public static func yaml(
    name: String, language: Language, start: RecordedTurn? = nil, turns: [RecordedTurn],
    expectedFailure: String? = nil, faulty: Set<Int> = [],
    serializer: Serializer = yamsSerializer
  ) throws(Failure) -> String {
    func step(_ turn: RecordedTurn, _ number: Int) -> Node {
      guard faulty.contains(number) else {
        return mapping([
          turn.button.map { ("button", string($0)) } ?? ("user", string(turn.line)),
          ("bot", .sequence(Node.Sequence(turn.messages.map(message)))),
        ])
      }
      // Some answer (no answer was the defect), and not the one that was wrong.
      let first = turn.messages.first.map { mapping([("not", message($0))]) } ?? mapping([])
      return mapping([
        ("user", string(turn.line)), ("bot", .sequence(Node.Sequence([first]))),
        ("allow_extra", .scalar(Node.Scalar("true"))),
      ])
    }
    var fields = [("name", string(name)), ("language", string(language.rawValue))]
    if let expectedFailure { fields.append(("expected_failure", string(expectedFailure))) }
    if let start { fields.append(("start", step(start, 0))) }
    fields.append(
      ("steps", .sequence(Node.Sequence(turns.enumerated().map { step($1, $0 + 1) }))))
    let document = mapping(fields)
    let header =
      "# Recorded by migrant-chat \(MigrantChatVersion.current). Exact checks: loosen them by hand\n"
      + "# (text: {contains: ...}, buttons: {contains: [...]}) where the bot's words may change.\n"
    return try serialized(document, header: header, serializer: serializer)
  }

  /// `header`, then `document` as YAML with its controls escaped.
  private static func serialized(
    _ document: Node, header: String, serializer: Serializer
  ) throws(Failure) -> String {
    do {
      return header + escapingControls(try serializer(document))
    } catch {
      throw .cannotSerialize(detail: "\(error)")
    }
  }

  /// libyaml writes what YAML calls printable as it is, NEL, U+2028 and the bidi
  /// controls among them: a transcript shown in a terminal or a review would carry
  /// them raw. Every text is a double-quoted scalar (keys too, when not plain
  /// words), where `\uXXXX` means the same character, so they are written so.
  static func escapingControls(_ yaml: String) -> String {
    guard yaml.unicodeScalars.contains(where: JSONValue.escapedInOutput) else { return yaml }
    var escaped = String.UnicodeScalarView()
    for scalar in yaml.unicodeScalars {
      if scalar != "\n", JSONValue.escapedInOutput(scalar) {
        escaped.append(contentsOf: String(format: "\\u%04X", scalar.value).unicodeScalars)
      } else {
        escaped.append(scalar)
      }
    }
    return String(escaped)
  }

  /// The conversation in Rasa Pro's end-to-end format (`--as-e2e`): one test case, a
  /// `user` step per line and a `bot` step per text answered, in order; a button chosen
  /// by its number or title is sent as its payload. The language goes in as the test
  /// case's `metadata`, which `replay` reads back, and a `/lang` as the metadata of the
  /// messages after it. Cards, images and buttons have no step in that format and are
  /// left out (said in the file's header).
  public static func e2eYAML(
    name: String, language: Language, start: RecordedTurn? = nil, turns: [RecordedTurn],
    serializer: Serializer = yamsSerializer
  ) throws(Failure) -> String {
    var steps: [Node] = []
    var offered: [Button] = []
    // `/lang xx` is the client's: in this format the language is each message's metadata.
    var current = language
    var languages = [language]
    for turn in (start.map { [$0] } ?? []) + turns {
      let words = turn.line.split(separator: " ")
      if words.count == 2, words[0] == "/lang", let chosen = Language(code: String(words[1])) {
        current = chosen
        if !languages.contains(chosen) { languages.append(chosen) }
        continue
      }
      // A button chosen by its number, or by its title typed: the chat sent its payload.
      let chosen =
        turn.button.flatMap { title in offered.first { $0.title == title } }
        ?? TitleMatch.button(titled: turn.line, among: offered)
      var step = [("user", string(chosen?.payload ?? turn.line))]
      if current != language { step.append(("metadata", string("language_" + current.rawValue))) }
      steps.append(mapping(step))
      for text in turn.messages.compactMap(\.text) {
        steps.append(mapping([("bot", string(text))]))
      }
      offered = turn.messages.flatMap(\.buttons)
    }
    let document = mapping([
      (
        "metadata",
        .sequence(
          Node.Sequence(
            languages.map { code in
              mapping([
                ("language_" + code.rawValue, mapping([("language", string(code.rawValue))]))
              ])
            }))
      ),
      (
        "test_cases",
        .sequence(
          Node.Sequence([
            mapping([
              ("test_case", string(name)), ("metadata", string("language_" + language.rawValue)),
              ("steps", .sequence(Node.Sequence(steps))),
            ])
          ]))
      ),
    ])
    let header =
      "# Recorded by migrant-chat \(MigrantChatVersion.current) in Rasa Pro's end-to-end format:\n"
      + "# the bot's texts in order; its cards, images and buttons have no step in it.\n"
    return try serialized(document, header: header, serializer: serializer)
  }

  /// Writes atomically, so a crash never leaves half a transcript; 0600, since it holds
  /// what the user typed. A failure leaves the old file as it was.
  public static func write(
    name: String, language: Language, start: RecordedTurn? = nil, turns: [RecordedTurn],
    expectedFailure: String? = nil, faulty: Set<Int> = [],
    to path: String, asE2E: Bool = false, serializer: Serializer = yamsSerializer
  ) throws(Failure) {
    let text =
      asE2E
      ? try e2eYAML(
        name: name, language: language, start: start, turns: turns, serializer: serializer)
      : try yaml(
        name: name, language: language, start: start, turns: turns,
        expectedFailure: expectedFailure, faulty: faulty, serializer: serializer)
    do {
      try AtomicFile.writeUserFile(Data(utf8Of: text), to: path, mode: 0o600)
    } catch {
      throw .cannotWrite(error)
    }
  }

  /// A conversation of one turn that checks what the bot makes of `line`: that it
  /// understands `intent` (at `minConfidence` or more, through the tracker) or, given
  /// `messages`, that it answers exactly so. One YAML document, without a header.
  public static func check(
    name: String, language: Language, line: String, intent: String?, minConfidence: Double?,
    messages: [BotMessage]?, serializer: Serializer = yamsSerializer
  ) throws(Failure) -> String {
    var step = [("user", string(line))]
    if let messages {
      step.append(("bot", .sequence(Node.Sequence(messages.map(message)))))
    } else if let intent {
      var check = [("name", string(intent))]
      if let minConfidence {
        check.append(
          ("confidence", mapping([("min", .scalar(Node.Scalar(String(minConfidence))))])))
      }
      step.append(("intent", mapping(check)))
    }
    let document = mapping([
      ("name", string(name)), ("language", string(language.rawValue)),
      ("steps", .sequence(Node.Sequence([mapping(step)]))),
    ])
    do {
      return escapingControls(try serializer(document))
    } catch {
      throw .cannotSerialize(detail: "\(error)")
    }
  }

  private static func message(_ message: BotMessage) -> Node {
    var fields: [(String, Node)] = []
    if let text = message.text { fields.append(("text", string(text))) }
    if !message.buttons.isEmpty {
      fields.append(("buttons", .sequence(Node.Sequence(message.buttons.map { string($0.title) }))))
    }
    if !message.contactIDs.isEmpty {
      fields.append(("contacts", .sequence(Node.Sequence(message.contactIDs.map(string)))))
    }
    if let image = message.image { fields.append(("image", string(image))) }
    if var custom = message.custom {
      if case .object(var members) = custom {
        members["contacts"] = nil
        custom = .object(members)
      }
      if custom != .object([:]) { fields.append(("custom", json(custom))) }
    }
    return mapping(fields)
  }

  private static func mapping(_ pairs: [(String, Node)]) -> Node {
    .mapping(Node.Mapping(pairs.map { (string($0.0, quoted: false), $0.1) }))
  }

  /// Text is always quoted, so `2`, `yes` or `null` stay text.
  private static func string(_ text: String) -> Node {
    string(text, quoted: true)
  }

  private static func string(_ text: String, quoted: Bool) -> Node {
    .scalar(Node.Scalar(text, Tag(.str), quoted ? .doubleQuoted : .plain))
  }

  private static func json(_ value: JSONValue) -> Node {
    switch value {
    case .string(let text): return string(text)
    case .number(let number): return .scalar(Node.Scalar(JSONValue.format(number)))
    case .bool(let flag): return .scalar(Node.Scalar(flag ? "true" : "false"))
    case .null: return .scalar(Node.Scalar("null"))
    case .array(let items): return .sequence(Node.Sequence(items.map(json)))
    case .object(let members):
      // A server's keys: plain when they are plain words, else quoted like any text.
      return .mapping(
        Node.Mapping(
          members.sorted { $0.key < $1.key }.map { key, value in
            let plain =
              !key.isEmpty
              && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            return (string(key, quoted: !plain), json(value))
          }))
    }
  }
}
