import Foundation

/// The to-do list as shown: tasks grouped by the guide they came from, the
/// most urgent group first, and in each group overdue tasks first, then by
/// due date, then tasks without one, in the order they were added.
public struct TodoList: Sendable, Hashable {
  public enum Filter: String, Sendable, Hashable, CaseIterable {
    case open, done, all
  }

  public struct Group: Sendable, Hashable {
    /// Nil: the user's own tasks.
    public var guideID: Int64?
    public var title: String?
    public var tasks: [TodoTask]
  }

  public var groups: [Group]
  public var filter: Filter
  public var today: DayDate
  /// Tasks on the list in all (open and done), to tell "nothing to do" from "empty".
  public var totalCount: Int

  public init(_ tasks: [TodoTask], filter: Filter, today: DayDate) {
    self.filter = filter
    self.today = today
    totalCount = tasks.count
    let shown = tasks.filter { task in
      switch filter {
      case .open: !task.isDone
      case .done: task.isDone
      case .all: true
      }
    }
    var order: [Int64?] = []
    var byGuide: [Int64?: Group] = [:]
    for task in shown {
      if byGuide[task.guideID] == nil {
        order.append(task.guideID)
        byGuide[task.guideID] = Group(guideID: task.guideID, title: task.guideTitle, tasks: [])
      }
      byGuide[task.guideID]?.tasks.append(task)
    }
    let sorted = order.compactMap { byGuide[$0] }.map { group in
      var group = group
      group.tasks.sort { Self.urgency($0) < Self.urgency($1) }
      return group
    }
    // Own tasks (no guide) are one group among the others, placed by urgency too.
    groups = sorted.enumerated().sorted { left, right in
      let (a, b) = (left.element.tasks[0], right.element.tasks[0])
      if Self.urgency(a) != Self.urgency(b) { return Self.urgency(a) < Self.urgency(b) }
      return left.offset < right.offset
    }.map(\.element)
  }

  /// Open before done, then by due date (none last), then by id.
  private static func urgency(_ task: TodoTask) -> Urgency {
    Urgency(done: task.isDone ? 1 : 0, due: task.due?.ordinal ?? Int.max, id: task.id)
  }

  private struct Urgency: Comparable {
    var done: Int
    var due: Int
    var id: Int64

    static func < (lhs: Urgency, rhs: Urgency) -> Bool {
      (lhs.done, lhs.due, lhs.id) < (rhs.done, rhs.due, rhs.id)
    }
  }

  public var tasks: [TodoTask] { groups.flatMap(\.tasks) }

  public var isEmpty: Bool { groups.isEmpty }

  /// Of the due dates of the open tasks (`TodoStore.openDueDates`), those overdue and
  /// those within `days` days of `today`: the chat's start-up line.
  public static func dueSoon(dates: [DayDate], today: DayDate, days: Int = 7)
    -> (overdue: Int, soon: Int)
  {
    var overdue = 0
    var soon = 0
    for due in dates {
      let ahead = due.days(since: today)
      if ahead < 0 {
        overdue += 1
      } else if ahead <= days {
        soon += 1
      }
    }
    return (overdue, soon)
  }
}
