import Foundation

/// The process's limit of open files, which caps the connections `replay` can
/// hold: each conversation in flight is a socket.
///
/// Many systems start processes with a soft limit of 1,024 and a hard limit far
/// above; load tools ask people to run `ulimit -n` first. `replay` raises the
/// soft limit itself to the hard one, and says so when even that is short.
public enum OpenFileLimit {
  /// Descriptors kept besides the sockets: standard streams, the databases,
  /// the interval log, epoll and its wake-up, readline's terminal.
  public static let reserve = 64

  /// Raises the soft limit to the hard one (it costs nothing: the table of
  /// descriptors grows as they are opened), and returns the soft limit then in
  /// force. Connections can outnumber the conversations at once: each lane of
  /// `CurlEngine` keeps as many idle ones as it once needed, and the resolver
  /// holds a socket pair while it looks a name up.
  @discardableResult
  public static func raise() -> Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Int.max }
    guard limit.rlim_cur < limit.rlim_max else { return Int(clamping: limit.rlim_cur) }
    var raised = limit
    // An unlimited hard limit is taken as the kernel's usual ceiling (fs.nr_open).
    raised.rlim_cur = min(limit.rlim_max, 1 << 20)
    if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 {
      return Int(clamping: raised.rlim_cur)
    }
    return Int(clamping: limit.rlim_cur)
  }

  /// Conversations at once that `limit` descriptors leave room for.
  public static func connections(within limit: Int) -> Int { max(limit - reserve, 1) }
}
