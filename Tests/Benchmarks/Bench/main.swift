// `make bench`'s in-process figures; the whole-process ones are in bench.py.
//
// Usage: migrant-bench directory [COUNT]   sync, search, ids at COUNT contacts (100000)
//        migrant-bench guidance [COUNT]    offline free-text answers over COUNT guides (10000)
//        migrant-bench history [COUNT]     keeping a turn; history search over COUNT conversations (10000)
//        migrant-bench render [COUNT]      messages rendered per second, 80 columns (20000)
//        migrant-bench places              the place tables' first use, lookups, a map
//        migrant-bench reading FILE...     a typed line read before it is sent (#48), per line
//        migrant-bench decode FILE...      MB/s decoded from recorded answers (one JSON a line);
//                                          exits 1, naming FILE:LINE, if any answer fails to decode
//        migrant-bench fill-directory DIR COUNT   DIR/directory.sqlite with COUNT generated
//                                          contacts (for bench.py's one-shot `contacts search`)
// Prints figures, and `figure NAME VALUE` lines for bench.py; asserts nothing else.
import Foundation

func percentile(_ sorted: [Double], _ p: Double) -> Double {
  sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * p).rounded(.up)) - 1))]
}

func milliseconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

/// A machine-readable line for bench.py.
func figure(_ name: String, _ value: Double) {
  print("figure \(name) \(value)")
}

var arguments = CommandLine.arguments.dropFirst()
let mode = arguments.popFirst() ?? "directory"
switch mode {
case "directory":
  try await benchDirectory(count: arguments.first.flatMap(Int.init) ?? 100_000)
case "guidance":
  await benchGuidance(count: arguments.first.flatMap(Int.init) ?? 10_000)
case "history":
  try benchHistory(count: arguments.first.flatMap(Int.init) ?? 10_000)
case "render":
  benchRendering(count: arguments.first.flatMap(Int.init) ?? 20_000)
case "places":
  benchPlaces()
case "reading":
  try benchReading(files: Array(arguments))
case "decode":
  try benchDecoding(files: Array(arguments))
case "fill-directory":
  guard arguments.count == 2, let directory = arguments.first,
    let count = arguments.last.flatMap(Int.init), count > 0
  else {
    FileHandle.standardError.write(Data("usage: migrant-bench fill-directory DIR COUNT\n".utf8))
    exit(2)
  }
  try await fillDirectory(cacheDirectory: directory, count: count)
default:
  // The first argument used to be the count of the directory benchmark.
  if let count = Int(mode) {
    try await benchDirectory(count: count)
  } else {
    FileHandle.standardError.write(Data("unknown benchmark '\(mode)'\n".utf8))
    exit(2)
  }
}
