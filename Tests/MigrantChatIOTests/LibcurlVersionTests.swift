import Foundation
import MigrantChatIO
import Testing

/// `--version`'s libcurl: asked of the library this process loads.
@Suite struct LibcurlVersionTests {
  /// The version libcurl reports is the one the development files built against
  /// (`pkg-config`, which `make deps` requires): Debian installs them together.
  @Test func theRuntimeVersionIsTheInstalledLibcurls() throws {
    let runtime = try #require(LibcurlVersion.runtime)
    #expect(runtime.first?.isNumber == true && runtime.contains("."))
    let process = Process()
    // Never the test run's own stdin: CI's may be a pipe that never ends.
    process.standardInput = FileHandle.nullDevice
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["pkg-config", "--modversion", "libcurl"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    process.waitUntilExit()
    let installed = String(
      decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 0)
    #expect(installed.trimmingCharacters(in: .whitespacesAndNewlines) == runtime)
  }
}
