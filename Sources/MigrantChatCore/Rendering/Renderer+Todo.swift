import Foundation

/// The to-do list, one task, and the messages about reports.
///
/// A task is one line: `3. [ ] Title · due Tue 1 December 2026 (in 7 days)`,
/// wrapped under its title; done tasks show `[x]`. ASCII marks, not glyphs:
/// old terminals and screen readers read them as they are.
extension Renderer {
  func render(todo event: TodoEvent) -> Rendered {
    switch event {
    case .list(let list):
      return Rendered(stdout: render(list: list))
    case .added(let tasks, let skipped):
      // Nothing new: only that the steps were there already.
      var text = tasks.isEmpty && skipped > 0 ? "" : l10n.plural(.todoAdded, count: tasks.count)
      if skipped > 0 {
        text += (text.isEmpty ? "" : " ") + l10n.plural(.todoSkipped, count: skipped)
      }
      var output = lines(StyledText(text, style: .notice))
      for task in tasks { output += line(task, today: nil) }
      return Rendered(stdout: output)
    case .completed(let task):
      return notice(.todoCompleted, task)
    case .reopened(let task):
      return notice(.todoReopened, task)
    case .alreadyDone(let task):
      return notice(.todoAlreadyDone, task)
    case .alreadyOpen(let task):
      return notice(.todoAlreadyOpen, task)
    case .dueInPast(let due, let days):
      let text = l10n.plural(
        .todoDueInPast, count: days, ["date": DueDateText.format(due, l10n.language)])
      return Rendered(stderr: lines(StyledText(text, style: .error)))
    case .dueFromTitle(let task, let phrase):
      let text = l10n(
        .todoDueFromTitle,
        [
          "date": task.due.map { DueDateText.format($0, l10n.language) } ?? "",
          "phrase": TerminalSanitizer.clean(phrase, keepNewlines: false), "number": String(task.id),
        ])
      return Rendered(stderr: lines(StyledText(text)))
    case .dueNextYear(let due, let days):
      let text = l10n.plural(
        .todoDueNextYear, count: days, ["date": DueDateText.format(due, l10n.language)])
      return Rendered(stderr: lines(StyledText(text, style: .error)))
    case .answerChoices(let titles):
      var output = lines(StyledText(l10n(.todoAnswerChoices), style: .notice))
      for (index, title) in titles.enumerated() {
        output += lines(
          StyledText("\(index + 1). ") + StyledText(oneLine(title)), indent: "  ",
          hangingIndent: "     ")
      }
      return Rendered(stdout: output)
    case .removed(let task):
      return notice(.todoRemoved, task)
    case .shown(let task, let contacts, let today):
      return Rendered(stdout: render(task: task, contacts: contacts, today: today))
    case .noSuchTask(let id):
      return Rendered(
        stderr: lines(
          StyledText(
            l10n(hint(.todoNoSuchTask, .todoNoSuchTaskCLI), ["number": String(id)]), style: .error))
      )
    case .dueSoon(let overdue, let soon):
      var parts: [String] = []
      if overdue > 0 { parts.append(l10n.plural(.todoStartOverdue, count: overdue)) }
      if soon > 0 { parts.append(l10n.plural(.todoStartSoon, count: soon)) }
      let text = l10n(.todoStart, ["what": parts.joined(separator: ", ")])
      // A reminder about the user's own list, not part of the conversation.
      return Rendered(stderr: lines(StyledText(text, style: .notice)))
    case .unavailable(let detail):
      return Rendered(
        stderr: lines(StyledText(l10n(.todoUnavailable, ["detail": clean(detail)]), style: .error)))
    }
  }

  private func notice(_ key: MessageKey, _ task: TodoTask) -> Rendered {
    let text = l10n(key, ["number": String(task.id), "title": oneLine(task.title)])
    return Rendered(stdout: lines(StyledText(text, style: .notice), hangingIndent: "  "))
  }

  /// The list: a heading, each group under its guide's title, then how to act on a task.
  public func render(list: TodoList) -> String {
    guard !list.isEmpty else {
      let key: MessageKey =
        list.totalCount == 0
        ? hint(.todoEmpty, .todoEmptyCLI)
        : (list.filter == .done ? .todoNothingDone : hint(.todoNothingOpen, .todoNothingOpenCLI))
      return lines(StyledText(l10n(key), style: .notice))
    }
    let heading: MessageKey =
      switch list.filter {
      case .open: .todoTitleOpen
      case .done: .todoTitleDone
      case .all: .todoTitleAll
      }
    var output = lines(StyledText(l10n(heading), style: .bold))
    for group in list.groups {
      let title = group.title.map(oneLine) ?? l10n(.todoOwnTasks)
      output += lines(StyledText(title, style: .bold), indent: "  ", hangingIndent: "    ")
      for task in group.tasks { output += line(task, today: list.today, indent: "    ") }
    }
    output += lines(StyledText(l10n(hint(.todoListHint, .todoListHintCLI)), style: .label))
    return output
  }

  /// "open", or "done on Tue 1 December 2026".
  func status(_ task: TodoTask) -> String {
    task.completedAt.map {
      l10n(.todoStatusDone, ["date": DueDateText.format(DayDate($0), l10n.language)])
    } ?? l10n(.todoStatusOpen)
  }

  /// `3. [ ] Title · due Tue 1 December 2026 (in 7 days)`; in the accessible mode
  /// `3. Title, open, due …`.
  public func line(_ task: TodoTask, today: DayDate?, indent: String = "  ") -> String {
    var text = StyledText("\(task.id). ", style: .choiceNumber)
    if !accessible { text.append(task.isDone ? "[x] " : "[ ] ") }
    text.append(oneLine(task.title), style: task.isDone ? .plain : .bold)
    // "[x]" is read as the letter x: the state in words, after the title.
    if accessible { text.append(", " + status(task)) }
    if let due = task.due {
      let style: TextStyle = today.map { task.isOverdue(today: $0) } == true ? .error : .label
      text.append(
        " · " + l10n(.todoDueOn, ["date": DueDateText.format(due, l10n.language)]), style: style)
      if let today, !task.isDone {
        text.append(" (" + relative(due, today: today) + ")", style: style)
      }
    }
    let number = String(task.id).count + 2
    return lines(
      text, indent: indent, hangingIndent: indent + String(repeating: " ", count: number + 4))
  }

  /// "today", "tomorrow", "in 5 days", "overdue by 2 days".
  func relative(_ due: DayDate, today: DayDate) -> String {
    let days = due.days(since: today)
    switch days {
    case 0: return l10n(.todoDueToday)
    case 1: return l10n(.todoDueTomorrow)
    case ..<0: return l10n.plural(.todoOverdue, count: -days)
    default: return l10n.plural(.todoDueIn, count: days)
    }
  }

  /// `/todo show N`: the task in full, its offices as cards.
  public func render(task: TodoTask, contacts: [Contact], today: DayDate) -> String {
    var output = line(task, today: today)
    let indent = "    "
    if !task.details.isEmpty {
      output += lines(StyledText(clean(task.details)), indent: indent)
    }
    output += labelled(.todoLabelStatus, status(task), indent: indent, valueStyle: .plain)
    if !task.place.isEmpty {
      output += labelled(.todoLabelPlace, oneLine(task.place), indent: indent, valueStyle: .plain)
    }
    if let guide = task.guideTitle, !guide.isEmpty {
      output += labelled(.todoLabelGuide, oneLine(guide), indent: indent, valueStyle: .plain)
    }
    if !task.contacts.isEmpty {
      output += lines(StyledText(l10n(.todoLabelOffices) + ":", style: .label), indent: indent)
      let found = Set(contacts.map(\.id))
      for contact in contacts { output += card(contact, favourite: false, full: false) }
      for id in task.contacts where !found.contains(id) {
        output += lines(
          StyledText(missingContact(String(id)), style: .notice), indent: "  ",
          hangingIndent: "    ")
      }
    }
    return output
  }

  /// Text from the user or a guide, on one line.
  public func oneLine(_ text: String) -> String {
    TerminalSanitizer.clean(text, keepNewlines: false)
  }

  // MARK: - Reports

  func render(report event: ReportEvent) -> Rendered {
    switch event {
    case .askText(let title):
      return Rendered(
        stdout: lines(StyledText(l10n(.reportAsk, ["title": oneLine(title)]), style: .notice)))
    case .cancelled:
      return Rendered(stdout: lines(StyledText(l10n(.reportCancelled), style: .notice)))
    case .chooseGuide(let titles):
      var number = 0
      let buttons = titles.map { Button(title: $0, payload: "") }
      return Rendered(
        stdout: lines(StyledText(l10n(.reportChooseGuide), style: .notice))
          + render(buttons: buttons, indent: "  ", number: &number))
    case .keptAsDraft:
      return Rendered(stdout: lines(StyledText(l10n(.reportKeptAsDraft), style: .notice)))
    case .queueSent(let count):
      return Rendered(
        stdout: lines(StyledText(l10n.plural(.reportQueueSent, count: count), style: .notice)))
    case .outcome(let outcome, let title):
      let title = oneLine(title)
      switch outcome {
      case .sent:
        return Rendered(
          stdout: lines(StyledText(l10n(.reportSent, ["title": title]), style: .notice)))
      case .queued(_, let reason):
        let why =
          switch reason {
          case .noDataAPI: l10n(.reportNoAPI)
          case .failed(let error): error.reportReason(l10n)
          }
        return Rendered(
          stderr: lines(
            StyledText(l10n(.reportQueued, ["title": title, "reason": why]), style: .notice)))
      case .refused(_, let status, let body):
        let text = l10n(
          .reportRefused,
          ["title": title, "status": String(status), "body": body.isEmpty ? "-" : oneLine(body)])
        return Rendered(stderr: lines(StyledText(text, style: .error)))
      case .notSaved(_, let text, let detail):
        let message = l10n(.reportLost, ["detail": clean(detail), "text": clean(text)])
        return Rendered(stderr: lines(StyledText(message, style: .error)))
      }
    }
  }
}
