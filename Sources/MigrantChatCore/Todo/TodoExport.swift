import Foundation

/// Tasks for scripts: `todo list --json`, `--csv`, and the chat's `--json` events.
public enum TodoExport {
  public static func object(_ task: TodoTask, today: DayDate) -> JSONValue {
    var fields: [String: JSONValue] = [
      "id": .number(Double(task.id)), "title": .string(clean(task.title)),
      "done": .bool(task.isDone), "contacts": .array(task.contacts.map { .number(Double($0)) }),
      "created": .string(isoTime(task.createdAt)), "updated": .string(isoTime(task.updatedAt)),
      "overdue": .bool(task.isOverdue(today: today)),
    ]
    if !task.details.isEmpty { fields["description"] = .string(clean(task.details)) }
    if !task.place.isEmpty { fields["place"] = .string(clean(task.place)) }
    if let due = task.due { fields["due"] = .string(due.iso) }
    if let guide = task.guideID { fields["guide_id"] = .number(Double(guide)) }
    if let title = task.guideTitle { fields["guide_title"] = .string(clean(title)) }
    if let step = task.stepID { fields["step_id"] = .number(Double(step)) }
    if let completed = task.completedAt { fields["completed"] = .string(isoTime(completed)) }
    return .object(fields)
  }

  public static let csvHeader = [
    "id", "title", "description", "place", "due", "done", "completed", "guide_id", "guide_title",
    "contacts",
  ].joined(separator: ",")

  /// One CSV line, fields quoted and formulas defused as `contacts --csv` does.
  public static func csvRow(_ task: TodoTask) -> String {
    [
      String(task.id), clean(task.title), clean(task.details), clean(task.place),
      task.due?.iso ?? "", task.isDone ? "yes" : "no", task.completedAt.map(isoTime) ?? "",
      task.guideID.map(String.init) ?? "", clean(task.guideTitle ?? ""),
      task.contacts.map(String.init).joined(separator: " "),
    ].map { ContactExport.csvField(TerminalSanitizer.clean($0, keepNewlines: false)) }
      .joined(separator: ",")
  }

  static func isoTime(_ date: Date) -> String {
    ISO8601DateFormatter().string(from: date)
  }

  private static func clean(_ text: String) -> String { TerminalSanitizer.clean(text) }
}
