import Foundation

extension ChatSession {
  /// `/todo ...` and the "Save these steps" button.
  func runTodo(_ command: TodoCommand) async -> [ChatEvent] {
    guard let tools, let todos = tools.todos else {
      return [.todo(.unavailable(detail: "no state database"))]
    }
    let today = tools.today()
    do {
      switch command {
      case .list(let filter):
        return [.todo(.list(TodoList(try todos.tasks(), filter: filter, today: today)))]
      case .needsTitle:
        return [.inputError(.needsTaskTitle)]
      case .unknown(let word):
        return [.inputError(.unknownTodoCommand(word))]
      case .add(let title, let dueText):
        var due: DayDate?
        if let dueText {
          guard let parsed = DueDateText.parse(dueText, today: today) else {
            return [.inputError(.badDate(dueText))]
          }
          due = parsed
        }
        guard title.count <= TodoTask.maxTitle else {
          return [.inputError(.tooLong(limit: TodoTask.maxTitle))]
        }
        let added = try todos.add([TodoDraft(title: title, due: due)], now: tools.now())
        return [.todo(.added(added, skipped: 0))]
      case .addMessage(let number):
        let candidates = lastMessages.filter { TodoDraft.message($0) != nil }
        guard candidates.indices.contains(number - 1),
          let draft = TodoDraft.message(candidates[number - 1])
        else {
          return [.inputError(.noSuchMessage(number: number, count: candidates.count))]
        }
        return [.todo(.added(try todos.add([draft], now: tools.now()), skipped: 0))]
      case .save(let given):
        guard let id = given ?? lastGuideID else {
          return [.inputError(.noGuideShown(command: "/todo save"))]
        }
        let tree = tools.guidance()
        guard let guide = tree.items[id] else {
          return [.inputError(.guideHasNoSteps(title: "#\(id)"))]
        }
        var drafts = TodoDraft.steps(of: guide, in: tree, language: language)
        if tree.isSample {
          // Made-up guidance must not pass for real on the to-do list either.
          let mark = Localizer(language)(.sampleCard)
          for index in drafts.indices { drafts[index].guideTitle? += " " + mark }
        }
        guard !drafts.isEmpty else {
          return [.inputError(.guideHasNoSteps(title: guide.title(in: language)))]
        }
        let added = try todos.add(drafts, now: tools.now())
        return [.todo(.added(added, skipped: drafts.count - added.count))]
      case .done(let typed), .undo(let typed), .show(let typed), .remove(let typed):
        let name = Self.commandName(command)
        guard let typed, let id = Int64(typed.hasPrefix("#") ? String(typed.dropFirst()) : typed),
          id > 0
        else {
          return [.inputError(.needsTaskNumber(command: name, typed: typed))]
        }
        return try await change(command, id: id, todos: todos, tools: tools)
      }
    } catch {
      return [.todo(.unavailable(detail: error.detail))]
    }
  }

  private func change(
    _ command: TodoCommand, id: Int64, todos: any TodoStore, tools: ChatTools
  ) async throws(DirectoryError) -> [ChatEvent] {
    switch command {
    case .done:
      return [
        try todos.setDone(id: id, true, now: tools.now()).map { .todo(.completed($0)) }
          ?? .todo(.noSuchTask(id))
      ]
    case .undo:
      return [
        try todos.setDone(id: id, false, now: tools.now()).map { .todo(.reopened($0)) }
          ?? .todo(.noSuchTask(id))
      ]
    case .remove:
      guard let task = try todos.task(id: id), try todos.remove(id: id) else {
        return [.todo(.noSuchTask(id))]
      }
      return [.todo(.removed(task))]
    default:
      guard let task = try todos.task(id: id) else { return [.todo(.noSuchTask(id))] }
      var contacts: [Contact] = []
      if !task.contacts.isEmpty, let directory {
        contacts = (try? await directory.contacts(ids: task.contacts)) ?? []
      }
      return [.todo(.shown(task, contacts: contacts, today: tools.today()))]
    }
  }

  private static func commandName(_ command: TodoCommand) -> String {
    switch command {
    case .done: "/todo done"
    case .undo: "/todo undo"
    case .remove: "/todo remove"
    default: "/todo show"
    }
  }

  /// The start-up line: open tasks overdue or due within seven days (none: no event).
  public func dueSoon() -> [ChatEvent] {
    guard let tools, let tasks = try? tools.todos?.tasks() else { return [] }
    let (overdue, soon) = TodoList.dueSoon(tasks, today: tools.today())
    guard overdue + soon > 0 else { return [] }
    return [.todo(.dueSoon(overdue: overdue, soon: soon))]
  }
}
