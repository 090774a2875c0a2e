import ArgumentParser
import MigrantChatIO

@main
struct MigrantChat: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "migrant-chat",
    abstract: HelpLanguage.l10n(.helpAbstract),
    version: MigrantChatVersion.current,
    subcommands: [ChatCommand.self, ContactsCommand.self, ServeCommand.self, ReplayCommand.self],
    defaultSubcommand: ChatCommand.self
  )
}
