import ArgumentParser
import Foundation
import MigrantChatCore
import MigrantChatIO

/// `migrant-chat todo ...`: the to-do list from the command line.
struct TodoCLI: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "todo",
    abstract: HelpLanguage.l10n(.helpTodoAbstract),
    discussion: HelpLanguage.l10n(.helpTodoDiscussion),
    subcommands: [
      List.self, Add.self, Edit.self, Done.self, Undo.self, Remove.self, Show.self,
      Export.self,
    ],
    defaultSubcommand: List.self
  )

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: HelpLanguage.l10n(.helpTodoList))
    @OptionGroup var options: TodoOptions
    @Flag(help: HelpLanguage.help(.helpTodoAll)) var all = false
    @Flag(help: HelpLanguage.help(.helpTodoDoneFilter)) var done = false

    func run() async throws {
      let context = try options.context()
      throw ExitCode(context.list(all ? .all : done ? .done : .open))
    }
  }

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: HelpLanguage.l10n(.helpTodoAdd))
    @OptionGroup var options: TodoOptions
    @OptionGroup var fields: TodoFields
    @Argument(help: HelpLanguage.help(.helpTodoTitle)) var title: [String]

    func run() async throws {
      let context = try options.context()
      throw ExitCode(context.add(title: title.joined(separator: " "), fields: fields))
    }
  }

  struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit", abstract: HelpLanguage.l10n(.helpTodoEdit))
    @OptionGroup var options: TodoOptions
    @Argument(help: HelpLanguage.help(.helpTodoNumber)) var number: Int64
    @Option(help: HelpLanguage.help(.helpTodoTitle)) var title: String?
    @OptionGroup var fields: TodoFields

    func run() async throws {
      let context = try options.context()
      throw ExitCode(context.edit(number, title: title, fields: fields))
    }
  }

  struct Done: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "done", abstract: HelpLanguage.l10n(.helpTodoDone))
    @OptionGroup var options: TodoOptions
    @Argument(help: HelpLanguage.help(.helpTodoNumbers)) var numbers: [String]

    func run() async throws {
      throw ExitCode(try await options.context().run(.done, numbers: numbers))
    }
  }

  struct Undo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "undo", abstract: HelpLanguage.l10n(.helpTodoUndo))
    @OptionGroup var options: TodoOptions
    @Argument(help: HelpLanguage.help(.helpTodoNumbers)) var numbers: [String]

    func run() async throws {
      throw ExitCode(try await options.context().run(.undo, numbers: numbers))
    }
  }

  struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove", abstract: HelpLanguage.l10n(.helpTodoRemove))
    @OptionGroup var options: TodoOptions
    @Flag(name: [.short, .long], help: HelpLanguage.help(.helpTodoYes)) var yes = false
    @Argument(help: HelpLanguage.help(.helpTodoNumbers)) var numbers: [String]

    func run() async throws {
      throw ExitCode(try await options.context().run(.remove, numbers: numbers, confirmed: yes))
    }
  }

  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: HelpLanguage.l10n(.helpTodoShow))
    @OptionGroup var options: TodoOptions
    @Argument(help: HelpLanguage.help(.helpTodoNumbers)) var numbers: [String]

    func run() async throws {
      throw ExitCode(try await options.context().run(.show, numbers: numbers))
    }
  }

  struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export", abstract: HelpLanguage.l10n(.helpTodoExport))
    @OptionGroup var options: TodoOptions
    @Option(help: HelpLanguage.help(.helpTodoICS), completion: .file()) var ics: String
    @Flag(help: HelpLanguage.help(.helpTodoAll)) var all = false

    func run() async throws {
      throw ExitCode(try await options.context().exportICS(to: ics, all: all))
    }
  }
}

/// `--due`, `--description`, `--place`, `--contact` of `todo add` and `todo edit`.
struct TodoFields: ParsableArguments {
  @Option(help: HelpLanguage.help(.helpTodoDue)) var due: String?
  @Option(help: HelpLanguage.help(.helpTodoDescription)) var description: String?
  @Option(help: HelpLanguage.help(.helpTodoPlace)) var place: String?
  @Option(name: .customLong("contact"), help: HelpLanguage.help(.helpTodoContact))
  var contacts: [String] = []

  var text: TodoFieldsText {
    TodoFieldsText(due: due, description: description, place: place, contacts: contacts)
  }
}

/// Options every `todo` subcommand takes.
struct TodoOptions: ParsableArguments {
  @OptionGroup var language: LanguageOption
  @Flag var format: ContactsFormat?
  @Flag(help: HelpLanguage.help(.helpCSVBOM)) var csvBom = false

  func context() throws -> TodoContext {
    do {
      return try TodoContext(options: self, environment: ProcessEnvironment.current())
    } catch {
      ConsoleOutput.write(error.message + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }
  }
}
