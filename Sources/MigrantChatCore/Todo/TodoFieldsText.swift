import Foundation

/// A task's fields as typed, after `todo add` on the command line or `/todo add`
/// in the chat; `draft(title:today:)` checks them once for both.
public struct TodoFieldsText: Sendable, Hashable {
  public var due: String?
  public var description: String?
  public var place: String?
  public var contacts: [String]

  public init(
    due: String? = nil, description: String? = nil, place: String? = nil, contacts: [String] = []
  ) {
    self.due = due
    self.description = description
    self.place = place
    self.contacts = contacts
  }

  /// Words that clear the due date (`todo edit --due none`).
  public static let noDate: Set<String> = ["none", "-", "нет", "немає", ""]

  /// The title's words and the options among `words` (`--due DATE`, `--due=DATE`, ...).
  ///
  /// An option's value runs to the next option, so `--due в понедельник` needs no
  /// quotes; `--` ends the options. Fails with the option that is unknown or has no value.
  static func read(_ words: [String]) -> Result<([String], TodoFieldsText), OptionFailure> {
    var title: [String] = []
    var fields = TodoFieldsText()
    var index = 0
    var optionsEnded = false
    while index < words.count {
      let word = words[index]
      index += 1
      guard !optionsEnded, word.hasPrefix("--") else {
        title.append(word)
        continue
      }
      if word == "--" {
        optionsEnded = true
        continue
      }
      var name = String(word.dropFirst(2))
      var value: [String] = []
      if let equals = name.firstIndex(of: "=") {
        value = [String(name[name.index(after: equals)...])]
        name = String(name[..<equals])
      }
      while index < words.count, !Self.isOption(words[index]) {
        value.append(words[index])
        index += 1
      }
      let text = value.joined(separator: " ")
      guard !value.isEmpty else { return .failure(OptionFailure(option: word)) }
      switch name.lowercased() {
      case "due": fields.due = text
      case "description", "desc": fields.description = text
      case "place": fields.place = text
      case "contact": fields.contacts += value
      default: return .failure(OptionFailure(option: "--" + name))
      }
    }
    return .success((title, fields))
  }

  private static func isOption(_ word: String) -> Bool {
    word.hasPrefix("--") && word.count > 2 && word.dropFirst(2).first?.isLetter == true
  }

  /// An option `/todo add` does not take, or one without its value.
  struct OptionFailure: Error, Hashable {
    var option: String
  }

  /// The task to add, or why the fields cannot be used; nothing is saved on failure.
  /// `reader`: a due date typed with the wrong layout or in Latin letters is read
  /// first (`lj rsywz vsczwz`, `za 2 tyzhni`, #48).
  public func draft(title: String, today: DayDate, reader: TypedLineReader? = nil) -> Result<
    TodoDraft, InputError
  > {
    let title = title.trimmingWhitespace()
    guard !title.isEmpty else { return .failure(.needsTaskTitle) }
    guard title.count <= TodoTask.maxTitle else {
      return .failure(.tooLong(limit: TodoTask.maxTitle))
    }
    var draft = TodoDraft(title: title)
    switch dueDate(today: today, reader: reader) {
    case .failure(let error): return .failure(error)
    case .success(let due): draft.due = due ?? nil
    }
    for text in [description, place].compactMap({ $0 }) where text.count > TodoTask.maxText {
      return .failure(.tooLong(limit: TodoTask.maxText))
    }
    draft.details = description ?? ""
    draft.place = place?.trimmingWhitespace() ?? ""
    for typed in contacts {
      guard let id = Contact.id(typed: typed) else {
        return .failure(.badContactID(typed, example: nil))
      }
      draft.contacts.append(id)
    }
    return .success(draft)
  }

  /// The due date: nil when not given, `.some(nil)` when cleared (`none`).
  public func dueDate(today: DayDate, reader: TypedLineReader? = nil) -> Result<
    DayDate??, InputError
  > {
    guard let due else { return .success(nil) }
    if Self.noDate.contains(due.trimmingWhitespace().lowercased()) { return .success(.some(nil)) }
    guard let date = DueDateText.parse(due, today: today, reader: reader) else {
      return .failure(.badDate(due))
    }
    return .success(.some(date))
  }
}
