import ArgumentParser
import Foundation
import MigrantChatCore
import MigrantChatIO

struct ContactsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "contacts",
    abstract: HelpLanguage.l10n(.helpContactsAbstract),
    discussion: HelpLanguage.l10n(.helpContactsDiscussion),
    subcommands: [List.self, Search.self, Show.self, Sync.self],
    defaultSubcommand: List.self
  )

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: HelpLanguage.l10n(.helpContactsList))

    @OptionGroup var options: ContactsOptions

    @Option(help: HelpLanguage.help(.helpLimit), transform: ArgumentCheck.count(in: 0...1_000_000))
    var limit = 50

    func run() async throws {
      let context = try options.context()
      throw ExitCode(await context.printSearch(nil, limit: limit))
    }
  }

  struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "search",
      abstract: HelpLanguage.l10n(.helpContactsSearch))

    @OptionGroup var options: ContactsOptions

    @Option(help: HelpLanguage.help(.helpLimit), transform: ArgumentCheck.count(in: 0...1_000_000))
    var limit = 50

    @Argument(help: HelpLanguage.help(.helpQuery))
    var query: [String]

    func run() async throws {
      let context = try options.context()
      throw ExitCode(await context.printSearch(query.joined(separator: " "), limit: limit))
    }
  }

  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
      abstract: HelpLanguage.l10n(.helpContactsShow))

    @OptionGroup var options: ContactsOptions

    @Argument(help: HelpLanguage.help(.helpContactID))
    var id: String

    func run() async throws {
      let context = try options.context()
      throw ExitCode(await context.printContact(id))
    }
  }

  struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "sync",
      abstract: HelpLanguage.l10n(.helpContactsSync))

    @OptionGroup var options: ContactsOptions

    func run() async throws {
      let context = try options.context()
      throw ExitCode(await context.sync())
    }
  }
}

/// Options every `contacts` subcommand takes.
struct ContactsOptions: ParsableArguments {
  @OptionGroup var dataAPI: DataAPIOption

  @OptionGroup var language: LanguageOption

  @Flag var format: ContactsFormat?

  @Flag(help: HelpLanguage.help(.helpCSVBOM))
  var csvBom = false

  @OptionGroup var network: NetworkOptions

  /// Opens the directory, or prints why not and exits with 2.
  func context() throws -> ContactsContext {
    do {
      return try ContactsContext(options: self, environment: ProcessInfo.processInfo.environment)
    } catch {
      ConsoleOutput.write(error.message + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }
  }
}
