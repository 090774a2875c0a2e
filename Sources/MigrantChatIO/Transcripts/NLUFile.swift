import Foundation
import MigrantChatCore
import Yams

/// Rasa NLU training data (`nlu:` in `data/nlu.yml`), read for `robustness`:
/// each intent's examples, entity marks taken out. Both ways Rasa writes
/// examples are read: a block of `- text` lines, or a list of `text:` entries
/// (with metadata). Synonyms, regexes and lookups are not examples.
public enum NLUFile {
  /// Why a file gives no examples, said in the user's language (`message`).
  public enum Failure: Error, Equatable, CustomStringConvertible {
    case notFound
    case folder
    /// Not a regular file of UTF-8 text (a device, a binary).
    case notText
    /// The YAML reader's own words.
    case yaml(String)
    case noList
    case unreadable(String)

    public var description: String { message(Localizer(.en)) }

    public func message(_ l10n: Localizer) -> String {
      switch self {
      case .notFound: l10n(.robustnessNLUNotFound)
      case .folder: l10n(.robustnessNLUFolder)
      case .notText: l10n(.robustnessNLUNotText)
      case .yaml(let detail), .unreadable(let detail): detail
      case .noList: l10n(.robustnessNLUNoList)
      }
    }
  }

  public static func examples(path: String) throws(Failure) -> [RobustnessExample] {
    let attributes: [FileAttributeKey: Any]
    do {
      attributes = try FileManager.default.attributesOfItem(atPath: path)
    } catch {
      throw .notFound
    }
    switch attributes[.type] as? FileAttributeType {
    case .typeDirectory?: throw .folder
    case .typeRegular?: break
    default: throw .notText
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw .unreadable(error.localizedDescription)
    }
    guard let text = String(data: data, encoding: .utf8), !text.contains("\0") else {
      throw .notText
    }
    return try examples(yaml: text)
  }

  public static func examples(yaml text: String) throws(Failure) -> [RobustnessExample] {
    let document: Any?
    do {
      document = try Yams.load(yaml: text)
    } catch {
      throw .yaml("\(error)")
    }
    guard let data = document as? [String: Any], let entries = data["nlu"] as? [Any] else {
      throw .noList
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
        let example = RobustnessExample(intent: intent, annotated: annotated)
        if !example.text.isEmpty, seen.insert(example).inserted { examples.append(example) }
      }
    }
    return examples
  }
}
