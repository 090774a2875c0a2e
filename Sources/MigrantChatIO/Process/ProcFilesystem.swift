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
  public static var isMounted: Bool {
    access("/proc/\(mc_thread_id())/stat", R_OK) == 0
  }
}
