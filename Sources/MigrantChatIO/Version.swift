internal import CBuildInfo
internal import CReadline
internal import GRDBSQLite

/// The client's version, shown by `--version` and sent as the User-Agent.
public enum MigrantChatVersion {
  public static let current = "0.1.0"

  /// The git commit of the build (`unknown` for a plain `swift build`; the Makefile's
  /// release builds pass it).
  public static var commit: String { String(cString: mc_build_commit()) }

  /// `--version`: what a bug report needs. The libraries are the ones this process
  /// runs with, not the ones it was built against.
  public static var report: String {
    let curl = LibcurlVersion.runtime ?? "unavailable (libcurl.so.4 could not be loaded)"
    let readline = String(cString: mc_rl_version())
    let sqlite = String(cString: sqlite3_libversion())
    return """
      migrant-chat \(current) (commit \(commit))
      libcurl \(curl), GNU readline \(readline), SQLite \(sqlite)
      """
  }
}
