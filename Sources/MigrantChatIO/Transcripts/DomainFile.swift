import Foundation
import MigrantChatCore
import Yams

/// A Rasa `domain.yml`, read for `explore --domain`: its responses' texts and the
/// intents their buttons send.
public enum DomainFile {
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  public static func coverage(path: String) throws(Failure) -> ExploreCoverage {
    let text: String
    do {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw Failure(description: error.localizedDescription)
    }
    return try coverage(yaml: text)
  }

  public static func coverage(yaml text: String) throws(Failure) -> ExploreCoverage {
    let document: Any?
    do {
      document = try Yams.load(yaml: text)
    } catch {
      throw Failure(description: "\(error)")
    }
    guard let domain = document as? [String: Any] else {
      throw Failure(description: "not a mapping")
    }
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
}
