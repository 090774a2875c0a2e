import Foundation

/// Replay results as JUnit XML, the format CI systems read.
public enum JUnitReport {
  public static func xml(_ results: [TranscriptResult], suite: String = "migrant-chat replay")
    -> String
  {
    let failures = results.filter(\.isFailure).count
    // Skipped: a known defect still there, or a pass that left checks unmade (a fixture,
    // tracker checks without the API): CI must not show either as a plain green pass.
    let skipped = results.filter { $0.isExpectedFailure || ($0.passed && !$0.skipped.isEmpty) }
      .count
    let time = format(results.map(\.seconds).reduce(0, +))
    var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
    xml += #"<testsuites tests="\#(results.count)" failures="\#(failures)" time="\#(time)">"# + "\n"
    xml +=
      #"  <testsuite name="\#(escape(suite))" tests="\#(results.count)" failures="\#(failures)" skipped="\#(skipped)" time="\#(time)">"#
      + "\n"
    // Two tests of one file with one name (two stories both called "happy path") are told
    // apart by their line; a transcript repeated (`--repeat`) keeps its name.
    var lines: [String: Set<Int>] = [:]
    for result in results {
      lines[result.transcript.location.file + "\u{0}" + result.transcript.name, default: []]
        .insert(result.transcript.location.line)
    }
    for result in results {
      let key = result.transcript.location.file + "\u{0}" + result.transcript.name
      let name = escape(
        result.transcript.name
          + ((lines[key]?.count ?? 0) > 1 ? " (line \(result.transcript.location.line))" : ""))
      let file = escape(result.transcript.location.file)
      let opening =
        #"    <testcase name="\#(name)" classname="\#(file)" time="\#(format(result.seconds))""#
      if result.isExpectedFailure, let reason = result.transcript.expectedFailure {
        // A known defect still there: skipped, as pytest reports an xfail to JUnit.
        xml += opening + ">\n"
        xml += #"      <skipped message="\#(escape("expected failure: " + reason))"/>"# + "\n"
        xml += "    </testcase>\n"
      } else if let failure = result.failure {
        let message = escape(failure.location.description + ": " + (failure.reasons.first ?? ""))
        let details = escape((failure.reasons + [""] + failure.diff).joined(separator: "\n"))
        xml += opening + ">\n"
        xml += #"      <failure message="\#(message)" type="mismatch">\#(details)</failure>"# + "\n"
        xml += "    </testcase>\n"
      } else if !result.skipped.isEmpty {
        xml += opening + ">\n"
        let reasons = escape(result.skipped.joined(separator: "; "))
        xml += #"      <skipped message="\#(reasons)"/>"# + "\n"
        xml += "    </testcase>\n"
      } else {
        xml += opening + "/>\n"
      }
    }
    xml += "  </testsuite>\n</testsuites>\n"
    return xml
  }

  /// XML text: the five entities escaped, characters XML 1.0 forbids dropped.
  public static func escape(_ text: String) -> String {
    var result = ""
    for scalar in TerminalSanitizer.clean(text).unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      case "\u{9}", "\u{A}", "\u{D}": result.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): continue
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  private static func format(_ seconds: Double) -> String {
    String(format: "%.3f", seconds)
  }
}
