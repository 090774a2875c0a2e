import MigrantChatIO
import Testing

/// The arguments main was given, kept for where /proc/self/cmdline is missing
/// (a chroot, a minimal container): the package tier runs the binary without /proc.
@Suite struct ProcessArgumentsTests {
  @Test func theArgumentsKeptFromMainAreSwiftsOwn() {
    #expect(!ProcessArguments.fromMain.isEmpty)
    #expect(ProcessArguments.fromMain == CommandLine.arguments)
    #expect(ProcessArguments.all == CommandLine.arguments)
  }

  /// The check looks where libdispatch looks, /proc/THREAD/stat, which is there here.
  @Test func procIsFoundByThisThreadsID() {
    #expect(ProcFilesystem.isMounted)
  }
}
