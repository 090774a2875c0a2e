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
    /// An entry of `nlu:` that is none of Rasa's kinds (`intnt:`): its keys.
    case badEntry(String)
    case unreadable(String)

    public var description: String { message(Localizer(.en)) }

    public func message(_ l10n: Localizer) -> String {
      switch self {
      case .notFound: l10n(.robustnessNLUNotFound)
      case .folder: l10n(.robustnessNLUFolder)
      case .notText: l10n(.robustnessNLUNotText)
      case .yaml(let detail), .unreadable(let detail): detail
      case .noList: l10n(.robustnessNLUNoList)
      case .badEntry(let keys): l10n(.robustnessNLUBadEntry, ["keys": keys])
      }
    }
  }

  public static func examples(path: String) throws(Failure) -> [RobustnessExample] {
    try examples(yaml: text(path: path))
  }

  /// A file's text: a regular file of UTF-8.
  public static func text(path: String) throws(Failure) -> String {
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
    return text
  }

  public static func examples(yaml text: String) throws(Failure) -> [RobustnessExample] {
    var seen = Set<RobustnessExample>()
    return try annotated(yaml: text).compactMap { intent, annotated in
      let example = RobustnessExample(intent: intent, annotated: annotated)
      return !example.text.isEmpty && seen.insert(example).inserted ? example : nil
    }
  }

  /// A test file's examples for `evaluate`, each once, as `rasa test nlu` reads them.
  public static func testExamples(yaml text: String, file: String? = nil) throws(Failure)
    -> [NLUTestExample]
  {
    var seen = Set<NLUTestExample>()
    return try annotated(yaml: text).compactMap { intent, annotated in
      let example = NLUTestExample(intent: intent, annotated: annotated, file: file)
      return !example.text.isEmpty && seen.insert(example).inserted ? example : nil
    }
  }

  /// The examples of `paths`: files, and in folders (searched through) every
  /// `.yml`/`.yaml` file with an `nlu:` list (a Rasa project's stories and domain
  /// are passed over). A file named that cannot be read is an error, with its path.
  public static func testExamples(paths: [String]) throws(PathFailure) -> [NLUTestExample] {
    var examples: [NLUTestExample] = []
    var seen = Set<NLUTestExample>()
    func add(_ found: [NLUTestExample]) {
      for example in found where seen.insert(example).inserted { examples.append(example) }
    }
    for path in paths {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
        let files = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
          .filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }.sorted()
        var any = false
        for file in files {
          let full = (path as NSString).appendingPathComponent(file)
          // A file that is not YAML, or whose `nlu:` list is wrong, is an error with its
          // path; a Rasa project's stories and domain (no `nlu:`) are passed over.
          do throws(Failure) {
            add(try testExamples(yaml: text(path: full), file: full))
            any = true
          } catch .noList {
            continue
          } catch {
            throw PathFailure(path: full, failure: error)
          }
        }
        guard any else { throw PathFailure(path: path, failure: .noList) }
      } else {
        do throws(Failure) {
          add(try testExamples(yaml: text(path: path), file: path))
        } catch {
          throw PathFailure(path: path, failure: error)
        }
      }
    }
    return examples
  }

  /// A file that gives no examples, and why.
  public struct PathFailure: Error {
    public var path: String
    public var failure: Failure

    public init(path: String, failure: Failure) {
      self.path = path
      self.failure = failure
    }
  }

  /// Each example with the intent it is listed under, marks as written.
  static func annotated(yaml text: String) throws(Failure) -> [(String, String)] {
    let document: Any?
    do {
      document = try Yams.load(yaml: text)
    } catch {
      throw .yaml("\(error)")
    }
    guard let data = document as? [String: Any], let entries = data["nlu"] as? [Any] else {
      throw .noList
    }
    var examples: [(String, String)] = []
    for case let entry as [String: Any] in entries {
      guard let intent = (entry["intent"] as? String)?.trimmingCharacters(in: .whitespaces),
        !intent.isEmpty
      else {
        // Synonyms, regexes and lookups are not examples; anything else is a mistake
        // Rasa would refuse too, never an intent quietly left out.
        guard entry.keys.contains(where: { ["synonym", "regex", "lookup", "intent"].contains($0) })
        else { throw .badEntry(entry.keys.sorted().joined(separator: ", ")) }
        continue
      }
      // An intent without `examples:` (`exampels:`) is a mistake, not an empty intent.
      guard entry["examples"] != nil else {
        throw .badEntry(entry.keys.sorted().joined(separator: ", "))
      }
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
      examples += texts.map { (intent, $0) }
    }
    return examples
  }
}
