import Foundation

/// What `/todo ...` asks for in the chat.
public enum TodoCommand: Sendable, Hashable {
  /// `/todo`, `/todo all`, `/todo done` (without a number: the done tasks).
  case list(TodoList.Filter)
  /// `/todo add TITLE [--due DATE]`.
  case add(title: String, due: String?)
  /// `/todo add N`: the latest answer's message number N as a task.
  case addMessage(Int)
  case done(String?)
  case undo(String?)
  case show(String?)
  case remove(String?)
  /// `/todo save`: the steps of the last guide shown; with an id, that guide's
  /// (the offline assistant's "Save these steps" button).
  case save(guideID: Int64?)
  /// `/todo add` with nothing to add.
  case needsTitle
  case unknown(String)

  /// The button payload that saves a guide's steps: `/todo_save{"id":N}`.
  public static func savePayload(guideID: Int64) -> String { "/todo_save{\"id\":\(guideID)}" }

  /// The guide id of a save-steps payload; nil for any other payload.
  public static func savedGuide(payload: String?) -> Int64? {
    guard let payload, payload.hasPrefix("/todo_save{"),
      let fields = try? BotReplyDecoder.parse(Data(payload.dropFirst("/todo_save".count).utf8))
    else { return nil }
    return fields["id"].flatMap(ItemsPayloadDecoder.id)
  }

  /// Reads what follows `/todo`.
  public init(argument: String?) {
    let text = argument?.trimmingWhitespace() ?? ""
    let parts = text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
    let rest = parts.count > 1 ? parts[1].trimmingWhitespace() : nil
    switch parts.first?.lowercased() {
    case nil, "list", "open": self = .list(.open)
    case "all": self = .list(.all)
    case "done": self = rest.map { .done($0) } ?? .list(.done)
    case "undo": self = .undo(rest)
    case "show": self = .show(rest)
    case "remove", "rm", "delete": self = .remove(rest)
    case "save": self = .save(guideID: nil)
    case "add":
      guard let rest, !rest.isEmpty else {
        self = .needsTitle
        return
      }
      let number = rest.hasPrefix("#") ? String(rest.dropFirst()) : rest
      if let index = Int(number), index > 0, index < 1000 {
        self = .addMessage(index)
        return
      }
      let (title, due) = Self.splitDue(rest)
      self = title.isEmpty ? .needsTitle : .add(title: title, due: due)
    default:
      self = .unknown(String(parts.first ?? ""))
    }
  }

  /// `TITLE --due DATE` (or `--due=DATE`): the title and the date's text.
  static func splitDue(_ text: String) -> (title: String, due: String?) {
    for marker in [" --due=", " --due ", "--due=", "--due "] {
      if let range = text.range(of: marker) {
        let title = text[..<range.lowerBound].trimmingWhitespace()
        let due = text[range.upperBound...].trimmingWhitespace()
        return (title, due)
      }
    }
    return (text, nil)
  }
}
