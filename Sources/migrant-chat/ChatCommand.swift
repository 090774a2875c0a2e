import ArgumentParser
import Foundation
import MigrantChatCore
import MigrantChatIO

struct ChatCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "chat",
    abstract: HelpLanguage.l10n(.helpChatAbstract),
    discussion: HelpLanguage.l10n(.helpChatDiscussion)
  )

  @OptionGroup var options: ChatOptions

  func run() async throws {
    try await Self.run(ChatArguments(options))
  }

  /// The chat with options read by either parser (see `ChatArguments`).
  static func run(_ options: ChatArguments) async throws {
    let environment = ProcessEnvironment.current()
    let setup: ChatSetup
    do {
      setup = try ChatSetup(options: options, environment: environment)
    } catch {
      ConsoleOutput.write(error.message + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }
    let console = await setup.makeConsole()
    // The chat runs on the main thread (`MainThreadExecutor`, from `MigrantChat.start`)
    // or, parsed by swift-argument-parser, on Swift's global executor; never on the HTTP
    // I/O thread: its own commands read and write SQLite (the to-do list, reports,
    // favourites), which may wait 30 s for another process's lock, and on the I/O thread
    // that would stall every transfer (the background sync's too). The transport does
    // its part there. Measured: 5-10 % fewer turns per second in a pipe than with the
    // whole chat on the I/O thread (BENCHMARKS.md, #31); a person types far slower.
    let status = await console.run()
    // The chat is over and everything it keeps is written (history and to-dos commit as
    // they go; the sync and the recording are awaited by `run`): the process ends here,
    // with the console still alive, rather than tearing its object graph down first. The
    // teardown closed each SQLite store (a checkpoint, and the -wal and -shm files deleted,
    // which the next start made again) and removed GRDB's observers: 4.8 million
    // instructions of 27.8 with `--server` and the history (#50). The next start empties
    // a log left behind (`SQLiteSettings.emptyTheLog`), as after any other exit.
    withExtendedLifetime((setup, console)) { Foundation.exit(status) }
  }
}

/// The chat's options, declared once: `ChatCommand` parses them, and the
/// completion scripts offer them after `migrant-chat` too (`CompletionRoot`),
/// since the chat is what runs when no subcommand is named.
struct ChatOptions: ParsableArguments {
  @OptionGroup var bot: BotOptions

  @Flag(help: HelpLanguage.help(.helpOffline))
  var offline = false

  @Option(help: HelpLanguage.help(.helpRecord), completion: .file())
  var record: String?

  // Defaults are applied in `ChatArguments` and said in the translated help texts:
  // given to ArgumentParser, they would be said again, in English ("(default: auto)").
  @Option(
    name: .customLong("offline-fallback"), help: HelpLanguage.help(.helpOfflineFallback),
    completion: .list(OfflineFallback.allCases.map(\.rawValue)),
    transform: ArgumentCheck.offlineFallback)
  var offlineFallbackOption: OfflineFallback?

  @OptionGroup var dataAPI: DataAPIOption

  @OptionGroup var language: LanguageOption

  @Option(help: HelpLanguage.help(.helpSender))
  var sender: String?

  @Option(name: .customLong("start-message"), help: HelpLanguage.help(.helpStartMessage))
  var startMessageOption: String?

  @Option(
    name: .customLong("color"), help: HelpLanguage.help(.helpColor),
    completion: .list(ColorChoice.allCases.map(\.rawValue)), transform: ArgumentCheck.color)
  var colorOption: ColorChoice?

  @Flag(help: HelpLanguage.help(.helpJSON))
  var json = false

  @OptionGroup var network: NetworkOptions

  @Flag(help: HelpLanguage.help(.helpNoHistory))
  var noHistory = false

  @Flag(help: HelpLanguage.help(.helpResume))
  var resume = false

  @Flag(help: HelpLanguage.help(.helpInspectOption))
  var inspect = false

  @OptionGroup var accessibility: AccessibleOption

  @Flag(help: HelpLanguage.help(.helpBell))
  var bell = false

  @Flag(help: HelpLanguage.help(.helpNoRewrite))
  var noRewrite = false

  @Option(help: HelpLanguage.help(.helpLabel))
  var label: String?
}
