import ArgumentParser
import Foundation
import MigrantChatCore
import MigrantChatIO

struct ChatCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "chat",
    abstract: "Chat with a bot (the default command).",
    discussion: """
      The server comes from --server, else MIGRANT_CHAT_SERVER, else 'server:' in
      $XDG_CONFIG_HOME/migrant-chat/config.yaml. MIGRANT_CHAT_TOKEN, when set, is sent
      as 'Authorization: Bearer'.
      """
  )

  @Option(help: "The chatbot's base URL, e.g. http://localhost:5005.")
  var server: String?

  @Option(help: "The REST channel's path (default /webhooks/rest/webhook).")
  var webhookPath: String?

  @Option(help: "Language: en, ru or uk.")
  var lang: String?

  @Option(help: "Conversation id to use instead of the remembered one.")
  var sender: String?

  @Option(help: "Sent when the chat opens; empty sends nothing.")
  var startMessage: String = "/start"

  @Option(help: "Colour: auto, always or never.")
  var color: String = "auto"

  @Flag(help: "Print one JSON object per line for every event.")
  var json = false

  @Option(help: "Seconds to wait for the bot (default 30).")
  var timeout: String?

  @Flag(help: "Do not read or write the input history.")
  var noHistory = false

  @Flag(help: "Do not verify TLS certificates (testing only).")
  var insecure = false

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
