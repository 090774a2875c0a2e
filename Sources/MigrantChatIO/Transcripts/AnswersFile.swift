import Foundation
import MigrantChatCore
import Yams

/// `explore --answers FILE`: what to type at the bot's questions without buttons.
///
/// ```yaml
/// answers:
///   - slot: amount            # the slot a form requests (from the tracker)
///     answers: ["50", "1000"]
///   - prompt: "your name"     # or a pattern of the question's text, any case
///     answers:
///       en: [Alice]
///       uk: [Олена]
/// ```
///
/// A bare list of entries is read too. `answers:` is one text, a list (every
/// language), or a mapping of language to text or list. As for transcripts, an
/// unknown key is an error naming it and its line.
public enum AnswersFile {
  public static func load(path: String) throws(TranscriptParser.Problem) -> ExploreAnswers {
    try parse(try TranscriptParser.text(path: path), file: path)
  }

  public static func parse(_ text: String, file: String) throws(TranscriptParser.Problem)
    -> ExploreAnswers
  {
    let root: Node?
    do {
      root = try Yams.compose(yaml: text)
    } catch let error as YamlError {
      throw TranscriptParser.yamlProblem(error, file: file)
    } catch {
      throw .init(file: file, line: 1, column: nil, kind: .notYAML(detail: "\(error)"))
    }
    guard let root else { throw .init(file: file, line: 1, column: nil, kind: .empty) }
    let reader = TranscriptParser.Reader(file: file)
    var list = root
    if root.mapping != nil {
      let fields = try reader.entries(root, allowed: ["answers"], what: "a mapping", key: "answers")
      guard let answers = fields["answers"] else {
        throw reader.problem(root, .missing(key: "answers"))
      }
      list = answers
    }
    guard let sequence = list.sequence else {
      throw reader.problem(list, .expected(what: "a list", key: "answers"))
    }
    let entries = try reader.each(Array(sequence)) { node throws(TranscriptParser.Problem) in
      try entry(node, reader: reader)
    }
    guard !entries.isEmpty else { throw reader.problem(list, .empty) }
    return ExploreAnswers(entries: entries)
  }

  static func entry(_ node: Node, reader: TranscriptParser.Reader) throws(TranscriptParser.Problem)
    -> ExploreAnswers.Entry
  {
    let fields = try reader.entries(
      node, allowed: ["slot", "prompt", "answers"], what: "a mapping", key: "answers")
    let slot = try reader.optional(fields["slot"]) { node throws(TranscriptParser.Problem) in
      try reader.text(node, key: "slot")
    }
    let prompt = try reader.optional(fields["prompt"]) { node throws(TranscriptParser.Problem) in
      let pattern = try reader.text(node, key: "prompt")
      guard (try? NSRegularExpression(pattern: pattern)) != nil else {
        throw reader.problem(node, .badRegex(pattern: pattern))
      }
      return pattern
    }
    guard slot != nil || prompt != nil else {
      throw reader.problem(node, .missing(key: "slot / prompt"))
    }
    guard let answersNode = fields["answers"] else {
      throw reader.problem(node, .missing(key: "answers"))
    }
    func texts(_ node: Node, key: String) throws(TranscriptParser.Problem) -> [String] {
      let given =
        node.sequence == nil ? [try reader.text(node, key: key)] : try reader.list(node, key: key)
      // An empty answer would send nothing a bot could take for one.
      guard !given.isEmpty, !given.contains(where: { $0.trimmingWhitespace().isEmpty }) else {
        throw reader.problem(node, .expected(what: "text that is not empty", key: key))
      }
      return given
    }
    var entry = ExploreAnswers.Entry(
      slot: slot, prompt: prompt, line: node.mark?.line ?? 1)
    if let mapping = answersNode.mapping {
      for (keyNode, value) in mapping {
        let code = keyNode.string ?? ""
        guard let language = Language(code: code) else {
          throw reader.problem(keyNode, .badLanguage(value: code))
        }
        entry.answers[language] = try texts(value, key: "answers")
      }
    } else {
      entry.any = try texts(answersNode, key: "answers")
    }
    return entry
  }
}
