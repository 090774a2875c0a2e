import Foundation
import MigrantChatCore
import Yams

/// A Rasa `domain.yml`, read for `explore --domain` (its responses' texts and the
/// intents their buttons send) and for `--coverage` (the names it declares).
public enum DomainFile {
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
    /// A file that cannot be read (none, a folder with no domain files, binary), said in
    /// the user's language.
    var problem: TranscriptParser.Problem?

    init(description: String, problem: TranscriptParser.Problem? = nil) {
      self.description = description
      self.problem = problem
    }

    public func message(_ l10n: Localizer) -> String {
      problem.map { $0.message(l10n) } ?? description
    }
  }

  public static func coverage(path: String) throws(Failure) -> ExploreCoverage {
    coverage(domain: try mapping(path: path))
  }

  /// The domain's top-level mapping: the file's, or, for a folder (Rasa reads a domain
  /// split into files under one), every `.yml` and `.yaml` under it merged: lists are
  /// joined and mappings merged key by key, as Rasa merges the parts.
  static func mapping(path: String) throws(Failure) -> [String: Any] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { return try mapping(try text(path)) }
    let files = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
      .filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }.sorted()
    guard !files.isEmpty else {
      throw Failure(description: "\(path): no .yml or .yaml files in this folder")
    }
    var merged: [String: Any] = [:]
    for file in files {
      for (key, value) in try mapping(try text(path + "/" + file)) {
        switch (merged[key], value) {
        case (let list as [Any], let more as [Any]): merged[key] = list + more
        case (let map as [String: Any], let more as [String: Any]):
          merged[key] = map.merging(more) { _, later in later }
        default: merged[key] = value
        }
      }
    }
    return merged
  }

  /// The file's text, or why it cannot be read (no such file, binary), as replay says it.
  static func text(_ path: String) throws(Failure) -> String {
    do throws(TranscriptParser.Problem) {
      return try TranscriptParser.text(path: path)
    } catch {
      throw Failure(description: error.message(Localizer(.en)), problem: error)
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
    coverage(domain: try mapping(text))
  }

  static func coverage(domain: [String: Any]) -> ExploreCoverage {
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
    try names(domain: try mapping(path: path))
  }

  public static func names(yaml text: String) throws(Failure) -> TrackerCoverage.Names {
    try names(domain: try mapping(text))
  }

  static func names(domain: [String: Any]) throws(Failure) -> TrackerCoverage.Names {
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
