import ArgumentParser
import Foundation
import MigrantChatCore
import MigrantChatIO

/// `replay from-tracker SENDER --server URL --out FILE`: a conversation kept in the bot's
/// tracker store (Rasa's HTTP API, `--enable-api`) written as a transcript that replays
/// against the same bot (#46): a conversation that went wrong in production becomes a
/// test without retyping it.
struct ReplayFromTrackerCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "from-tracker",
    // Parsed as a root by `MigrantChat.main`, like `replay merge`.
    _superCommandName: "migrant-chat replay",
    abstract: HelpLanguage.l10n(.helpFromTrackerAbstract)
  )

  @Argument(help: HelpLanguage.help(.helpFromTrackerSender))
  var sender: String

  @Option(help: HelpLanguage.help(.helpServer))
  var server: String

  @Option(help: HelpLanguage.help(.helpFromTrackerOut), completion: .file())
  var out: String

  @Flag(name: .customLong("as-e2e"), help: HelpLanguage.help(.helpAsE2E))
  var asE2E = false

  @OptionGroup var language: LanguageOption

  func run() async throws {
    let environment = ProcessEnvironment.current()
    let base: BaseSetup
    let endpoint: ServerEndpoint
    do {
      base = try BaseSetup(lang: language.lang, environment: environment)
      do {
        endpoint = try ServerEndpoint(baseURL: server)
      } catch {
        throw SetupFailure(
          message: Localizer(base.language)(
            .invalidServer,
            ["url": TerminalSanitizer.clean(ServerEndpoint.redacted(server))]))
      }
    } catch let failure as SetupFailure {
      ConsoleOutput.write(failure.message + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }
    let l10n = Localizer(base.language)
    let timeout = (base.config.timeout ?? .standard).seconds
    let tracker = RasaTrackerAPI(
      endpoint: endpoint, timeout: timeout, token: environment["MIGRANT_CHAT_TOKEN"])
    let arguments = [
      "sender": TerminalSanitizer.clean(sender),
      "server": TerminalSanitizer.clean(ServerEndpoint.redacted(server)),
    ]
    guard let events = await tracker.events(sender: sender) else {
      ConsoleOutput.write(l10n(.fromTrackerUnreadable, arguments) + "\n", to: STDERR_FILENO)
      throw ExitCode(1)
    }
    let (spoken, turns) = TrackerTranscript.turns(events)
    guard !turns.isEmpty else {
      ConsoleOutput.write(l10n(.fromTrackerEmpty, arguments) + "\n", to: STDERR_FILENO)
      throw ExitCode(1)
    }
    try TranscriptWriter.save(
      name: l10n(.fromTrackerName, arguments), language: spoken ?? base.language, turns: turns,
      to: out, asE2E: asE2E, l10n: l10n)
  }
}
