import Foundation
import MigrantChatCore
import MigrantChatIO

/// The channel options as typed, whichever parser read them.
struct ChannelChoice: Equatable {
  var channels: [BotChannel]?
  var socketPath: String?
  var userEvent: String?
  var botEvent: String?
  var metadataKey: String?
  var settle: Double?
}

extension BotOptions {
  var channelChoice: ChannelChoice {
    ChannelChoice(
      channels: channel, socketPath: socketPath, userEvent: userEvent, botEvent: botEvent,
      metadataKey: metadataKey, settle: settle)
  }
}

/// How the bot is reached: `--channel`, else `MIGRANT_CHAT_CHANNEL`, else `channel:` in
/// config.yaml, else the REST channel; the socket.io settings from their options, else
/// config.yaml (`socket_path`, `user_event`, `bot_event`, `metadata_key`, `settle`).
struct ChannelSetup {
  let channels: [BotChannel]
  let settings: SocketIOSettings

  init(
    _ choice: ChannelChoice, environment: [String: String], config: ConfigFile, l10n: Localizer
  ) throws(SetupFailure) {
    var channels = choice.channels
    if channels == nil, let typed = environment["MIGRANT_CHAT_CHANNEL"], !typed.isEmpty {
      guard let parsed = BotChannel.list(typed) else {
        throw SetupFailure(
          message: "MIGRANT_CHAT_CHANNEL: "
            + l10n(.usageOneOf, ["values": "rest, socketio"]))
      }
      channels = parsed
    }
    self.channels = channels ?? config.channel.map { [$0] } ?? [.rest]
    var settings = SocketIOSettings(
      path: firstGiven(choice.socketPath, config.socketPath) ?? "/socket.io")
    if let event = firstGiven(choice.userEvent, config.userEvent) { settings.userEvent = event }
    if let event = firstGiven(choice.botEvent, config.botEvent) { settings.botEvent = event }
    if let key = firstGiven(choice.metadataKey, config.metadataKey) { settings.metadataKey = key }
    if let settle = choice.settle ?? config.settle { settings.settleSeconds = settle }
    self.settings = settings
  }

  /// The one channel of a command that talks over one (all but replay).
  func single(_ l10n: Localizer) throws(SetupFailure) -> BotChannel {
    guard channels.count == 1, let channel = channels.first else {
      throw SetupFailure(message: l10n(.channelOneOnly))
    }
    return channel
  }

  func transport(
    _ channel: BotChannel, endpoint: ServerEndpoint, options: HTTPOptions, token: String?
  ) -> any ChatTransport {
    switch channel {
    case .rest: CurlChatTransport(endpoint: endpoint, options: options, token: token)
    case .socketio:
      SocketIOChatTransport(
        endpoint: endpoint, settings: settings, options: options, token: token)
    }
  }
}
