import Foundation
import MigrantChatCore
import MigrantChatIO

/// Reading a typed line before it is sent (#48): each line of the labelled sets
/// (`language<TAB>…<TAB>line…`, the line in the third column) read in its language,
/// 20 times over; the first read apart (it touches the tables' pages).
func benchReading(files: [String]) throws {
  guard let tables = WordTables.builtIn else {
    FileHandle.standardError.write(Data("the word tables are missing from the binary\n".utf8))
    exit(1)
  }
  var lines: [(String, Language)] = []
  for file in files {
    for row in try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n") {
      let columns = row.split(separator: "\t", omittingEmptySubsequences: false)
      guard columns.count >= 3, let language = Language(code: String(columns[0])) else { continue }
      lines.append((String(columns[2]), language))
    }
  }
  guard !lines.isEmpty else {
    FileHandle.standardError.write(Data("usage: migrant-bench reading FILE...\n".utf8))
    exit(2)
  }
  let clock = ContinuousClock()
  let reader = TypedLineReader(tables: tables)
  let first = clock.measure {
    _ = reader.reading(of: lines[0].0, language: lines[0].1, isName: KnownNames.isName)
  }
  var times: [Double] = []
  var read = 0
  for _ in 0..<20 {
    for (line, language) in lines {
      var found: LineReading?
      times.append(
        milliseconds(
          clock.measure {
            found = reader.reading(of: line, language: language, isName: KnownNames.isName)
          }))
      if found != nil { read += 1 }
    }
  }
  times.sort()
  print(
    "reading a line (\(lines.count) lines x 20, \(read / 20) read): p50 \(percentile(times, 0.5)) ms, "
      + "p99 \(percentile(times, 0.99)) ms, max \(times.last ?? 0) ms; the first: \(milliseconds(first)) ms"
  )
  figure("reading.p50_ms", percentile(times, 0.5))
  figure("reading.p99_ms", percentile(times, 0.99))
  figure("reading.max_ms", times.last ?? 0)
  figure("reading.first_ms", milliseconds(first))
}
