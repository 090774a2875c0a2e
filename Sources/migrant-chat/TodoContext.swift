import Foundation
import MigrantChatCore
import MigrantChatIO

/// What the `todo` subcommands share: the state database, the directory, the output.
///
/// `done`, `undo`, `remove` and `show` go through the chat's own `/todo`
/// commands, so both print the same words and check the same things.
struct TodoContext {
  /// Due dates typed with the wrong layout or in Latin letters are read (#48).
  static let reader = WordTables.builtIn.map { TypedLineReader(tables: $0) }

  let files: DirectoryFiles
  let language: Language
  let format: ContactsContext.Format
  let renderer: Renderer
  let csvBOM: Bool
  let today: DayDate

  init(options: TodoOptions, environment: [String: String]) throws(SetupFailure) {
    let base = try BaseSetup(lang: options.language.lang, environment: environment)
    language = base.language
    files = DirectoryFiles.open(paths: base.paths)
    format = ContactsContext.Format(options.format)
    csvBOM = options.csvBom
    today = DayDate.local()
    let color =
      base.escapesAllowed
      && ColorChoice.auto.enabled(
        isTerminal: TerminalInfo.isTerminal(STDOUT_FILENO), environment: environment)
    var renderer = Renderer(
      width: TerminalInfo.width(environment: environment), color: color, language: language,
      canSync: false, commandLine: true)
    renderer.accessible = base.accessible
    self.renderer = renderer
    for notice in files.notices {
      ConsoleOutput.write(renderer.render(.directory(.notice(notice))).stderr, to: STDERR_FILENO)
    }
  }

  private var l10n: Localizer { renderer.l10n }

  /// The store, or a message and nil when the state database could not be opened.
  private var todos: (any TodoStore)? {
    if files.todos == nil { write(.todo(.unavailable(detail: "no state database"))) }
    return files.todos
  }

  func list(_ filter: TodoList.Filter) -> Int32 {
    guard let todos else { return 1 }
    let tasks: [TodoTask]
    do { tasks = try todos.tasks() } catch { return fail(error.detail) }
    let list = TodoList(tasks, filter: filter, today: today)
    switch format {
    case .text:
      ConsoleOutput.write(renderer.render(list: list))
    case .json:
      ConsoleOutput.write(
        JSONValue.array(list.tasks.map { TodoExport.object($0, today: today) }).compactText + "\n")
    case .csv:
      ConsoleOutput.write(
        (csvBOM ? "\u{FEFF}" : "") + TodoExport.csvHeader + "\r\n"
          + list.tasks.map { TodoExport.csvRow($0) + "\r\n" }.joined())
    }
    return 0
  }

  func add(title: String, fields: TodoFields) -> Int32 {
    // A deadline at the end of the title is the due date when none is given (#48).
    var title = title
    var text = fields.text
    var fromTitle: String?
    if text.due == nil, let found = DueDateText.trailing(title, today: today, reader: Self.reader) {
      title = found.title
      text.due = found.phrase
      fromTitle = found.phrase
    }
    let draft: TodoDraft
    switch text.draft(title: title, today: today, reader: Self.reader) {
    case .failure(let error): return usage(error)
    case .success(let made): draft = made
    }
    guard let todos else { return 1 }
    do {
      let added = try todos.add([draft], now: Date())
      output(.todo(.added(added, skipped: 0)), tasks: added)
      if let fromTitle, let task = added.first {
        write(.todo(.dueFromTitle(task, phrase: fromTitle)))
      }
      if let warning = TodoEvent.dueWarning(draft.due, typed: text.due, today: today) {
        write(.todo(warning))
      }
      return 0
    } catch {
      write(.todo(.unavailable(detail: error.detail)))
      return 1
    }
  }

  func edit(_ id: Int64, title: String?, fields: TodoFields) -> Int32 {
    var change = TodoChange()
    if let title {
      let trimmed = title.trimmingWhitespace()
      guard !trimmed.isEmpty else { return usage(.needsTaskTitle) }
      guard trimmed.count <= TodoTask.maxTitle else {
        return usage(.tooLong(limit: TodoTask.maxTitle))
      }
      change.title = trimmed
    }
    let text = fields.text
    let draft: TodoDraft
    let others = TodoFieldsText(
      description: text.description, place: text.place, contacts: text.contacts)
    switch others.draft(title: "-", today: today) {
    case .failure(let error): return usage(error)
    case .success(let made): draft = made
    }
    switch text.dueDate(today: today, reader: Self.reader) {
    case .failure(let error): return usage(error)
    case .success(let due): change.due = due
    }
    if text.description != nil { change.details = draft.details }
    if text.place != nil { change.place = draft.place }
    if !text.contacts.isEmpty { change.contacts = draft.contacts }
    guard !change.isEmpty else {
      ConsoleOutput.write(l10n(.todoNothingToEdit) + "\n", to: STDERR_FILENO)
      return 2
    }
    guard let todos else { return 1 }
    do {
      guard let task = try todos.update(id: id, change, now: Date()) else {
        write(.todo(.noSuchTask(id)))
        return 1
      }
      if format == .text {
        // What the task is now, as the list shows it.
        ConsoleOutput.write(
          l10n(.todoUpdated, ["number": String(task.id), "title": renderer.oneLine(task.title)])
            + "\n" + renderer.line(task, today: today))
      } else {
        ConsoleOutput.write(TodoExport.object(task, today: today).compactText + "\n")
      }
      if let warning = TodoEvent.dueWarning(change.due ?? nil, typed: fields.due, today: today) {
        write(.todo(warning))
      }
      return 0
    } catch {
      write(.todo(.unavailable(detail: error.detail)))
      return 1
    }
  }

  /// `todo done|undo|show|remove N [N ...]`; 1 when any did not do what was asked.
  ///
  /// `remove` asks first on a terminal, unless `confirmed` (`--yes`).
  func run(_ action: TodoActions.Action, numbers: [String], confirmed: Bool = false) async
    -> Int32
  {
    let ids: [Int64]
    switch TodoNumbers.read(numbers, command: "migrant-chat todo \(action)") {
    case .failure(let error): return usage(error)
    case .success(let read): ids = read
    }
    guard let todos else { return 1 }
    var chosen = ids
    if action == .remove, !confirmed, TerminalInfo.isTerminal(STDIN_FILENO) {
      chosen = ids.filter { confirmRemoval($0, todos: todos) }
      if chosen.isEmpty {
        ConsoleOutput.write(l10n(.todoNotRemoved) + "\n", to: STDERR_FILENO)
        return 1
      }
    }
    let directory = ContactDirectory(store: files.store, favourites: files.favourites, sync: nil)
    let actions = TodoActions(todos: todos, directory: directory, now: Date(), today: today)
    let events: [TodoEvent]
    do { events = try await actions.run(action, ids: chosen) } catch { return fail(error.detail) }
    var status: Int32 = chosen.count < ids.count ? 1 : 0
    for event in events {
      switch event {
      case .completed(let task), .reopened(let task), .removed(let task), .shown(let task, _, _):
        output(.todo(event), tasks: [task])
      case .alreadyDone, .alreadyOpen:
        write(.todo(event))
      default:
        status = 1
        output(.todo(event), tasks: [])
      }
    }
    return status
  }

  /// "Remove task 4 «…»? [y/N]" on the terminal; a task that is not there is not asked about.
  private func confirmRemoval(_ id: Int64, todos: any TodoStore) -> Bool {
    guard let task = try? todos.task(id: id) else { return true }
    ConsoleOutput.write(
      l10n(.todoConfirmRemove, ["number": String(id), "title": renderer.oneLine(task.title)]) + " ",
      to: STDERR_FILENO)
    guard let answer = Swift.readLine() else { return false }
    let word = answer.trimmingWhitespace().lowercased()
    return ["y", "yes", "д", "да", "т", "так"].contains(word)
  }

  func exportICS(to path: String, all: Bool) async -> Int32 {
    guard let todos else { return 1 }
    let tasks: [TodoTask]
    do { tasks = try todos.tasks().filter { all || !$0.isDone } } catch {
      return fail(error.detail)
    }
    let ids = Array(Set(tasks.flatMap(\.contacts)))
    let contacts = (try? files.store.contacts(ids: ids)) ?? []
    let text = TodoCalendar.ics(
      tasks, contacts: Dictionary(contacts.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }),
      language: language, now: Date())
    if path == "-" {
      ConsoleOutput.write(text)
      return 0
    }
    do {
      try AtomicFile.writeUserFile(Data(utf8Of: text), to: path)
    } catch {
      let detail =
        if case .noSuchFolder(let folder) = error {
          l10n(.fileNoSuchFolder, ["folder": TerminalSanitizer.clean(folder)])
        } else { "\(error)" }
      ConsoleOutput.write(
        l10n(.todoExportFailed, ["path": TerminalSanitizer.clean(path), "detail": detail])
          + "\n", to: STDERR_FILENO)
      return 1
    }
    ConsoleOutput.write(
      l10n.plural(.todoExported, count: tasks.count, ["path": TerminalSanitizer.clean(path)])
        + "\n", to: STDERR_FILENO)
    return 0
  }

  /// Text, or with `--json`/`--csv` the tasks the event is about.
  private func output(_ event: ChatEvent, tasks: [TodoTask]) {
    switch format {
    case .text:
      write(event)
    case .json where !tasks.isEmpty:
      for task in tasks {
        ConsoleOutput.write(TodoExport.object(task, today: today).compactText + "\n")
      }
    case .csv where !tasks.isEmpty:
      ConsoleOutput.write(
        (csvBOM ? "\u{FEFF}" : "") + TodoExport.csvHeader + "\r\n"
          + tasks.map { TodoExport.csvRow($0) + "\r\n" }.joined())
    default:
      ConsoleOutput.write(renderer.render(event).stderr, to: STDERR_FILENO)
    }
  }

  private func usage(_ error: InputError) -> Int32 {
    ConsoleOutput.write(renderer.message(for: error) + "\n", to: STDERR_FILENO)
    return 2
  }

  private func fail(_ detail: String) -> Int32 {
    write(.todo(.unavailable(detail: detail)))
    return 1
  }

  private func write(_ event: ChatEvent) {
    let rendered = renderer.render(event)
    ConsoleOutput.write(rendered.stdout)
    ConsoleOutput.write(rendered.stderr, to: STDERR_FILENO)
  }
}
