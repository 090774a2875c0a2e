import Foundation

/// `replay --channel rest,socketio`: each transcript played over two channels, and
/// where the answers differ, step by step.
///
/// Answers are compared as a user sees them, in one normal form: Rasa's socketio
/// channel sends `quick_replies` where REST sends `buttons`, and splits a text at
/// blank lines into several messages; both become the same lines here. What the
/// transcript expects is not checked (a transcript is played without its
/// expectations, so a step that fails on both channels does not hide the rest).
public enum ChannelConformance {
  /// One step where the two channels' answers differ, or where one of them stopped.
  public struct Difference: Sendable, Hashable {
    /// 0 for the start message's answer, else the step's 1-based number.
    public var step: Int
    public var user: String
    public var first: [String]
    public var second: [String]
    /// Why a channel's run stopped at this step (an error), if it did.
    public var firstStopped: String?
    public var secondStopped: String?
  }

  /// The transcript without its expectations: every step is played and recorded.
  public static func unchecked(_ transcript: Transcript) -> Transcript {
    var copy = transcript
    copy.expectedFailure = nil
    func bare(_ step: Transcript.Step) -> Transcript.Step {
      var step = step
      step.bot = nil
      step.messageCount = nil
      step.allowExtra = true
      step.inOrderAmongOthers = false
      step.utters = []
      step.slots = []
      step.tracker = TrackerExpectations()
      return step
    }
    if let start = copy.startCheck {
      copy.startCheck = bare(start)
    } else if let start = copy.start {
      copy.startCheck = bare(
        Transcript.Step(user: start, bot: nil, location: transcript.location))
    }
    copy.steps = copy.steps.map(bare)
    return copy
  }

  /// An answer as lines to compare: each paragraph of text, each button, the contact
  /// ids, images, cards and other custom JSON, in the order shown.
  public static func lines(_ messages: [BotMessage]) -> [String] {
    var lines: [String] = []
    for message in messages {
      if let text = message.text {
        for paragraph in text.components(separatedBy: "\n\n") {
          let trimmed = paragraph.trimmingCharacters(in: .whitespacesAndNewlines)
          if !trimmed.isEmpty { lines.append("text: " + trimmed) }
        }
      }
      for button in message.buttons {
        lines.append("button: \(button.title) -> \(button.payload ?? button.url ?? "")")
      }
      if !message.contactIDs.isEmpty {
        lines.append("contacts: " + message.contactIDs.joined(separator: ", "))
      }
      if let image = message.image { lines.append("image: " + image) }
      if let attachment = message.attachment {
        lines.append("attachment: " + attachment.compactText)
      }
      for element in message.elements { lines.append("card: " + element.title) }
      if let custom = message.unknownCustom { lines.append("custom: " + custom.compactText) }
    }
    return lines.map { TerminalSanitizer.clean($0, keepNewlines: false) }
  }

  /// Where two runs of one transcript differ. A run recorded as many steps as it
  /// played; a failure (an error: no connection, a timeout) is its last step. `mask`
  /// hides values that change from run to run (`--ignore`) in both answers' lines.
  public static func compare(
    _ first: TranscriptResult, _ second: TranscriptResult, mask: TextMask = .none
  ) -> [Difference] {
    var differences: [Difference] = []
    let firstOffset = first.transcript.startCheck == nil ? 1 : 0
    let count = max(first.steps.count, second.steps.count)
    for index in 0..<count {
      let left = index < first.steps.count ? first.steps[index] : nil
      let right = index < second.steps.count ? second.steps[index] : nil
      let leftStopped = stopped(first, at: index)
      let rightStopped = stopped(second, at: index)
      let leftLines = (left.map { lines($0.actual) } ?? []).map(mask.apply)
      let rightLines = (right.map { lines($0.actual) } ?? []).map(mask.apply)
      guard leftLines != rightLines || leftStopped != rightStopped else { continue }
      differences.append(
        Difference(
          step: index + firstOffset, user: left?.user ?? right?.user ?? "",
          first: leftLines, second: rightLines, firstStopped: leftStopped,
          secondStopped: rightStopped))
      // After a stop, the other run's steps have nothing to be compared with.
      if leftStopped != nil || rightStopped != nil { break }
    }
    return differences
  }

  private static func stopped(_ result: TranscriptResult, at index: Int) -> String? {
    guard let failure = result.failure, index == result.steps.count - 1 else { return nil }
    return failure.reasons.first
  }
}
