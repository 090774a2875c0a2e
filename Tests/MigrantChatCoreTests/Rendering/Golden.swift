import Foundation
import Testing

/// Compares `actual` with `Goldens/<name>.txt`; `RECORD=1` rewrites the file and fails.
///
/// Recording fails on purpose, so a run that re-recorded can never pass CI by accident.
func expectGolden(
  _ actual: String, named name: String, filePath: String = #filePath,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Goldens")
  let url = directory.appendingPathComponent(name + ".txt")
  if ProcessInfo.processInfo.environment["RECORD"] == "1" {
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try? Data(actual.utf8).write(to: url)
    Issue.record(
      "recorded golden \(name); run again without RECORD=1", sourceLocation: sourceLocation)
    return
  }
  guard let data = try? Data(contentsOf: url) else {
    Issue.record(
      "missing golden \(url.path); record it with RECORD=1", sourceLocation: sourceLocation)
    return
  }
  let expected = String(decoding: data, as: UTF8.self)
  guard expected != actual else { return }
  let expectedLines = expected.components(separatedBy: "\n")
  let actualLines = actual.components(separatedBy: "\n")
  let firstDifference =
    zip(expectedLines, actualLines).enumerated()
    .first { $0.element.0 != $0.element.1 }?.offset ?? min(expectedLines.count, actualLines.count)
  let expectedLine =
    firstDifference < expectedLines.count ? expectedLines[firstDifference] : "<end>"
  let actualLine = firstDifference < actualLines.count ? actualLines[firstDifference] : "<end>"
  Issue.record(
    """
    \(name) differs from its golden at line \(firstDifference + 1):
      expected: \(expectedLine)
      actual:   \(actualLine)
    """, sourceLocation: sourceLocation)
}
