import Foundation

/// The process's limit of open files, which caps the connections `replay` can
/// hold: each conversation in flight is a socket.
///
/// Many systems start processes with a soft limit of 1,024 and a hard limit far
/// above; load tools ask people to run `ulimit -n` first. `replay` raises the
/// soft limit itself, up to the hard one, and says so when even that is short.
public enum OpenFileLimit {
  /// Descriptors kept besides the sockets: standard streams, the databases,
  /// the interval log, epoll and its wake-up, readline's terminal.
  public static let reserve = 64

  /// Raises the soft limit to at least `needed` when the hard limit allows;
  /// returns the soft limit in force afterwards.
  @discardableResult
  public static func raise(toAtLeast needed: Int) -> Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return needed }
    let wanted = rlim_t(max(needed, 0))
    if limit.rlim_cur >= wanted { return Int(clamping: limit.rlim_cur) }
    var raised = limit
    raised.rlim_cur = min(wanted, limit.rlim_max)
    if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 {
      return Int(clamping: raised.rlim_cur)
    }
    return Int(clamping: limit.rlim_cur)
  }

  /// Conversations at once that `limit` descriptors leave room for.
  public static func connections(within limit: Int) -> Int { max(limit - reserve, 1) }
}
