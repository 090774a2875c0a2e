import Foundation

/// Where migrant-chat keeps its files, per the XDG base directory spec.
///
/// State (sender ids, history, settings) under `$XDG_STATE_HOME/migrant-chat`,
/// configuration under `$XDG_CONFIG_HOME/migrant-chat`, caches under
/// `$XDG_CACHE_HOME/migrant-chat`; relative XDG values are ignored, as the
/// spec says.
public struct AppPaths: Sendable, Hashable {
  public var stateDirectory: String
  public var configDirectory: String
  public var cacheDirectory: String

  public init(environment: [String: String]) {
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    func base(_ variable: String, _ fallback: String) -> String {
      if let value = environment[variable], value.hasPrefix("/") { return value }
      return home + "/" + fallback
    }
    stateDirectory = base("XDG_STATE_HOME", ".local/state") + "/migrant-chat"
    configDirectory = base("XDG_CONFIG_HOME", ".config") + "/migrant-chat"
    cacheDirectory = base("XDG_CACHE_HOME", ".cache") + "/migrant-chat"
  }

  public var configFile: String { configDirectory + "/config.yaml" }
  public var stateFile: String { stateDirectory + "/state.json" }
  public var historyFile: String { stateDirectory + "/history" }
  /// Every conversation as it was shown (`HistoryStore`).
  public var conversationsFile: String { stateDirectory + "/conversations.sqlite" }
}
