import Foundation

/// `done`, `undo`, `show` and `remove` of one task or several: the chat's `/todo`
/// and the command line's `todo` run the same checks and say the same things.
public struct TodoActions: Sendable {
  public enum Action: Sendable, Hashable {
    case done
    case undo
    case show
    case remove

    init(_ command: TodoCommand) {
      switch command {
      case .done: self = .done
      case .undo: self = .undo
      case .remove: self = .remove
      default: self = .show
      }
    }
  }

  public let todos: any TodoStore
  /// For the offices of a shown task; nil shows none.
  public let directory: ContactDirectory?
  public let now: Date
  public let today: DayDate

  public init(todos: any TodoStore, directory: ContactDirectory?, now: Date, today: DayDate) {
    self.todos = todos
    self.directory = directory
    self.now = now
    self.today = today
  }

  /// One event per number, in the order given; a missing task does not stop the others.
  public func run(_ action: Action, ids: [Int64]) async throws(DirectoryError) -> [TodoEvent] {
    var events: [TodoEvent] = []
    for id in ids { events.append(try await run(action, id: id)) }
    return events
  }

  private func run(_ action: Action, id: Int64) async throws(DirectoryError) -> TodoEvent {
    guard let task = try todos.task(id: id) else { return .noSuchTask(id) }
    switch action {
    case .done, .undo:
      let done = action == .done
      if task.isDone == done { return done ? .alreadyDone(task) : .alreadyOpen(task) }
      guard let changed = try todos.setDone(id: id, done, now: now) else { return .noSuchTask(id) }
      return done ? .completed(changed) : .reopened(changed)
    case .remove:
      return try todos.remove(id: id) ? .removed(task) : .noSuchTask(id)
    case .show:
      var contacts: [Contact] = []
      if !task.contacts.isEmpty, let directory {
        contacts = (try? await directory.contacts(ids: task.contacts)) ?? []
      }
      return .shown(task, contacts: contacts, today: today)
    }
  }
}

extension TodoEvent {
  /// A due date before today: saved, with a warning that says how long ago it was.
  public static func pastDue(_ due: DayDate?, today: DayDate) -> TodoEvent? {
    guard let due, due < today else { return nil }
    return .dueInPast(due, days: today.days(since: due))
  }

  /// What to say of a due date just saved: how long ago it was, or, for a day and month
  /// typed without a year that has passed this year (`24.11` on the 25th), that it is
  /// next year's, which may not be what was meant.
  public static func dueWarning(_ due: DayDate?, typed: String?, today: DayDate) -> TodoEvent? {
    if let past = pastDue(due, today: today) { return past }
    // Far ahead, no year typed, and not relative ("in a year" moves with today; a day
    // and month does not).
    guard let due, let typed, today.days(since: due) < -300,
      typed.wholeMatch(of: #/.*\d{4}.*/#) == nil,
      let tomorrow = today.adding(days: 1), DueDateText.parse(typed, today: tomorrow) == due
    else { return nil }
    return .dueNextYear(due, days: due.days(since: today))
  }
}
