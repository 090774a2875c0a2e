/// Typing mistakes made with the keyboard: a letter replaced by its neighbour
/// on the keyboard, left out, doubled, or swapped with the next.
///
/// Neighbours are the keys around a key on a US QWERTY keyboard (the same row,
/// and the rows above and below, offset as they are); a Cyrillic letter's
/// neighbours are the letters the Russian or Ukrainian layout puts on those keys.
enum Typos {
  static let rows = ["qwertyuiop[]", "asdfghjkl;'", "zxcvbnm,."]

  /// Keys around each key of the letter rows.
  static let neighbours: [Character: [Character]] = {
    var map: [Character: [Character]] = [:]
    let grid = rows.map(Array.init)
    for (row, keys) in grid.enumerated() {
      for (column, key) in keys.enumerated() {
        var around: [Character] = []
        for (dr, dc) in [(0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0)] {
          let r = row + dr
          let c = column + dc
          if grid.indices.contains(r), grid[r].indices.contains(c) { around.append(grid[r][c]) }
        }
        map[key] = around
      }
    }
    return map
  }()

  /// The neighbours of a letter, in its own script and on the layout of the
  /// text's `language` (ъ is no Ukrainian's neighbour of х: that key is ї there);
  /// empty for other characters.
  static func neighbours(of letter: Character, language: Language = .ru) -> [Character] {
    let lower = Character(letter.lowercased())
    if let latin = neighbours[lower] { return latin.filter(\.isLetter) }
    // Cyrillic: to its key, the keys around, back to the letters of the layout
    // that has it (і, ї, є, ґ are Ukrainian's).
    guard let key = KeyboardLayout.russian.switched(Substring(String(lower)))?.first,
      let around = neighbours[key]
    else { return [] }
    let ukrainian = "іїєґ".contains(lower) || (language == .uk && !"ыэъё".contains(lower))
    let layout: KeyboardLayout = ukrainian ? .ukrainian : .russian
    return around.compactMap { layout.switched(Substring(String($0)))?.first }.filter(\.isLetter)
  }

  /// `text` with `count` mistakes at letters `generator` picks, in words of four
  /// letters or more when there are any.
  static func apply(
    _ count: Int, to text: String, language: Language = .ru,
    using generator: inout SeededGenerator
  ) -> String {
    var characters = Array(text)
    for _ in 0..<count {
      let letters = characters.indices.filter { characters[$0].isLetter }
      guard !letters.isEmpty else { break }
      let index = letters[Int(generator.next() % UInt64(letters.count))]
      switch generator.next() % 4 {
      case 0:
        let around = neighbours(of: characters[index], language: language)
        if !around.isEmpty {
          var replacement = around[Int(generator.next() % UInt64(around.count))]
          if characters[index].isUppercase { replacement = Character(replacement.uppercased()) }
          characters[index] = replacement
        } else {
          characters.remove(at: index)
        }
      case 1:
        characters.remove(at: index)
      case 2:
        characters.insert(characters[index], at: index)
      default:
        if index + 1 < characters.count, characters[index + 1].isLetter {
          characters.swapAt(index, index + 1)
        } else {
          characters.remove(at: index)
        }
      }
    }
    return String(characters)
  }
}
