import Foundation
import MigrantChatCore
import Yams

/// Settings from `$XDG_CONFIG_HOME/migrant-chat/config.yaml`.
///
/// Every key is optional; command-line flags and environment variables win
/// over the file. Unknown keys are errors, so a typo never goes unnoticed:
///
///     server: https://bot.example.org
///     webhook_path: /webhooks/myrest/webhook
///     lang: uk
///     timeout: 20
///     data_api: https://data.example.org/api
///     channel: socketio
///     socket_path: /socket.io
public struct ConfigFile: Sendable, Hashable {
  public var server: String?
  public var dataAPI: String?
  public var webhookPath: String?
  public var language: String?
  public var timeout: Timeout?
  public var channel: BotChannel?
  public var socketPath: String?
  /// socket.io's event names, metadata key and settle time, as the options name them.
  public var userEvent: String?
  public var botEvent: String?
  public var metadataKey: String?
  public var settle: Double?
  /// `history: {keep_days: N}`: conversations older than N days are forgotten at a chat's start.
  public var historyKeepDays: Int?
  /// `accessible: true`: the accessible mode (`Accessibility`); `bell: true`: `--bell`.
  public var accessible: Bool?
  public var bell: Bool?
  /// `rewrite: false`: lines typed for the bot are sent as typed (`--no-rewrite`).
  public var rewrite: Bool?

  public static let keys = [
    "server", "webhook_path", "lang", "timeout", "data_api", "channel", "socket_path", "user_event",
    "bot_event", "metadata_key", "settle", "history", "accessible", "bell", "rewrite",
  ]

  /// What is wrong with the file, with the line it is on when known.
  public enum Invalid: Error, Hashable, CustomStringConvertible {
    case cannotRead
    case notYAML(detail: String)
    case notMapping
    case notSingleValue(key: String, line: Int?)
    case badTimeout(line: Int?)
    case badLanguage(value: String, line: Int?)
    case badChannel(value: String, line: Int?)
    case badSettle(line: Int?)
    case badHistory(line: Int?)
    case badBoolean(key: String, line: Int?)
    case unknownKey(key: String, line: Int?)

    public func message(_ l10n: Localizer) -> String {
      func at(_ line: Int?) -> String {
        line.map { l10n(.configLine, ["number": String($0)]) } ?? ""
      }
      return switch self {
      case .cannotRead: l10n(.configCannotRead)
      case .notYAML(let detail): l10n(.configNotYAML, ["detail": detail])
      case .notMapping: l10n(.configNotMapping)
      case .notSingleValue(let key, let line):
        l10n(.configNotSingleValue, ["key": key, "line": at(line)])
      case .badTimeout(let line):
        l10n(
          .configBadTimeout,
          [
            "line": at(line), "min": Timeout.allowedText(l10n).min,
            "max": Timeout.allowedText(l10n).max,
          ])
      case .badLanguage(let value, let line):
        l10n(
          .configBadLanguage,
          ["line": at(line), "value": TerminalSanitizer.clean(value, keepNewlines: false)])
      case .badChannel(let value, let line):
        l10n(
          .configBadChannel,
          ["line": at(line), "value": TerminalSanitizer.clean(value, keepNewlines: false)])
      case .badSettle(let line):
        l10n(.configBadSettle, ["line": at(line)])
      case .badHistory(let line):
        l10n(.configBadHistory, ["line": at(line)])
      case .badBoolean(let key, let line):
        l10n(.configBadBoolean, ["key": key, "line": at(line)])
      case .unknownKey(let key, let line):
        l10n(
          .configUnknownKey,
          ["key": key, "line": at(line), "keys": ConfigFile.keys.joined(separator: ", ")])
      }
    }

    public var description: String { message(Localizer(.en)) }
  }

  public init(
    server: String? = nil, webhookPath: String? = nil, language: String? = nil,
    timeout: Timeout? = nil
  ) {
    self.server = server
    self.webhookPath = webhookPath
    self.language = language
    self.timeout = timeout
  }

  /// The file at `path`; an empty configuration when there is no file.
  public static func load(path: String) throws(Invalid) -> ConfigFile {
    guard FileManager.default.fileExists(atPath: path) else { return ConfigFile() }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .cannotRead
    }
    return try parse(String(decoding: data, as: UTF8.self))
  }

  public static func parse(_ text: String) throws(Invalid) -> ConfigFile {
    let node: Node?
    do {
      node = try Yams.compose(yaml: text)
    } catch let error as YamlError {
      throw .notYAML(detail: "\(error)")
    } catch {
      throw .notYAML(detail: "")
    }
    guard let node else { return ConfigFile() }
    guard let mapping = node.mapping else {
      throw .notMapping
    }
    var config = ConfigFile()
    for (keyNode, value) in mapping {
      let key = keyNode.string ?? ""
      let line = keyNode.mark?.line
      func text() throws(Invalid) -> String {
        guard let string = value.scalar?.string else {
          throw .notSingleValue(key: key, line: line)
        }
        return string
      }
      switch key {
      case "server": config.server = try text()
      case "webhook_path": config.webhookPath = try text()
      case "data_api": config.dataAPI = try text()
      case "socket_path": config.socketPath = try text()
      case "user_event": config.userEvent = try text()
      case "bot_event": config.botEvent = try text()
      case "metadata_key": config.metadataKey = try text()
      case "settle":
        guard let seconds = Double(try text()), seconds.isFinite, (0.05...60).contains(seconds)
        else { throw .badSettle(line: line) }
        config.settle = seconds
      case "channel":
        let value = try text()
        guard let channel = BotChannel(typed: value) else {
          throw .badChannel(value: value, line: line)
        }
        config.channel = channel
      case "lang":
        let code = try text()
        guard Language(code: code) != nil else { throw .badLanguage(value: code, line: line) }
        config.language = code
      case "history":
        guard let fields = value.mapping, !fields.isEmpty else { throw .badHistory(line: line) }
        for (name, days) in fields {
          guard name.string == "keep_days", let number = days.scalar.flatMap({ Int($0.string) }),
            (1...36_500).contains(number)
          else { throw .badHistory(line: name.mark?.line ?? line) }
          config.historyKeepDays = number
        }
      case "accessible", "bell", "rewrite":
        // YAML 1.2's booleans, as Yams reads them; "yes" is a string there, and refused.
        let flag: Bool
        switch try text().lowercased() {
        case "true": flag = true
        case "false": flag = false
        default: throw .badBoolean(key: key, line: line)
        }
        switch key {
        case "accessible": config.accessible = flag
        case "bell": config.bell = flag
        default: config.rewrite = flag
        }
      case "timeout":
        guard let timeout = Timeout(parsing: try text()) else {
          throw .badTimeout(line: line)
        }
        config.timeout = timeout
      default:
        throw .unknownKey(key: key, line: line)
      }
    }
    return config
  }
}
