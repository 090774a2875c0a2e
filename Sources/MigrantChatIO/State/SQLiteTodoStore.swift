import Foundation
import GRDB
import MigrantChatCore

/// The to-do list, in the user's state database (`StateDatabase`).
///
/// Edits set only the columns they change, in one statement, so two processes
/// that edit different fields of one task at once both keep their change.
public final class SQLiteTodoStore: TodoStore {
  private let database: any DatabaseWriter

  init(database: any DatabaseWriter) {
    self.database = database
  }

  private static let columns =
    "id, title, details, place, due, contacts, guide_id, guide_title, step_id, completed_at, "
    + "created_at, updated_at"

  public func tasks() throws(DirectoryError) -> [TodoTask] {
    try run { db in
      try Row.fetchAll(db, sql: "SELECT \(Self.columns) FROM todo ORDER BY id").map(Self.task)
    }
  }

  public func openDueDates() throws(DirectoryError) -> [DayDate] {
    try run { db in
      try String.fetchAll(
        db, sql: "SELECT due FROM todo WHERE completed_at IS NULL AND due IS NOT NULL ORDER BY id"
      ).compactMap { DayDate(iso: $0) }
    }
  }

  public func task(id: Int64) throws(DirectoryError) -> TodoTask? {
    try run { db in
      try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM todo WHERE id = ?", arguments: [id])
        .map(Self.task)
    }
  }

  public func add(_ drafts: [TodoDraft], now: Date) throws(DirectoryError) -> [TodoTask] {
    try write { db in
      var added: [TodoTask] = []
      for draft in drafts {
        if let step = draft.stepID,
          try Bool.fetchOne(
            db, sql: "SELECT 1 FROM todo WHERE step_id = ? AND completed_at IS NULL",
            arguments: [step]) == true
        {
          continue
        }
        let time = now.timeIntervalSince1970
        try db.execute(
          sql: """
            INSERT INTO todo (title, details, place, due, contacts, guide_id, guide_title,
              step_id, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
          arguments: [
            draft.title, draft.details, draft.place, draft.due?.iso,
            Self.contactsText(draft.contacts), draft.guideID, draft.guideTitle, draft.stepID, time,
            time,
          ])
        added.append(
          TodoTask(id: db.lastInsertedRowID, draft: draft, createdAt: now, updatedAt: now))
      }
      return added
    }
  }

  public func update(id: Int64, _ change: TodoChange, now: Date) throws(DirectoryError)
    -> TodoTask?
  {
    var sets: [String] = []
    var arguments: [(any DatabaseValueConvertible)?] = []
    if let title = change.title { (sets, arguments) = (sets + ["title = ?"], arguments + [title]) }
    if let details = change.details {
      (sets, arguments) = (sets + ["details = ?"], arguments + [details])
    }
    if let place = change.place { (sets, arguments) = (sets + ["place = ?"], arguments + [place]) }
    if let due = change.due { (sets, arguments) = (sets + ["due = ?"], arguments + [due?.iso]) }
    if let contacts = change.contacts {
      (sets, arguments) = (sets + ["contacts = ?"], arguments + [Self.contactsText(contacts)])
    }
    sets.append("updated_at = ?")
    arguments += [now.timeIntervalSince1970, id]
    let assignments = sets.joined(separator: ", ")
    let values = StatementArguments(arguments)
    return try write { db in
      try db.execute(sql: "UPDATE todo SET \(assignments) WHERE id = ?", arguments: values)
      return try Row.fetchOne(
        db, sql: "SELECT \(Self.columns) FROM todo WHERE id = ?", arguments: [id]
      ).map(Self.task)
    }
  }

  public func setDone(id: Int64, _ done: Bool, now: Date) throws(DirectoryError) -> TodoTask? {
    try write { db in
      // Completing a task that is already done keeps the time it was first completed.
      try db.execute(
        sql: """
          UPDATE todo SET completed_at = CASE WHEN ? THEN coalesce(completed_at, ?) END,
            updated_at = ?
          WHERE id = ?
          """,
        arguments: [done, now.timeIntervalSince1970, now.timeIntervalSince1970, id])
      return try Row.fetchOne(
        db, sql: "SELECT \(Self.columns) FROM todo WHERE id = ?", arguments: [id]
      ).map(Self.task)
    }
  }

  public func remove(id: Int64) throws(DirectoryError) -> Bool {
    try write { db in
      try db.execute(sql: "DELETE FROM todo WHERE id = ?", arguments: [id])
      return db.changesCount > 0
    }
  }

  // MARK: - Rows

  private static func contactsText(_ ids: [Int64]) -> String {
    ids.map(String.init).joined(separator: ",")
  }

  private static func task(_ row: Row) -> TodoTask {
    let contacts = (row["contacts"] as String? ?? "").split(separator: ",").compactMap {
      Int64($0)
    }
    let draft = TodoDraft(
      title: row["title"], details: row["details"], place: row["place"],
      due: (row["due"] as String?).flatMap { DayDate(iso: $0) }, contacts: contacts,
      guideID: row["guide_id"], guideTitle: row["guide_title"], stepID: row["step_id"])
    return TodoTask(
      id: row["id"], draft: draft,
      completedAt: (row["completed_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
      createdAt: Date(timeIntervalSince1970: row["created_at"]),
      updatedAt: Date(timeIntervalSince1970: row["updated_at"]))
  }

  /// Reads on the writer's connection, outside a transaction (one statement each): the
  /// list is small, and a one-shot command or the chat's start then opens no second
  /// connection (a reader costs a few milliseconds of start-up).
  private func run<T>(_ body: (Database) throws -> T) throws(DirectoryError) -> T {
    do { return try database.writeWithoutTransaction(body) } catch {
      throw SQLiteSettings.directoryError(error)
    }
  }

  private func write<T>(_ body: (Database) throws -> T) throws(DirectoryError) -> T {
    do { return try database.write(body) } catch { throw SQLiteSettings.directoryError(error) }
  }
}
