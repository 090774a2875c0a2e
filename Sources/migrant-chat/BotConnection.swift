import Foundation
import MigrantChatCore
import MigrantChatIO

/// The bot that `replay` and `explore` talk to: the offline assistant, or the
/// server from `--server`, `MIGRANT_CHAT_SERVER` or the config file, with a
/// transport per conversation (each its own connection, so jobs run side by side).
enum BotConnection {
  static func make(
    offline: Bool, bot: BotOptions, network: NetworkOptions, base: BaseSetup,
    files: DirectoryFiles, environment: [String: String], l10n: Localizer,
    noBot: MessageKey = .replayNoBot, channel chosen: BotChannel? = nil
  ) throws(SetupFailure) -> (@Sendable () -> any ChatTransport, (any TrackerSource)?) {
    let setup = try ChannelSetup(
      bot.channelChoice, environment: environment, config: base.config, l10n: l10n)
    let channel: BotChannel
    if let chosen { channel = chosen } else { channel = try setup.single(l10n) }
    if offline {
      let assistant = OfflineAssistant(
        tree: files.guidanceTree(), stemmer: SnowballStemmer.shared)
      return ({ OfflineTransport(assistant: assistant) }, nil)
    }
    guard
      var url = firstGiven(bot.server, environment["MIGRANT_CHAT_SERVER"], base.config.server)
    else {
      throw SetupFailure(message: l10n(noBot))
    }
    if let assumed = ServerEndpoint.assumingHTTP(url) {
      ConsoleOutput.write(
        l10n(
          .assumingHTTP,
          [
            "value": TerminalSanitizer.clean(ServerEndpoint.redacted(url)),
            "url": ServerEndpoint.redacted(assumed),
          ]) + "\n",
        to: STDERR_FILENO)
      url = assumed
    }
    let path =
      firstGiven(bot.webhookPath, environment["MIGRANT_CHAT_WEBHOOK_PATH"], base.config.webhookPath)
      ?? ServerEndpoint.defaultWebhookPath
    let endpoint: ServerEndpoint
    do {
      endpoint = try ServerEndpoint(baseURL: url, webhookPath: path)
    } catch {
      throw SetupFailure(
        message: l10n(
          .invalidServer, ["url": TerminalSanitizer.clean(ServerEndpoint.redacted(url))]))
    }
    let token = environment["MIGRANT_CHAT_TOKEN"]
    let timeout = (network.timeout ?? base.config.timeout ?? .standard).seconds
    let options = HTTPOptions(timeout: timeout, insecure: network.insecure)
    // A transport per transcript: each has its own connection, so jobs run side by side.
    let make: @Sendable () -> any ChatTransport = {
      setup.transport(channel, endpoint: endpoint, options: options, token: token)
    }
    return (make, RasaTrackerAPI(endpoint: endpoint, timeout: timeout, token: token))
  }
}
