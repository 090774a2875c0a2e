/// Edit distance with a bound, for typo tolerance.
public enum EditDistance {
  /// The optimal string alignment distance between `a` and `b` (insertions,
  /// deletions, substitutions and swaps of neighbours count 1), or nil when it
  /// is over `bound`. Stops as soon as a row is over the bound; allocates nothing.
  public static func within(_ a: [UInt8], _ b: ArraySlice<UInt8>, bound: Int) -> Int? {
    let n = b.count
    if abs(a.count - n) > bound { return nil }
    if a.isEmpty || n == 0 { return max(a.count, n) <= bound ? max(a.count, n) : nil }
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * (n + 1)) { rows in
      var beforePrevious = 0
      var previous = n + 1
      var current = 2 * (n + 1)
      for j in 0...n { rows[previous + j] = j }
      let start = b.startIndex
      for i in 1...a.count {
        rows[current] = i
        var rowMinimum = i
        for j in 1...n {
          let cost = a[i - 1] == b[start + j - 1] ? 0 : 1
          var value = min(
            rows[previous + j] + 1, rows[current + j - 1] + 1, rows[previous + j - 1] + cost)
          if i > 1 && j > 1 && a[i - 1] == b[start + j - 2] && a[i - 2] == b[start + j - 1] {
            value = min(value, rows[beforePrevious + j - 2] + 1)
          }
          rows[current + j] = value
          rowMinimum = min(rowMinimum, value)
        }
        if rowMinimum > bound { return nil }
        (beforePrevious, previous, current) = (previous, current, beforePrevious)
      }
      return rows[previous + n] <= bound ? rows[previous + n] : nil
    }
  }

  public static func within(_ a: String, _ b: String, bound: Int) -> Int? {
    within(Array(a.utf8), Array(b.utf8)[...], bound: bound)
  }

  /// How many typos a word of `letters` letters may have: none below five
  /// letters, one from five, two from nine (Meilisearch's and Typesense's defaults).
  public static func allowedTypos(letters: Int) -> Int {
    letters >= 9 ? 2 : letters >= 5 ? 1 : 0
  }
}
