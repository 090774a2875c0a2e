import Foundation
import MigrantChatCore
import Yams

/// `robustness --templates FILE`: a bot team's CheckList templates.
///
/// ```yaml
/// lexicons:
///   city: [Brno, Ostrava, Plzeň]
///   need: ["I need", "I am looking for"]
/// templates:
///   - text: "{need} a flat in {city}"
///     intent: housing
///     entities: [city]          # or {city: location}: slot → entity
/// ```
public enum TemplatesFile {
  /// The templates filled from the lexicons, each at most `limit` times.
  public static func filled(
    path: String, limit: Int = 20, seed: UInt64 = 1
  ) throws(NLUFile.Failure) -> [CheckListTemplate.Filled] {
    let document: Any?
    do {
      document = try Yams.load(yaml: try NLUFile.text(path: path))
    } catch let failure as NLUFile.Failure {
      throw failure
    } catch {
      throw .yaml("\(error)")
    }
    guard let root = document as? [String: Any], let entries = root["templates"] as? [Any],
      !entries.isEmpty
    else { throw .yaml("no templates: a 'templates:' list of {text, intent, entities}") }
    var lexicons: [String: [String]] = [:]
    for (name, words) in root["lexicons"] as? [String: Any] ?? [:] {
      guard let list = words as? [Any], !list.isEmpty else {
        throw .yaml("the lexicon '\(name)' is not a list of words")
      }
      lexicons[name] = list.map { "\($0)" }
    }
    var filled: [CheckListTemplate.Filled] = []
    for (index, entry) in entries.enumerated() {
      guard let fields = entry as? [String: Any],
        let text = (fields["text"] ?? fields["template"]) as? String, !text.isEmpty,
        let intent = fields["intent"] as? String, !intent.isEmpty
      else { throw .yaml("template \(index + 1) needs 'text' and 'intent'") }
      // Unbalanced braces are a slot mistyped, never text to send.
      guard text.filter({ $0 == "{" }).count == text.filter({ $0 == "}" }).count else {
        throw .yaml("template \(index + 1) has a '{' without its '}' (or the other way)")
      }
      var entities: [String: String] = [:]
      switch fields["entities"] {
      case let list as [Any]:
        for item in list {
          switch item {
          case let pair as [String: Any]:  // `- {slot: entity}`
            for (slot, entity) in pair { entities[slot] = "\(entity)" }
          case let slot as String: entities[slot] = slot
          default: throw .yaml("template \(index + 1): 'entities' lists slot names")
          }
        }
      case let map as [String: Any]: for (slot, entity) in map { entities[slot] = "\(entity)" }
      case nil: break
      default: throw .yaml("template \(index + 1): 'entities' lists slot names")
      }
      let template = CheckListTemplate(text: text, intent: intent, entities: entities)
      if let unknown = entities.keys.sorted().first(where: { !template.slots.contains($0) }) {
        throw .yaml("template \(index + 1) names the entity slot '\(unknown)', not in its text")
      }
      switch template.filled(lexicons: lexicons, limit: limit, seed: seed) {
      case .success(let sentences): filled += sentences
      case .failure(let missing):
        throw .yaml("template \(index + 1): no lexicon '\(missing.slot)'")
      }
    }
    return filled
  }
}
