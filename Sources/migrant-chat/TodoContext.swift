import Foundation
import MigrantChatCore
import MigrantChatIO

/// What the `todo` subcommands share: the state database, the directory, the output.
///
/// `done`, `undo`, `remove` and `show` go through the chat's own `/todo`
/// commands, so both print the same words and check the same things.
struct TodoContext {
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
    today = DayDate(Date())
    let color = ColorChoice.auto.enabled(
      isTerminal: TerminalInfo.isTerminal(STDOUT_FILENO), environment: environment)
    renderer = Renderer(
      width: TerminalInfo.width(environment: environment), color: color, language: language,
      canSync: false)
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
    let title = title.trimmingWhitespace()
    guard !title.isEmpty else { return usage(.needsTaskTitle) }
    guard let draft = read(fields, title: title) else { return 2 }
    guard let todos else { return 1 }
    do {
      let added = try todos.add([draft], now: Date())
      output(.todo(.added(added, skipped: 0)), tasks: added)
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
    guard let draft = read(fields, title: "-") else { return 2 }
    if fields.description != nil { change.details = draft.details }
    if fields.place != nil { change.place = draft.place }
    if fields.due != nil { change.due = .some(draft.due) }
    if !fields.contacts.isEmpty { change.contacts = draft.contacts }
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
      let text = l10n(
        .todoUpdated, ["number": String(task.id), "title": renderer.oneLine(task.title)])
      if format == .text {
        ConsoleOutput.write(text + "\n")
      } else {
        ConsoleOutput.write(TodoExport.object(task, today: today).compactText + "\n")
      }
      return 0
    } catch {
      write(.todo(.unavailable(detail: error.detail)))
      return 1
    }
  }

  /// The fields as a draft; nil (after saying why) when a date or an id cannot be read.
  private func read(_ fields: TodoFields, title: String) -> TodoDraft? {
    var draft = TodoDraft(title: title)
    if title.count > TodoTask.maxTitle {
      _ = usage(.tooLong(limit: TodoTask.maxTitle))
      return nil
    }
    if let due = fields.due {
      let trimmed = due.trimmingWhitespace().lowercased()
      if !["none", "-", "нет", "немає", ""].contains(trimmed) {
        guard let date = DueDateText.parse(due, today: today) else {
          _ = usage(.badDate(due))
          return nil
        }
        draft.due = date
      }
    }
    for text in [fields.description, fields.place].compactMap({ $0 })
    where text.count > TodoTask.maxText {
      _ = usage(.tooLong(limit: TodoTask.maxText))
      return nil
    }
    draft.details = fields.description ?? ""
    draft.place = fields.place?.trimmingWhitespace() ?? ""
    for typed in fields.contacts {
      guard let id = Contact.id(typed: typed) else {
        _ = usage(.badContactID(typed, example: nil))
        return nil
      }
      draft.contacts.append(id)
    }
    return draft
  }

  /// Runs a chat `/todo` command and prints its events; 1 when it did not do what was asked.
  func chat(_ line: String) async -> Int32 {
    let directory = ContactDirectory(store: files.store, favourites: files.favourites, sync: nil)
    let session = ChatSession(
      transport: NoBot(), store: TransientSessionStore(), language: language, senderID: "todo",
      startMessage: "", directory: directory,
      tools: ChatTools(
        todos: files.todos, reports: ReportDesk(queue: nil, api: nil),
        guidance: { [files] in files.guidanceTree() }, today: { [today] in today }))
    let events = await session.handle(line)
    var status: Int32 = 0
    for event in events {
      var tasks: [TodoTask] = []
      switch event {
      case .todo(.completed(let task)), .todo(.reopened(let task)), .todo(.removed(let task)),
        .todo(.shown(let task, _, _)):
        tasks = [task]
      default: status = 1
      }
      output(event, tasks: tasks)
    }
    return status
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
      try AtomicFile.write(Data(text.utf8), to: path)
    } catch {
      ConsoleOutput.write(
        l10n(.todoExportFailed, ["path": TerminalSanitizer.clean(path), "detail": "\(error)"])
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

/// The bot of a session that only runs client commands: it is never asked.
struct NoBot: ChatTransport {
  func send(_ request: ChatRequest) async throws(ChatError) -> BotReply { BotReply(messages: []) }
}
