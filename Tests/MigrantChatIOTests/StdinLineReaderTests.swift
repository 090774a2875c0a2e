import Foundation
import MigrantChatIO
import Testing

/// What a chat in a pipe reads without its input queue's thread (#50): the lines the
/// input holds, and its end; never a wait when it holds nothing yet.
@Suite struct StdinLineReaderTests {
  @Test func linesTheInputHoldsAreReadWithoutBlocking() throws {
    let pipe = try Pipe2()
    defer { pipe.close() }
    pipe.write("first\nsecond\r\nthird")
    let reader = StdinLineReader(descriptor: pipe.readEnd)
    #expect(reader.bufferedLine() == .line("first"))
    #expect(reader.bufferedLine() == .line("second"))
    // A line not ended yet waits for the rest: nil, not a wait.
    #expect(reader.bufferedLine() == nil)
    pipe.closeWriteEnd()
    #expect(reader.bufferedLine() == .line("third"))
    #expect(reader.bufferedLine() == .endOfInput)
    #expect(reader.bufferedLine() == .endOfInput)
  }

  @Test func anEmptyInputThatIsStillOpenGivesNothing() throws {
    let pipe = try Pipe2()
    defer { pipe.close() }
    let reader = StdinLineReader(descriptor: pipe.readEnd)
    #expect(reader.bufferedLine() == nil)
    pipe.write("late\n")
    #expect(reader.bufferedLine() == .line("late"))
    #expect(reader.bufferedLine() == nil)
  }

  @Test func anInputThatEndedAtOnceEndsTheChat() throws {
    let pipe = try Pipe2()
    defer { pipe.close() }
    pipe.closeWriteEnd()
    let reader = StdinLineReader(descriptor: pipe.readEnd)
    #expect(reader.bufferedLine() == .endOfInput)
  }

  /// A pipe's two ends as descriptors.
  private final class Pipe2 {
    let readEnd: Int32
    private var writeEnd: Int32

    init() throws {
      var ends: [Int32] = [0, 0]
      guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
      readEnd = ends[0]
      writeEnd = ends[1]
    }

    func write(_ text: String) {
      let bytes = Array(text.utf8)
      _ = bytes.withUnsafeBytes { Foundation.write(writeEnd, $0.baseAddress, $0.count) }
    }

    func closeWriteEnd() {
      if writeEnd >= 0 { Foundation.close(writeEnd) }
      writeEnd = -1
    }

    func close() {
      closeWriteEnd()
      Foundation.close(readEnd)
    }
  }
}
