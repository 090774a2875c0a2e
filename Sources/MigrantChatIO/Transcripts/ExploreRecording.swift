import Foundation
import MigrantChatCore

/// `explore --record-dir`: one transcript per path that ends (a message without
/// buttons, a loop, a message already seen, a failed turn), with the answers
/// explore saw, so replaying the directory against the same bot passes.
public enum ExploreRecording {
  /// Writes the transcripts; returns how many. Files are `<language>-<n>.yaml`.
  public static func write(
    _ walks: [BotExplorer.Walk], start: String, to directory: String
  ) throws -> Int {
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    var count = 0
    for walk in walks {
      // A path ends where no explored edge continues it.
      let continued = Set(walk.edges.map { Array($0.path.dropLast()) })
      let leaves = walk.edges.filter { !continued.contains($0.path) && $0.to != nil }
      for (index, edge) in leaves.enumerated() {
        guard edge.answers.count == edge.path.count + 1 else { continue }
        let startTurn = RecordedTurn(line: start, messages: edge.answers[0])
        let turns = zip(edge.path, edge.answers.dropFirst()).map { click, answer in
          RecordedTurn(line: click.title, messages: answer)
        }
        let name =
          "explore \(walk.language.rawValue): " + edge.path.map(\.title).joined(separator: " > ")
        let file = (directory as NSString).appendingPathComponent(
          "\(walk.language.rawValue)-\(String(format: "%04d", index + 1)).yaml")
        try TranscriptWriter.write(
          name: name, language: walk.language, start: startTurn, turns: turns, to: file)
        count += 1
      }
    }
    return count
  }
}
