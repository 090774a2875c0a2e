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

  @Option(help: HelpLanguage.help(.helpServer))
  var server: String?

  @Option(help: HelpLanguage.help(.helpWebhookPath))
  var webhookPath: String?

  @Flag(help: HelpLanguage.help(.helpOffline))
  var offline = false

  @Option(help: HelpLanguage.help(.helpRecord))
  var record: String?

  @Option(help: HelpLanguage.help(.helpOfflineFallback))
  var offlineFallback = "auto"

  @Option(help: HelpLanguage.help(.helpDataAPI))
  var dataApi: String?

  @Option(help: HelpLanguage.help(.helpLang))
  var lang: String?

  @Option(help: HelpLanguage.help(.helpSender))
  var sender: String?

  @Option(help: HelpLanguage.help(.helpStartMessage))
  var startMessage: String = "/start"

  @Option(help: HelpLanguage.help(.helpColor))
  var color: String = "auto"

  @Flag(help: HelpLanguage.help(.helpJSON))
  var json = false

  @Option(help: HelpLanguage.help(.helpTimeout))
  var timeout: String?

  @Flag(help: HelpLanguage.help(.helpNoHistory))
  var noHistory = false

  @Flag(help: HelpLanguage.help(.helpInsecure))
  var insecure = false

  func run() async throws {
    TerminationWatcher.install()
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
