import Foundation

/// What `/todo ...` asks for in the chat.
///
/// The words are split as a shell splits them (`ShellWords`), and take the same
/// options as `migrant-chat todo`: `/todo add "Купить полис" --due "в понедельник"`.
public enum TodoCommand: Sendable, Hashable {
  /// `/todo`, `/todo all`, `/todo done` (without a number: the done tasks).
  case list(TodoList.Filter)
  /// `/todo add TITLE [--due DATE] [--place TEXT] [--description TEXT] [--contact ID]`.
  case add(title: String, fields: TodoFieldsText)
  /// `/todo add N`: the latest answer's message number N as a task.
  case addMessage(Int)
  /// `done`, `undo`, `show` and `remove` take one task number or several.
  case done([String])
  case undo([String])
  case show([String])
  case remove([String])
  /// `/todo save`: the steps of the last guide shown; with an id, that guide's
  /// (the offline assistant's "Save these steps" button).
  case save(guideID: Int64?)
  /// `/todo add` with nothing to add: which numbers mean which answers.
  case needsTitle
  /// An option the command does not take, or one without its value.
  case badOption(String)
  case unknown(String)

  /// The button payload that saves a guide's steps: `/todo_save{"id":N}`.
  public static func savePayload(guideID: Int64) -> String { "/todo_save{\"id\":\(guideID)}" }

  /// The guide id of a save-steps payload; nil for any other payload.
  public static func savedGuide(payload: String?) -> Int64? {
    guard let payload, payload.hasPrefix("/todo_save{"),
      let fields = try? BotReplyDecoder.parse(Data(utf8Of: payload.dropFirst("/todo_save".count)))
    else { return nil }
    return fields["id"].flatMap(ItemsPayloadDecoder.id)
  }

  /// Reads what follows `/todo`.
  public init(argument: String?) {
    let words = ShellWords.split(argument ?? "")
    let rest = Array(words.dropFirst())
    switch words.first?.lowercased() {
    case nil, "list", "open": self = rest.isEmpty ? .list(.open) : .unknown(rest[0])
    case "all": self = .list(.all)
    case "done": self = rest.isEmpty ? .list(.done) : .done(rest)
    case "undo": self = .undo(rest)
    case "show": self = .show(rest)
    case "remove", "rm", "delete": self = .remove(rest)
    case "save": self = .save(guideID: nil)
    case "add": self = Self.add(rest)
    default: self = .unknown(words.first ?? "")
    }
  }

  private static func add(_ words: [String]) -> TodoCommand {
    if words.count == 1 {
      let word = words[0]
      let number = word.hasPrefix("#") ? String(word.dropFirst()) : word
      if let index = Int(number), index > 0, index < 1000 { return .addMessage(index) }
    }
    switch TodoFieldsText.read(words) {
    case .failure(let failure): return .badOption(failure.option)
    case .success(let (title, fields)):
      let joined = title.joined(separator: " ").trimmingWhitespace()
      // `/todo add` alone offers the latest answer's messages; with options but no
      // title (`/todo add --due tomorrow`) it is a title missing, said as such.
      return joined.isEmpty && fields == TodoFieldsText()
        ? .needsTitle : .add(title: joined, fields: fields)
    }
  }
}
