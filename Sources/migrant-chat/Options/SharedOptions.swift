import ArgumentParser
import MigrantChatCore

// Options more than one command takes, each declared and validated once.

/// `--lang`: chat, contacts, replay, serve.
struct LanguageOption: ParsableArguments {
  @Option(
    help: HelpLanguage.help(.helpLang), completion: .list(Language.allCases.map(\.rawValue)),
    transform: ArgumentCheck.language)
  var lang: Language?
}

/// The bot's address: chat, replay.
struct BotOptions: ParsableArguments {
  @Option(help: HelpLanguage.help(.helpServer))
  var server: String?

  @Option(help: HelpLanguage.help(.helpWebhookPath))
  var webhookPath: String?

  @Option(
    help: HelpLanguage.help(.helpChannel),
    completion: .list(["rest", "socketio", "rest,socketio"]),
    transform: ArgumentCheck.channels)
  var channel: [BotChannel]?

  @Option(help: HelpLanguage.help(.helpSocketPath))
  var socketPath: String?

  @Option(help: HelpLanguage.help(.helpUserEvent))
  var userEvent: String?

  @Option(help: HelpLanguage.help(.helpBotEvent))
  var botEvent: String?

  @Option(help: HelpLanguage.help(.helpMetadataKey))
  var metadataKey: String?

  @Option(help: HelpLanguage.help(.helpSettle), transform: ArgumentCheck.settle)
  var settle: Double?
}

/// How requests to a server are made: chat, contacts, replay.
struct NetworkOptions: ParsableArguments {
  @Option(help: HelpLanguage.help(.helpTimeout), transform: ArgumentCheck.timeout)
  var timeout: Timeout?

  @Flag(help: HelpLanguage.help(.helpInsecure))
  var insecure = false
}

/// The data API for the contact directory and the guidance: chat, contacts.
struct DataAPIOption: ParsableArguments {
  @Option(help: HelpLanguage.help(.helpDataAPI))
  var dataApi: String?
}
