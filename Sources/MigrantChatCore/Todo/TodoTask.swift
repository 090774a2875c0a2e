import Foundation

/// One task of the user's to-do list: a guide's step they saved, or their own.
public struct TodoTask: Sendable, Hashable {
  /// Stable for the task's life: the number the user types (`/todo done 3`).
  public var id: Int64
  public var title: String
  public var details: String
  public var place: String
  public var due: DayDate?
  /// Offices from the directory, shown as cards with the task.
  public var contacts: [Int64]
  /// The guide the task came from (its steps are saved together), nil for the user's own.
  public var guideID: Int64?
  /// The guide's title when the task was saved: the group's name even if the guide goes.
  public var guideTitle: String?
  /// The guide's step this task is (`isTask` item), so a step is not saved twice.
  public var stepID: Int64?
  public var completedAt: Date?
  public var createdAt: Date
  public var updatedAt: Date

  public var isDone: Bool { completedAt != nil }

  public init(
    id: Int64, draft: TodoDraft, completedAt: Date? = nil, createdAt: Date, updatedAt: Date
  ) {
    self.id = id
    self.title = draft.title
    self.details = draft.details
    self.place = draft.place
    self.due = draft.due
    self.contacts = draft.contacts
    self.guideID = draft.guideID
    self.guideTitle = draft.guideTitle
    self.stepID = draft.stepID
    self.completedAt = completedAt
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }

  /// Overdue on `today`: due before it and not done.
  public func isOverdue(today: DayDate) -> Bool {
    guard !isDone, let due else { return false }
    return due < today
  }
}

/// A task to add: what the user typed, or a guide's step.
public struct TodoDraft: Sendable, Hashable {
  public var title: String
  public var details: String
  public var place: String
  public var due: DayDate?
  public var contacts: [Int64]
  public var guideID: Int64?
  public var guideTitle: String?
  public var stepID: Int64?

  public init(
    title: String, details: String = "", place: String = "", due: DayDate? = nil,
    contacts: [Int64] = [], guideID: Int64? = nil, guideTitle: String? = nil, stepID: Int64? = nil
  ) {
    self.title = title
    self.details = details
    self.place = place
    self.due = due
    self.contacts = contacts
    self.guideID = guideID
    self.guideTitle = guideTitle
    self.stepID = stepID
  }

  /// The steps of `guide` (its `isTask` children), as tasks, in `language`.
  public static func steps(of guide: FaqItem, in tree: GuidanceTree, language: Language)
    -> [TodoDraft]
  {
    tree.steps(of: guide).map { step in
      TodoDraft(
        title: HTMLText.plain(step.title(in: language)),
        details: HTMLText.plain(step.text(in: language)),
        contacts: step.contacts.isEmpty ? guide.contacts : step.contacts,
        guideID: guide.id, guideTitle: HTMLText.plain(guide.title(in: language)),
        stepID: step.id)
    }
  }

  /// A bot's message as a task: its first line the title, the rest the details.
  public static func message(_ message: BotMessage) -> TodoDraft? {
    let text = (message.text ?? "").replacingOccurrences(of: "**", with: "")
    let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
      .map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    let contacts = message.contactIDs.compactMap { Int64($0) }
    guard let first = lines.first else { return nil }
    var title = first
    var details = lines.dropFirst().joined(separator: "\n")
    if title.count > TodoTask.maxTitle {
      details = title + (details.isEmpty ? "" : "\n" + details)
      title = String(title.prefix(TodoTask.maxTitle - 1)) + "…"
    }
    return TodoDraft(title: title, details: details, contacts: contacts)
  }
}

/// What `todo edit` changes; nil fields stay as they are, so two processes that
/// change different fields of one task at once both keep their change.
public struct TodoChange: Sendable, Hashable {
  public var title: String?
  public var details: String?
  public var place: String?
  /// `.some(nil)` clears the due date.
  public var due: DayDate??
  public var contacts: [Int64]?

  public init(
    title: String? = nil, details: String? = nil, place: String? = nil, due: DayDate?? = nil,
    contacts: [Int64]? = nil
  ) {
    self.title = title
    self.details = details
    self.place = place
    self.due = due
    self.contacts = contacts
  }

  public var isEmpty: Bool {
    title == nil && details == nil && place == nil && due == nil && contacts == nil
  }
}

extension TodoTask {
  /// Longer titles are cut (the rest goes to the details); a title is one line.
  public static let maxTitle = 200
  /// Descriptions and places longer than this are refused, not cut.
  public static let maxText = 10_000
}

/// Where the to-do list is kept: the user's state database, beside the favourites.
public protocol TodoStore: Sendable {
  /// Every task, in the order they were added.
  func tasks() throws(DirectoryError) -> [TodoTask]
  func task(id: Int64) throws(DirectoryError) -> TodoTask?
  /// Adds all drafts in one transaction; a step already on the list (same step id,
  /// not done) is not added again. Returns the tasks added.
  func add(_ drafts: [TodoDraft], now: Date) throws(DirectoryError) -> [TodoTask]
  /// Changes only the fields `change` sets; nil when there is no such task.
  func update(id: Int64, _ change: TodoChange, now: Date) throws(DirectoryError) -> TodoTask?
  /// Marks done (`done`) or open again; nil when there is no such task.
  func setDone(id: Int64, _ done: Bool, now: Date) throws(DirectoryError) -> TodoTask?
  func remove(id: Int64) throws(DirectoryError) -> Bool
  /// The due dates of the tasks not done, for the reminder a chat starts with: one
  /// column read, where every task's twelve were a tenth of the first answer's reads (#50).
  func openDueDates() throws(DirectoryError) -> [DayDate]
}

extension TodoStore {
  public func openDueDates() throws(DirectoryError) -> [DayDate] {
    try tasks().filter { !$0.isDone }.compactMap(\.due)
  }
}
