/// How `serve` ended: stopped on request, or failed.
public enum ServeOutcome: Sendable, Hashable {
  case stopped
  /// The server's task ended without a stop being asked for; `detail` is its error, if any.
  case failed(detail: String?)

  /// Waits for the server's task. Once a stop was asked for (a signal), however the task
  /// ends is a stop; before that, an error or a return of its own is a failure.
  public static func of(
    _ serving: Task<Void, any Error>, stopRequested: @Sendable () -> Bool
  ) async -> ServeOutcome {
    let result = await serving.result
    if stopRequested() { return .stopped }
    switch result {
    case .success: return .failed(detail: nil)
    case .failure(let error): return .failed(detail: "\(error)")
    }
  }
}
