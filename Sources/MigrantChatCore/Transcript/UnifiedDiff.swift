/// A line diff in the unified style (`-` expected, `+` actual, ` ` both).
public enum UnifiedDiff {
  /// The diff of two texts, keeping `context` unchanged lines around each change.
  public static func diff(
    expected: [String], actual: [String], context: Int = 3
  ) -> [String] {
    let script = editScript(expected, actual)
    guard script.contains(where: { $0.0 != " " }) else { return [] }
    var keep = Array(repeating: false, count: script.count)
    for (index, entry) in script.enumerated() where entry.0 != " " {
      for near in max(0, index - context)...min(script.count - 1, index + context) {
        keep[near] = true
      }
    }
    var lines = ["--- expected", "+++ actual"]
    var skipping = false
    for (index, entry) in script.enumerated() {
      if keep[index] {
        lines.append(String(entry.0) + entry.1)
        skipping = false
      } else if !skipping {
        lines.append("@@ …")
        skipping = true
      }
    }
    return lines
  }

  /// Longest-common-subsequence edit script: (" " | "-" | "+", line).
  static func editScript(_ left: [String], _ right: [String]) -> [(Character, String)] {
    let n = left.count
    let m = right.count
    var lengths = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        lengths[i][j] =
          left[i] == right[j]
          ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
      }
    }
    var script: [(Character, String)] = []
    var (i, j) = (0, 0)
    while i < n || j < m {
      if i < n && j < m && left[i] == right[j] {
        script.append((" ", left[i]))
        i += 1
        j += 1
      } else if i < n && (j == m || lengths[i + 1][j] >= lengths[i][j + 1]) {
        script.append(("-", left[i]))
        i += 1
      } else {
        script.append(("+", right[j]))
        j += 1
      }
    }
    return script
  }
}
