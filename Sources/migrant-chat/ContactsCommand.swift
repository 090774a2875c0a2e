import ArgumentParser
import Foundation
import MigrantChatCore
import MigrantChatIO

struct ContactsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "contacts",
    abstract: HelpLanguage.l10n(.helpContactsAbstract),
    discussion: HelpLanguage.l10n(.helpContactsDiscussion),
    subcommands: [List.self, Search.self, Show.self, Near.self, Map.self, Sync.self],
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

  struct Near: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "near",
      abstract: HelpLanguage.l10n(.helpContactsNear),
      discussion: placesDiscussion)

    @OptionGroup var options: ContactsOptions

    @Option(help: HelpLanguage.help(.helpWithin), transform: ArgumentCheck.kilometres)
    var within: Double?

    @Option(
      help: HelpLanguage.help(.helpNearLimit), transform: ArgumentCheck.count(in: 0...1_000_000))
    var limit = 10

    @Flag(help: HelpLanguage.help(.helpAcceptGuess))
    var acceptGuess = false

    @Argument(help: HelpLanguage.help(.helpPlaceArgument))
    var place: [String] = []

    func run() async throws {
      let context = try options.context()
      throw ExitCode(
        await context.printNear(
          place.isEmpty ? nil : place.joined(separator: " "), within: within, limit: limit,
          acceptGuess: acceptGuess))
    }
  }

  struct Map: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "map",
      abstract: HelpLanguage.l10n(.helpContactsMap),
      discussion: placesDiscussion)

    @OptionGroup var options: ContactsOptions

    @Option(help: HelpLanguage.help(.helpMapWithin), transform: ArgumentCheck.kilometres)
    var within: Double?

    @Flag(help: HelpLanguage.help(.helpAcceptGuess))
    var acceptGuess = false

    @Argument(help: HelpLanguage.help(.helpMapPlaceArgument))
    var place: [String] = []

    func run() async throws {
      let context = try options.context()
      throw ExitCode(
        await context.printMap(
          place.isEmpty ? nil : place.joined(separator: " "), within: within,
          acceptGuess: acceptGuess))
    }
  }

  /// `near`'s and `map`'s help: what places are known, the exit statuses, the credits.
  static var placesDiscussion: String {
    let l10n = HelpLanguage.l10n
    return [
      l10n(.helpPlacesCoverage, ["count": l10n.number(Double(PlaceTable.czechCount))]),
      l10n(.helpPlacesExit), l10n(.helpPlacesCredit),
    ].joined(separator: "\n\n")
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

  @OptionGroup var accessibility: AccessibleOption

  /// Opens the directory, or prints why not and exits with 2.
  func context() throws -> ContactsContext {
    do {
      return try ContactsContext(options: self, environment: ProcessEnvironment.current())
    } catch {
      ConsoleOutput.write(error.message + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }
  }
}
