import Foundation
import MigrantChatIO
import TestSupport
import Testing

/// The arguments main was given, kept for where /proc/self/cmdline is missing
/// (a chroot, a minimal container): the package tier runs the binary without /proc.
@Suite struct ProcessArgumentsTests {
  @Test func theArgumentsKeptFromMainAreSwiftsOwn() {
    #expect(!ProcessArguments.fromMain.isEmpty)
    #expect(ProcessArguments.fromMain == CommandLine.arguments)
    #expect(ProcessArguments.all == CommandLine.arguments)
  }

  /// The check looks where libdispatch looks, /proc/THREAD/stat: a tree with only
  /// /proc/self (another PID namespace's /proc) or nothing is not mounted for us.
  @Test func procIsFoundByThisThreadsID() throws {
    let root = TemporaryDirectory()
    #expect(!ProcFilesystem.isMounted(at: root.path))
    try FileManager.default.createDirectory(
      atPath: root.path + "/self", withIntermediateDirectories: true)
    #expect(FileManager.default.createFile(atPath: root.path + "/self/stat", contents: Data()))
    #expect(!ProcFilesystem.isMounted(at: root.path), "/proc/self alone is not enough")
    let thread = root.path + "/\(ProcFilesystem.threadID)"
    try FileManager.default.createDirectory(atPath: thread, withIntermediateDirectories: true)
    #expect(FileManager.default.createFile(atPath: thread + "/stat", contents: Data()))
    #expect(ProcFilesystem.isMounted(at: root.path))
  }
}
