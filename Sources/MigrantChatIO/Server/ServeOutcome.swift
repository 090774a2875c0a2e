import Synchronization

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

  /// The result of whichever of `first` and `second` ends first; the other goes on.
  public static func firstOf(
    _ first: @escaping @Sendable () async throws -> Void,
    _ second: @escaping @Sendable () async throws -> Void
  ) async -> Result<Void, any Error> {
    await withCheckedContinuation { continuation in
      let resumed = Mutex(false)
      let finish: @Sendable (Result<Void, any Error>) -> Void = { result in
        let isFirst = resumed.withLock { done in
          defer { done = true }
          return !done
        }
        if isFirst { continuation.resume(returning: result) }
      }
      for work in [first, second] {
        Task {
          do {
            try await work()
            finish(.success(()))
          } catch {
            finish(.failure(error))
          }
        }
      }
    }
  }
}
