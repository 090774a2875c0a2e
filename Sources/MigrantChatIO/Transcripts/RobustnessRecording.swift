import Foundation
import MigrantChatCore

/// `robustness --write-transcripts DIR`: the failing variants as transcripts that
/// check them, so a bot team replays them after retraining (`replay DIR`). Each
/// variant is a conversation of one turn: the intent its example has (at the
/// run's confidence, through Rasa's tracker) or, judged `--black-box`, the answer
/// the example got. One file per intent (or transcript), `robustness-<name>.yaml`;
/// the files of an earlier run are removed first. Variants that kept the intent but
/// lost an entity are left to `--report` and `--write-nlu`.
public enum RobustnessRecording {
  /// Writes the files; returns how many transcripts they hold.
  public static func write(_ report: RobustnessReport, to directory: String) throws -> Int {
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    where name.hasPrefix("robustness-") && name.hasSuffix(".yaml") {
      try? FileManager.default.removeItem(
        atPath: (directory as NSString).appendingPathComponent(name))
    }
    var count = 0
    var used = Set<String>()
    // A variant that kept the intent but lost an entity is not written: a transcript
    // here checks the intent, which it keeps (it is in --report and --write-nlu).
    let written = report.failures.filter { !$0.losesEntity(minConfidence: report.minConfidence) }
    let groups = Dictionary(grouping: written, by: \.example.group)
    for (group, failures) in groups.sorted(by: { $0.key < $1.key }) {
      var documents: [String] = []
      var seen = Set<String>()
      for outcome in failures where seen.insert(outcome.variant.text).inserted {
        let variant = outcome.variant
        documents.append(
          try TranscriptWriter.check(
            name: "\(group): \(variant.text) (\(variant.variantClass.rawValue), \(variant.scheme))",
            language: outcome.example.language, line: variant.text, intent: outcome.example.intent,
            minConfidence: report.blackBox ? nil : report.minConfidence,
            messages: outcome.example.answer?.messages.map {
              echoing(variant.text, for: outcome.example.text, in: $0)
            }))
      }
      var name = "robustness-" + slug(group)
      while !used.insert(name).inserted { name += "-" + String(used.count) }
      let header =
        "# Written by migrant-chat robustness: variants the bot did not understand as their\n"
        + "# example (\(TerminalSanitizer.clean(group, keepNewlines: false))). They pass once it does.\n"
      let text = header + documents.joined(separator: "---\n")
      try AtomicFile.writeUserFile(
        Data(utf8Of: text), to: (directory as NSString).appendingPathComponent(name + ".yaml"),
        mode: 0o600)
      count += documents.count
    }
    return count
  }

  /// The example's answer as the variant's should read: where it quotes the example,
  /// it quotes the variant ("Guides that match 'helth'"), as the run compared them.
  static func echoing(_ variant: String, for example: String, in message: BotMessage) -> BotMessage
  {
    var message = message
    message.text = message.text?.replacingOccurrences(of: example, with: variant)
    return message
  }

  /// A file name of letters, digits, `-` and `_`: `ask_residence`, `rasa-russian`.
  static func slug(_ group: String) -> String {
    var slug = ""
    for character in group.lowercased() {
      if character.isLetter || character.isNumber || character == "_" {
        slug.append(character)
      } else if !slug.hasSuffix("-") {
        slug.append("-")
      }
    }
    let trimmed = String(slug.trimmingCharacters(in: CharacterSet(charactersIn: "-")).prefix(60))
    return trimmed.isEmpty ? "examples" : trimmed
  }
}
