internal import CProcess
import Foundation

/// Whether /proc is there, which the Swift runtime on Linux needs.
///
/// libdispatch watches its worker threads through /proc/THREAD/stat and stops the
/// program (an illegal instruction, at random moments) when it cannot open it; a
/// chroot or a minimal container may have no /proc. Checked at start, so the user
/// reads what to do instead.
public enum ProcFilesystem {
  /// The file libdispatch opens for this thread, found as it finds it (its thread id):
  /// a /proc of another PID namespace may have /proc/self and still not this one.
  public static var isMounted: Bool { isMounted(at: "/proc") }

  /// The same check against a /proc at `root` (a test's own tree).
  public static func isMounted(at root: String) -> Bool {
    access("\(root)/\(threadID)/stat", R_OK) == 0
  }

  /// This thread's id, as the kernel (and libdispatch) numbers it.
  public static var threadID: Int { Int(mc_thread_id()) }
}
