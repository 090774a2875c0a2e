/// Task numbers as typed after `done`, `undo`, `show` and `remove`: one or several
/// (`4 5 6`, `4,5`, `#4`), each checked before anything changes.
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
      let digits = word.hasPrefix("#") ? String(word.dropFirst()) : word
      guard let id = Int64(digits), id > 0 else {
        return .failure(.needsTaskNumber(command: command, typed: word))
      }
      if !ids.contains(id) { ids.append(id) }
    }
    return .success(ids)
  }
}
