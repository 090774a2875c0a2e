import Foundation
import MigrantChatCore
import Yams

/// Rasa NLU training data (`nlu:` in `data/nlu.yml`), read for `robustness`:
/// each intent's examples, entity marks taken out. Both ways Rasa writes
/// examples are read: a block of `- text` lines, or a list of `text:` entries
/// (with metadata). Synonyms, regexes and lookups are not examples.
public enum NLUFile {
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  public static func examples(path: String) throws(Failure) -> [RobustnessExample] {
    let text: String
    do {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw Failure(description: error.localizedDescription)
    }
    return try examples(yaml: text)
  }

  public static func examples(yaml text: String) throws(Failure) -> [RobustnessExample] {
    let document: Any?
    do {
      document = try Yams.load(yaml: text)
    } catch {
      throw Failure(description: "\(error)")
    }
    guard let data = document as? [String: Any], let entries = data["nlu"] as? [Any] else {
      throw Failure(description: "no 'nlu:' list of intents")
    }
    var examples: [RobustnessExample] = []
    var seen = Set<RobustnessExample>()
    for case let entry as [String: Any] in entries {
      guard let intent = entry["intent"] as? String, !intent.isEmpty else { continue }
      let texts: [String]
      switch entry["examples"] {
      case let block as String:
        texts = block.split(separator: "\n").compactMap { line in
          let trimmed = line.trimmingCharacters(in: .whitespaces)
          guard trimmed.hasPrefix("-") else { return nil }
          return String(trimmed.dropFirst()).trimmingCharacters(in: .whitespaces)
        }
      case let list as [Any]:
        texts = list.compactMap { ($0 as? [String: Any])?["text"] as? String ?? $0 as? String }
      default:
        texts = []
      }
      for annotated in texts {
        let example = RobustnessExample(
          intent: intent, text: RobustnessExample.plainText(annotated))
        if !example.text.isEmpty, seen.insert(example).inserted { examples.append(example) }
      }
    }
    return examples
  }
}
