import ArgumentParser
import Foundation
import MigrantChatCore
import MigrantChatIO

/// `replay PATH --channel rest,socketio`: every transcript over each channel, side by
/// side, and each step where the answers differ (see `ChannelConformance`).
struct ReplayConformance {
  let runners: [(BotChannel, TranscriptRunner)]
  let l10n: Localizer
  let jobs: Int

  func run(
    _ transcripts: [Transcript], report: String?, inputs: [String], unreadable: [String]
  ) async throws {
    let (firstChannel, firstRunner) = runners[0]
    let (secondChannel, secondRunner) = runners[1]
    let names = ["first": firstChannel.rawValue, "second": secondChannel.rawValue]
    var differing = 0
    var failed = 0
    var alike = 0
    var entries: [JSONValue] = []
    // Both channels at once for each transcript; --jobs transcripts at a time.
    let results = await withTaskGroup(
      of: (Int, TranscriptResult, TranscriptResult).self,
      returning: [(Int, TranscriptResult, TranscriptResult)].self
    ) { group in
      var next = 0
      var collected: [(Int, TranscriptResult, TranscriptResult)] = []
      func add() {
        let index = next
        let transcript = ChannelConformance.unchecked(transcripts[index])
        group.addTask {
          async let first = firstRunner.run(transcript)
          async let second = secondRunner.run(transcript)
          return (index, await first, await second)
        }
        next += 1
      }
      while next < min(jobs, transcripts.count) { add() }
      while let result = await group.next() {
        collected.append(result)
        if next < transcripts.count { add() }
      }
      return collected.sorted { $0.0 < $1.0 }
    }
    var out = ""
    for (index, first, second) in results {
      let transcript = transcripts[index]
      let name = TerminalSanitizer.clean(transcript.name, keepNewlines: false)
      let differences = ChannelConformance.compare(
        first, second, mask: firstRunner.ignore.adding(transcript.ignore))
      var steps: [JSONValue] = []
      // A run that stopped (no connection, a timeout: the expectations are not checked)
      // is a failure, also when both channels stopped alike.
      var stopped: [String: JSONValue] = [:]
      for (channel, result) in [(firstChannel, first), (secondChannel, second)] {
        guard let reason = result.failure?.reasons.first else { continue }
        stopped[channel.rawValue] = .string(reason)
        out +=
          l10n(
            .replayChannelFailed,
            [
              "name": name, "channel": channel.rawValue,
              "step": String(result.steps.count - (result.transcript.startCheck == nil ? 0 : 1)),
              "reason": reason,
            ]) + "\n"
      }
      if !stopped.isEmpty { failed += 1 }
      if differences.isEmpty && stopped.isEmpty {
        alike += 1
        out += l10n(.replayChannelsSame, names.merging(["name": name]) { a, _ in a }) + "\n"
      } else if !differences.isEmpty {
        differing += 1
        for difference in differences {
          out +=
            l10n(
              .replayChannelsDiffer,
              names.merging([
                "name": name, "step": String(difference.step),
                "line": TerminalSanitizer.clean(difference.user, keepNewlines: false),
              ]) { a, _ in a }) + "\n"
          for (channel, stop) in [
            (firstChannel, difference.firstStopped), (secondChannel, difference.secondStopped),
          ] {
            if let stop {
              out +=
                "    "
                + l10n(.replayChannelStopped, ["channel": channel.rawValue, "reason": stop]) + "\n"
            }
          }
          var diff = UnifiedDiff.diff(expected: difference.first, actual: difference.second)
          if diff.count >= 2 {
            diff[0] = "--- " + firstChannel.rawValue
            diff[1] = "+++ " + secondChannel.rawValue
          }
          out += diff.map { "    " + $0 + "\n" }.joined()
          steps.append(
            .object([
              "step": .number(Double(difference.step)), "user": .string(difference.user),
              firstChannel.rawValue: .array(difference.first.map(JSONValue.string)),
              secondChannel.rawValue: .array(difference.second.map(JSONValue.string)),
              "stopped": .object(
                [
                  firstChannel.rawValue: difference.firstStopped.map(JSONValue.string) ?? .null,
                  secondChannel.rawValue: difference.secondStopped.map(JSONValue.string) ?? .null,
                ]),
            ]))
        }
      }
      entries.append(
        .object([
          "name": .string(transcript.name), "file": .string(transcript.location.file),
          "same": .bool(differences.isEmpty && stopped.isEmpty), "differences": .array(steps),
          "failed": .object(stopped),
        ]))
    }
    out +=
      l10n(
        .replayChannelsSummary,
        names.merging([
          "count": String(transcripts.count),
          "same": String(alike), "differ": String(differing), "failed": String(failed),
        ]) { a, _ in a }) + "\n"
    ConsoleOutput.write(out, to: report == "-" ? STDERR_FILENO : STDOUT_FILENO)
    let json = JSONValue.object([
      "channels": .array([.string(firstChannel.rawValue), .string(secondChannel.rawValue)]),
      "transcripts": .array(entries),
      "differ": .number(Double(differing)), "failed": .number(Double(failed)),
    ])
    try ReplayCommand.write(
      [(report, { Data(utf8Of: json.compactText + "\n") })], inputs: inputs, l10n: l10n)
    try ReplayCommand.finish(
      failed: differing > 0 || failed > 0, unreadable: unreadable, l10n: l10n)
  }
}
