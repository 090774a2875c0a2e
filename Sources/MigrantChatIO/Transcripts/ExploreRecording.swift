import Foundation
import MigrantChatCore

/// `explore --record-dir`: one transcript per path that ends (a message without
/// buttons, a loop, a message already seen, a failed turn), with the answers
/// explore saw, so replaying the directory against the same bot passes.
///
/// A path through a defect (a finding that fails explore: the fallback, an
/// answer in the wrong language, a missing contact, no answer) is not recorded
/// as if the defect were right: its transcript is an expected failure that
/// names the finding (`expected_failure:`), and the faulty answer is written as
/// "anything but this", so `replay` reports it as XFAIL while the defect is
/// there and as FIXED once the bot answers otherwise.
public enum ExploreRecording {
  /// Writes the transcripts; returns how many. Files are `<language>-<n>.yaml`. Files of
  /// an earlier run in the directory (`<language>-<n>.yaml`) are removed first, so the
  /// directory holds this run's paths only.
  public static func write(
    _ walks: [BotExplorer.Walk], to directory: String,
    l10n: Localizer = Localizer(.en)
  ) throws -> Int {
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    where isRecording(name) {
      try? FileManager.default.removeItem(
        atPath: (directory as NSString).appendingPathComponent(name))
    }
    var count = 0
    for walk in walks {
      // A path ends where no explored edge continues it.
      let continued = Set(
        walk.edges.map { walk.titles(start: $0.start, Array($0.path.dropLast())) })
      let leaves = walk.edges.filter {
        !continued.contains(walk.titles(start: $0.start, $0.path)) && $0.to != nil
      }
      let defects = self.defects(walk)
      for (index, edge) in leaves.enumerated() {
        guard edge.answers.count == edge.path.count + 1 else { continue }
        var faulty: Set<Int> = []
        var named: [String] = []
        for (turn, answer) in edge.answers.enumerated() {
          guard let finding = defects.first(where: { $0.answer == answer })?.finding else {
            continue
          }
          faulty.insert(turn)
          let said = finding.kind.rawValue + ": " + finding.detail.text(l10n)
          if !named.contains(said) { named.append(said) }
        }
        // A walk names its starts; one built without them began at /start.
        let start = walk.starts.indices.contains(edge.start) ? walk.starts[edge.start] : "/start"
        let startTurn = RecordedTurn(line: start, messages: edge.answers[0])
        // A button by its title, a typed answer as typed.
        let turns = zip(edge.path, edge.answers.dropFirst()).map { click, answer in
          RecordedTurn(line: click.typed ? click.payload : click.title, messages: answer)
        }
        let name =
          "explore \(walk.language.rawValue): "
          + walk.titles(start: edge.start, edge.path).joined(separator: " > ")
        let file = (directory as NSString).appendingPathComponent(
          "\(walk.language.rawValue)-\(String(format: "%04d", index + 1)).yaml")
        try TranscriptWriter.write(
          name: name, language: walk.language, start: startTurn, turns: turns,
          expectedFailure: named.isEmpty ? nil : named.joined(separator: "; "), faulty: faulty,
          to: file)
        count += 1
      }
      // A start answered with no buttons (`--start "weather in Prague"`) is a path of
      // one turn: recorded too, its answer checked.
      let left = Set(walk.edges.map(\.from))
      var number = leaves.count
      for root in walk.nodes
      where root.path.isEmpty && !left.contains(root.id) && !root.messages.isEmpty {
        number += 1
        let start = walk.starts.indices.contains(root.start) ? walk.starts[root.start] : "/start"
        let finding = defects.first { $0.answer == root.messages }?.finding
        let file = (directory as NSString).appendingPathComponent(
          "\(walk.language.rawValue)-\(String(format: "%04d", number)).yaml")
        try TranscriptWriter.write(
          name: "explore \(walk.language.rawValue): " + walk.titles(start: root.start, []).joined(),
          language: walk.language, start: RecordedTurn(line: start, messages: root.messages),
          turns: [],
          expectedFailure: finding.map { $0.kind.rawValue + ": " + $0.detail.text(l10n) },
          faulty: finding == nil ? [] : [0], to: file)
        count += 1
      }
    }
    return count
  }

  /// `en-0001.yaml`: a file this command writes.
  static func isRecording(_ name: String) -> Bool {
    name.wholeMatch(of: #/(en|ru|uk)-\d{4,}\.yaml/#) != nil
  }

  /// Each failing finding of the walk with the answer it is about: the answer at the end
  /// of its path (a fallback, no answer, a message in the wrong language or with a
  /// missing contact). Every turn of a path that got that answer is faulty.
  static func defects(_ walk: BotExplorer.Walk) -> [(answer: [BotMessage], finding: ExploreFinding)]
  {
    var answers: [[String]: [BotMessage]] = [:]
    for edge in walk.edges where edge.answers.count == edge.path.count + 1 {
      answers[walk.titles(start: edge.start, edge.path)] = edge.answers.last
      let root = walk.titles(start: edge.start, [])
      if answers[root] == nil { answers[root] = edge.answers.first }
    }
    for root in walk.nodes where root.path.isEmpty {
      let at = walk.titles(start: root.start, [])
      if answers[at] == nil { answers[at] = root.messages }
    }
    return walk.findings.compactMap { finding in
      guard finding.kind.isFailure, finding.kind != .error, finding.kind != .unreached,
        let answer = answers[finding.path]
      else { return nil }
      return (answer, finding)
    }
  }
}
