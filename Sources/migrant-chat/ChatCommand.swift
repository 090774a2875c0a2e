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

  @OptionGroup var bot: BotOptions

  @Flag(help: HelpLanguage.help(.helpOffline))
  var offline = false

  @Option(help: HelpLanguage.help(.helpRecord))
  var record: String?

  @Option(help: HelpLanguage.help(.helpOfflineFallback))
  var offlineFallback = OfflineFallback.auto

  @OptionGroup var dataAPI: DataAPIOption

  @OptionGroup var language: LanguageOption

  @Option(help: HelpLanguage.help(.helpSender))
  var sender: String?

  @Option(help: HelpLanguage.help(.helpStartMessage))
  var startMessage: String = "/start"

  @Option(help: HelpLanguage.help(.helpColor))
  var color = ColorChoice.auto

  @Flag(help: HelpLanguage.help(.helpJSON))
  var json = false

  @OptionGroup var network: NetworkOptions

  @Flag(help: HelpLanguage.help(.helpNoHistory))
  var noHistory = false

  func run() async throws {
    let environment = ProcessInfo.processInfo.environment
    let setup: ChatSetup
    do {
      setup = try ChatSetup(options: self, environment: environment)
    } catch {
      ConsoleOutput.write(error.message + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }
    let status = await setup.makeConsole().run()
    if status != 0 { throw ExitCode(status) }
  }
}
