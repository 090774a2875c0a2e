/// When to try a data API request again: exponential backoff with jitter.
///
/// Only transient failures are retried (no connection, 5xx, 429). A
/// `Retry-After` the server sends is honoured as it is, up to
/// `maxRetryAfter`; a server that asks for a longer pause is left alone
/// until the next sync.
public struct RetryPolicy: Sendable, Hashable {
  /// Tries in all, the first included.
  public var attempts: Int
  public var baseDelay: Double
  public var maxDelay: Double
  public var maxRetryAfter: Double

  public init(
    attempts: Int = 4, baseDelay: Double = 0.5, maxDelay: Double = 8, maxRetryAfter: Double = 30
  ) {
    self.attempts = attempts
    self.baseDelay = baseDelay
    self.maxDelay = maxDelay
    self.maxRetryAfter = maxRetryAfter
  }

  /// No retries, for tests that count requests.
  public static let once = RetryPolicy(attempts: 1)

  /// Seconds to wait before try `attempt + 1`, or nil to give up.
  ///
  /// `jitter` is a random number in 0..<1: the pause is between half and all
  /// of the exponential step, so clients that failed together do not retry together.
  public func delay(after attempt: Int, error: DataAPIError, jitter: Double) -> Double? {
    guard attempt < attempts, error.isTransient else { return nil }
    if let retryAfter = error.retryAfter {
      return retryAfter <= maxRetryAfter ? retryAfter : nil
    }
    var step = baseDelay
    for _ in 1..<max(attempt, 1) { step = min(step * 2, maxDelay) }
    return step * (0.5 + jitter / 2)
  }
}
