import ArgumentParser
import MigrantChatIO

@main
struct MigrantChat: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "migrant-chat",
    abstract: "A terminal client for migrant-assistance chatbots (Rasa REST).",
    version: MigrantChatVersion.current,
    subcommands: [ChatCommand.self],
    defaultSubcommand: ChatCommand.self
  )
}
