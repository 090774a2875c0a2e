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

  /// ArgumentParser's entry point, after making a closed stdout (`| head`) non-fatal.
  static func main() async {
    TerminationWatcher.ignoreBrokenPipes()
    do {
      var command = try parseAsRoot()
      if var asyncCommand = command as? AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      exit(withError: error)
    }
  }
}
