import Foundation
import Synchronization

/// A token bucket per client: `burst` at once, then one every `every` seconds.
///
/// Clients are kept by address; past 10,000 the fullest buckets (clients that
/// have not sent for a while) are forgotten first, so no address list grows
/// without bound.
final class RateLimit: Sendable {
  private let burst: Double
  private let every: Double
  private let now: @Sendable () -> Date
  private let buckets = Mutex<[String: Bucket]>([:])
  static let maxClients = 10_000

  private struct Bucket {
    var tokens: Double
    var at: Date
  }

  init(burst: Int, every: Double, now: @escaping @Sendable () -> Date) {
    self.burst = Double(max(1, burst))
    self.every = max(0.001, every)
    self.now = now
  }

  /// nil when `client` may go on (a token is taken); else the seconds to wait.
  func wait(client: String) -> Int? {
    let time = now()
    return buckets.withLock { buckets in
      var bucket = buckets[client] ?? Bucket(tokens: burst, at: time)
      let earned = max(0, time.timeIntervalSince(bucket.at)) / every
      bucket.tokens = min(burst, bucket.tokens + earned)
      bucket.at = time
      if bucket.tokens >= 1 {
        bucket.tokens -= 1
        buckets[client] = bucket
        if buckets.count > Self.maxClients { Self.forget(&buckets) }
        return nil
      }
      buckets[client] = bucket
      return Int(((1 - bucket.tokens) * every).rounded(.up))
    }
  }

  /// Drops the oldest tenth of the clients.
  private static func forget(_ buckets: inout [String: Bucket]) {
    let oldest = buckets.sorted { $0.value.at < $1.value.at }.prefix(buckets.count / 10)
    for (client, _) in oldest { buckets[client] = nil }
  }
}
