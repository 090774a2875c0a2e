/// The client's version, shown by `--version` and sent as the User-Agent.
public enum MigrantChatVersion {
  public static let current = "0.1.0"
}
