import Foundation
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
public struct ConfigFile: Sendable, Hashable {
  public var server: String?
  public var webhookPath: String?
  public var language: String?
  public var timeout: Double?

  public static let keys = ["server", "webhook_path", "lang", "timeout"]

  public struct Invalid: Error, Hashable, CustomStringConvertible {
    public var description: String
  }

  public init(
    server: String? = nil, webhookPath: String? = nil, language: String? = nil,
    timeout: Double? = nil
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
      throw Invalid(description: "cannot read the file")
    }
    return try parse(String(decoding: data, as: UTF8.self))
  }

  public static func parse(_ text: String) throws(Invalid) -> ConfigFile {
    let node: Node?
    do {
      node = try Yams.compose(yaml: text)
    } catch let error as YamlError {
      throw Invalid(description: "not valid YAML: \(error)")
    } catch {
      throw Invalid(description: "not valid YAML")
    }
    guard let node else { return ConfigFile() }
    guard let mapping = node.mapping else {
      throw Invalid(description: "expected 'key: value' lines")
    }
    var config = ConfigFile()
    for (keyNode, value) in mapping {
      let key = keyNode.string ?? ""
      let line = keyNode.mark.map { " (line \($0.line))" } ?? ""
      func text() throws(Invalid) -> String {
        guard let string = value.scalar?.string else {
          throw Invalid(description: "'\(key)'\(line) must be a single value")
        }
        return string
      }
      switch key {
      case "server": config.server = try text()
      case "webhook_path": config.webhookPath = try text()
      case "lang": config.language = try text()
      case "timeout":
        guard let seconds = Double(try text()), seconds > 0 else {
          throw Invalid(description: "'timeout'\(line) must be a number of seconds greater than 0")
        }
        config.timeout = seconds
      default:
        throw Invalid(
          description:
            "unknown key '\(key)'\(line); known keys: \(keys.joined(separator: ", "))")
      }
    }
    return config
  }
}
