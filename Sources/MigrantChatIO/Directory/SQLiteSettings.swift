import GRDB

/// The connection settings shared by migrant-chat's databases.
enum SQLiteSettings {
  /// A long busy timeout: a sync in another process holds the write lock for
  /// at most a few seconds, and waiting is better than "database is locked".
  static func configuration() -> Configuration {
    var configuration = Configuration()
    configuration.busyMode = .timeout(30)
    configuration.label = "migrant-chat"
    return configuration
  }
}
