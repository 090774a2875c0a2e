internal import CProcess

/// The command line, the program's name first, even where Swift cannot read it.
///
/// On Linux the Swift runtime finds `CommandLine.arguments` through /proc/self/maps,
/// which a chroot or a minimal container may lack; then the arguments main was given
/// are used (kept by `Sources/CProcess`), so options are never silently dropped.
public enum ProcessArguments {
  public static let all: [String] = {
    let fromSwift = CommandLine.arguments
    return fromSwift.isEmpty ? fromMain : fromSwift
  }()

  /// What main was given, as the C runtime passed it.
  public static var fromMain: [String] {
    (0..<mc_argument_count()).compactMap { mc_argument($0).map { String(cString: $0) } }
  }
}
