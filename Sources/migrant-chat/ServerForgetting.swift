import Foundation
import MigrantChatCore
import MigrantChatIO

/// A conversation forgotten here ends on its server too.
///
/// The sender id remembered for that server is dropped, so the next chat there
/// begins a new conversation, and the bot is sent `/restart` under the old id
/// (Rasa's default action for it ends the conversation its tracker holds). A bot
/// that cannot be reached is said, once per server; the forgetting here stands.
struct ServerForgetting {
  let context: HistoryCommand.Context

  func end(_ conversations: [HistoryConversation]) async {
    let l10n = context.l10n
    var seen: Set<String> = []
    var failed: Set<String> = []
    var told: [String: Int] = [:]
    var order: [String] = []
    for conversation in conversations {
      guard seen.insert((conversation.server ?? "") + "\n" + conversation.sender).inserted
      else { continue }
      let shown = conversation.server.map(ServerEndpoint.redacted)
      do {
        try context.base.state.scoped(to: shown ?? ChatSetup.offlineKey)
          .forgetSender(conversation.sender)
      } catch {
        say(.historyFailed, ["detail": TerminalSanitizer.clean("\(error)")])
      }
      guard let server = conversation.server, let shown, !failed.contains(shown) else { continue }
      guard let endpoint = endpoint(for: server) else {
        failed.insert(shown)
        say(
          .historyServerNotTold,
          [
            "server": TerminalSanitizer.clean(shown), "number": String(conversation.id),
            "detail": l10n(.historyPasswordNotKept),
          ])
        continue
      }
      let transport = CurlChatTransport(
        endpoint: endpoint, options: HTTPOptions(timeout: 10, insecure: false),
        token: context.environment["MIGRANT_CHAT_TOKEN"])
      do throws(ChatError) {
        _ = try await transport.send(
          ChatRequest(
            sender: conversation.sender, message: "/restart", language: conversation.language))
        if told[shown] == nil { order.append(shown) }
        told[shown, default: 0] += 1
      } catch {
        failed.insert(shown)
        say(
          .historyServerNotTold,
          [
            "server": TerminalSanitizer.clean(shown), "number": String(conversation.id),
            "detail": TerminalSanitizer.clean(error.message(l10n), keepNewlines: false),
          ])
      }
    }
    for server in order {
      ConsoleOutput.write(
        l10n.plural(
          .historyServerTold, count: told[server] ?? 0, ["server": TerminalSanitizer.clean(server)])
          + "\n")
    }
  }

  /// Where to send `/restart`: the configured server (with its password and webhook
  /// path) when it is this one, else the address as kept; nil when a password was in
  /// it, which is never kept.
  func endpoint(for server: String) -> ServerEndpoint? {
    let environment = context.environment
    if var configured = firstGiven(environment["MIGRANT_CHAT_SERVER"], context.base.config.server) {
      if let assumed = ServerEndpoint.assumingHTTP(configured) { configured = assumed }
      let path =
        firstGiven(environment["MIGRANT_CHAT_WEBHOOK_PATH"], context.base.config.webhookPath)
        ?? ServerEndpoint.defaultWebhookPath
      if let endpoint = try? ServerEndpoint(baseURL: configured, webhookPath: path),
        endpoint.baseURL == ServerEndpoint.redacted(server)
      {
        return endpoint
      }
    }
    guard !server.contains(":***@") else { return nil }
    return try? ServerEndpoint(baseURL: server)
  }

  private func say(_ key: MessageKey, _ values: [String: String]) {
    ConsoleOutput.write(context.l10n(key, values) + "\n", to: STDERR_FILENO)
  }
}
