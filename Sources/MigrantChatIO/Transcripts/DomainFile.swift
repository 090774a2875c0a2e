import Foundation
import MigrantChatCore
import Yams

/// A Rasa `domain.yml`, read for `explore --domain` (its responses' texts and the
/// intents their buttons send) and for `--coverage` (the names it declares).
public enum DomainFile {
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  public static func coverage(path: String) throws(Failure) -> ExploreCoverage {
    try coverage(yaml: try text(path))
  }

  /// The file's text.
  static func text(_ path: String) throws(Failure) -> String {
    do {
      return try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw Failure(description: error.localizedDescription)
    }
  }

  /// The domain's top-level mapping.
  static func mapping(_ text: String) throws(Failure) -> [String: Any] {
    let document: Any?
    do {
      document = try Yams.load(yaml: text)
    } catch {
      throw Failure(description: "\(error)")
    }
    guard let domain = document as? [String: Any] else {
      throw Failure(description: "not a mapping")
    }
    return domain
  }

  public static func coverage(yaml text: String) throws(Failure) -> ExploreCoverage {
    let domain = try mapping(text)
    var responses: [String: [String]] = [:]
    var intents: Set<String> = []
    for (name, value) in domain["responses"] as? [String: Any] ?? [:] {
      let variants = value as? [[String: Any]] ?? []
      responses[name] = variants.compactMap { $0["text"] as? String }
      for variant in variants {
        for button in variant["buttons"] as? [[String: Any]] ?? [] {
          let intent = ExploreCoverage.intent(ofPayload: button["payload"] as? String ?? "")
          if !intent.isEmpty { intents.insert(intent) }
        }
      }
    }
    // Responses with no text (images, custom payloads only) cannot be told by text.
    return ExploreCoverage(
      responses: responses.filter { !$0.value.isEmpty }, buttonIntents: intents)
  }

  /// The domain's intents, responses, custom actions, slots and forms, for `--coverage`.
  /// Intents are names or one-key mappings (`- greet: {use_entities: true}`).
  public static func names(path: String) throws(Failure) -> TrackerCoverage.Names {
    try names(yaml: try text(path))
  }

  public static func names(yaml text: String) throws(Failure) -> TrackerCoverage.Names {
    let domain = try mapping(text)
    func listed(_ key: String) -> Set<String> {
      Set(
        (domain[key] as? [Any] ?? []).compactMap { item in
          item as? String ?? (item as? [String: Any])?.keys.first
        })
    }
    func keys(_ key: String) -> Set<String> {
      Set((domain[key] as? [String: Any] ?? [:]).keys)
    }
    let names = TrackerCoverage.Names([
      .intents: listed("intents"), .responses: keys("responses"),
      // A response listed among the actions is counted as a response.
      .actions: listed("actions").filter { !$0.hasPrefix("utter_") }, .slots: keys("slots"),
      .forms: keys("forms"),
    ])
    guard TrackerCoverage.Kind.allCases.contains(where: { !names[$0].isEmpty }) else {
      throw Failure(description: "no intents, responses, actions, slots or forms")
    }
    return names
  }
}
