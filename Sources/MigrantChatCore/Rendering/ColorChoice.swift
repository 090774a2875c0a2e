/// `--color auto|always|never`, and whether colour is wanted on a stream.
public enum ColorChoice: String, Sendable, CaseIterable {
  case auto, always, never

  /// Auto means: the stream is a terminal, `TERM` is not `dumb`, and
  /// `NO_COLOR` is unset or empty (no-color.org).
  public func enabled(isTerminal: Bool, environment: [String: String]) -> Bool {
    switch self {
    case .always: true
    case .never: false
    case .auto:
      isTerminal && environment["TERM"] != "dumb" && (environment["NO_COLOR"] ?? "").isEmpty
    }
  }
}
