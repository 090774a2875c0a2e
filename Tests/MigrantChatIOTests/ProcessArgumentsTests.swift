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

  /// The environment read from `environ` is Foundation's: a value may hold `=`,
  /// be empty or be Cyrillic; bytes that are not UTF-8 are repaired, not dropped.
  @Test func theEnvironmentIsFoundationsOwn() {
    let names = ["MC_ENV_TEST_EQUALS", "MC_ENV_TEST_EMPTY", "MC_ENV_TEST_CYRILLIC"]
    setenv(names[0], "a=b=c", 1)
    setenv(names[1], "", 1)
    setenv(names[2], "Привіт", 1)
    let broken: [CChar] = [0x78, -1, 0x79, 0]  // "x", a lone 0xFF, "y"
    broken.withUnsafeBufferPointer { _ = setenv("MC_ENV_TEST_BROKEN", $0.baseAddress!, 1) }
    defer { (names + ["MC_ENV_TEST_BROKEN"]).forEach { unsetenv($0) } }
    let ours = ProcessEnvironment.current()
    #expect(ours["MC_ENV_TEST_EQUALS"] == "a=b=c")
    #expect(ours["MC_ENV_TEST_EMPTY"] == "")
    #expect(ours["MC_ENV_TEST_CYRILLIC"] == "Привіт")
    #expect(ours["MC_ENV_TEST_BROKEN"] == "x\u{FFFD}y")
    #expect(ours["PATH"] == ProcessInfo.processInfo.environment["PATH"])
    let foundations = ProcessInfo.processInfo.environment
    for name in names { #expect(ours[name] == foundations[name], "\(name)") }
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
