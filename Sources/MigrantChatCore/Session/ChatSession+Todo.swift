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
      case .unknown(let word):
        return [.inputError(.unknownTodoCommand(word))]
      case .badOption(let option):
        return [.inputError(.badTodoOption(option))]
      case .add(let typedTitle, var fields):
        // The title read as the chat reads a line (#48), and a deadline at its end taken
        // as the due date when none is given.
        var title = typedTitle
        if let reading = reader?.reading(of: title, language: language) { title = reading.text }
        var fromTitle: String?
        if fields.due == nil, let found = DueDateText.trailing(title, today: today, reader: reader)
        {
          title = found.title
          fields.due = found.phrase
          fromTitle = found.phrase
        }
        let draft: TodoDraft
        switch fields.draft(title: title, today: today, reader: reader) {
        case .failure(let error): return [.inputError(error)]
        case .success(let made): draft = made
        }
        let added = try todos.add([draft], now: tools.now())
        var events: [ChatEvent] = [.todo(.added(added, skipped: 0))]
        if let fromTitle, let task = added.first {
          events.append(.todo(.dueFromTitle(task, phrase: fromTitle)))
        }
        return events
          + (TodoEvent.dueWarning(draft.due, typed: fields.due, today: today).map { [.todo($0)] }
            ?? [])
      case .addMessage(let number):
        let candidates = lastMessages.compactMap(TodoDraft.message)
        guard candidates.indices.contains(number - 1) else {
          return [.inputError(.noSuchMessage(number: number, count: candidates.count))]
        }
        // Rasa sends an answer's offices as a message of their own, with no text:
        // the task takes the offices of the whole answer.
        var draft = candidates[number - 1]
        let answerContacts = lastMessages.flatMap(\.contactIDs).compactMap { Int64($0) }
        for id in answerContacts where !draft.contacts.contains(id) { draft.contacts.append(id) }
        return [.todo(.added(try todos.add([draft], now: tools.now()), skipped: 0))]
      case .needsTitle:
        let candidates = lastMessages.compactMap(TodoDraft.message).map(\.title)
        return candidates.isEmpty
          ? [.inputError(.needsTaskTitle)] : [.todo(.answerChoices(candidates))]
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
        let ids: [Int64]
        switch TodoNumbers.read(typed, command: Self.commandName(command)) {
        case .failure(let error): return [.inputError(error)]
        case .success(let read): ids = read
        }
        let actions = TodoActions(
          todos: todos, directory: directory, now: tools.now(), today: today)
        return try await actions.run(TodoActions.Action(command), ids: ids).map { .todo($0) }
      }
    } catch {
      return [.todo(.unavailable(detail: error.detail))]
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
    guard let tools, let dates = try? tools.todos?.openDueDates() else { return [] }
    let (overdue, soon) = TodoList.dueSoon(dates: dates, today: tools.today())
    guard overdue + soon > 0 else { return [] }
    return [.todo(.dueSoon(overdue: overdue, soon: soon))]
  }
}
