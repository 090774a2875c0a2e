/// Task numbers as typed after `done`, `undo`, `show` and `remove`: one or several
/// (`4 5 6`, `4,5`, `#4`, `№4`, a range `30-33`), each checked before anything changes.
public enum TodoNumbers {
  /// At most this many numbers in one command.
  public static let limit = 1000

  public static func read(_ typed: [String], command: String) -> Result<[Int64], InputError> {
    let words = typed.flatMap { $0.split(separator: ",").map(String.init) }
    guard !words.isEmpty, words.count <= limit else {
      return .failure(.needsTaskNumber(command: command, typed: typed.first))
    }
    var ids: [Int64] = []
    for word in words {
      let digits = word.hasPrefix("#") || word.hasPrefix("№") ? String(word.dropFirst()) : word
      let ends = digits.split(separator: "-", omittingEmptySubsequences: false)
      guard (1...2).contains(ends.count), let first = Int64(ends[0]), first > 0,
        let last = ends.count == 2 ? Int64(ends[1]) : first, last >= first,
        last - first < Int64(limit), ids.count + Int(last - first) < limit
      else {
        return .failure(.needsTaskNumber(command: command, typed: word))
      }
      for id in first...last where !ids.contains(id) { ids.append(id) }
    }
    return .success(ids)
  }
}
