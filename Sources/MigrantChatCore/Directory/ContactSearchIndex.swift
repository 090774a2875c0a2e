/// Directory search in memory, for large directories in long-lived processes.
///
/// SQLite's FTS5 finds the matches of a short prefix quickly, but ordering
/// them (favourites first, then by name in the user's language) looks up
/// every matching row: ~30 ms for a 2-letter prefix at 100,000 contacts. Here
/// the matches are a bitset (each query word ORs the postings of the
/// vocabulary words it prefixes; the words are ANDed), the total is a
/// population count, and the first results are found by walking the
/// language's sort order until enough are set: work that does not grow with
/// the number of matches.
///
/// Words are `SearchText.terms` of each contact's names, addresses and city,
/// the same folding as the query's.
public final class ContactSearchIndex: Sendable {
  public struct Row: Sendable {
    public var id: Int64
    /// Names in every language, addresses and city, as one text.
    public var text: String
    /// Sort keys in `Language.allCases` order (`SearchText.fold` of the name).
    public var sortKeys: [String]

    public init(id: Int64, text: String, sortKeys: [String]) {
      self.id = id
      self.text = text
      self.sortKeys = sortKeys
    }
  }

  private let ids: [Int64]
  private let positions: [Int64: Int32]
  /// Sorted words as UTF-8 (byte order is code point order, so the words with
  /// a prefix are contiguous), and the contacts of each, ascending.
  private let vocabulary: [[UInt8]]
  private let postings: [[Int32]]
  /// Per language: contacts in display order, and each contact's place in it.
  private let order: [[Int32]]
  private let rank: [[Int32]]

  public var count: Int { ids.count }

  public init(rows: [Row]) {
    ids = rows.map(\.id)
    positions = Dictionary(
      rows.enumerated().map { ($0.element.id, Int32($0.offset)) }, uniquingKeysWith: { a, _ in a })
    var words: [[UInt8]: [Int32]] = [:]
    for (position, row) in rows.enumerated() {
      for term in Set(SearchText.terms(row.text)) {
        words[Array(term.utf8), default: []].append(Int32(position))
      }
    }
    let sortedWords = words.keys.sorted { $0.lexicographicallyPrecedes($1) }
    vocabulary = sortedWords
    postings = sortedWords.map { words[$0] ?? [] }
    var order: [[Int32]] = []
    var rank: [[Int32]] = []
    for languageIndex in Language.allCases.indices {
      let keys = rows.map {
        Array(($0.sortKeys.indices.contains(languageIndex) ? $0.sortKeys[languageIndex] : "").utf8)
      }
      let sorted = rows.indices.sorted { a, b in
        keys[a] != keys[b] ? keys[a].lexicographicallyPrecedes(keys[b]) : rows[a].id < rows[b].id
      }.map(Int32.init)
      var places = [Int32](repeating: 0, count: rows.count)
      for (place, position) in sorted.enumerated() { places[Int(position)] = Int32(place) }
      order.append(sorted)
      rank.append(places)
    }
    self.order = order
    self.rank = rank
  }

  /// The ids of the first `limit` matches (favourites first, then by name in
  /// `language`, then id), and how many match in all. Every term must prefix a word.
  public func search(
    terms: [String], language: Language, favourites: Set<Int64>, limit: Int
  ) -> (ids: [Int64], total: Int) {
    let languageIndex = Language.allCases.firstIndex(of: language) ?? 0
    let byRank: (Int32, Int32) -> Bool = {
      self.rank[languageIndex][Int($0)] < self.rank[languageIndex][Int($1)]
    }
    var matches = Bitset(count: ids.count, filled: terms.isEmpty)
    for (index, term) in terms.enumerated() {
      let bits = self.matches(prefix: Array(term.utf8))
      if index == 0 { matches = bits } else { matches.formIntersection(bits) }
    }
    let total = matches.population
    guard limit > 0, total > 0 else { return ([], total) }

    let favourite = favourites.compactMap { positions[$0] }.filter { matches.contains($0) }
      .sorted(by: byRank)
    var result = Array(favourite.prefix(limit))
    let favouriteSet = Set(favourite)
    let wanted = limit - result.count
    if wanted > 0 {
      if total <= 4096 {
        // Few matches: sort them.
        result += matches.members.filter { !favouriteSet.contains($0) }.sorted(by: byRank)
          .prefix(wanted)
      } else {
        // Many: the first ones in display order are near the start.
        var taken = 0
        for position in order[languageIndex] where taken < wanted {
          if matches.contains(position) && !favouriteSet.contains(position) {
            result.append(position)
            taken += 1
          }
        }
      }
    }
    return (result.map { ids[Int($0)] }, total)
  }

  /// The contacts with a word that starts with `prefix`.
  private func matches(prefix: [UInt8]) -> Bitset {
    var bits = Bitset(count: ids.count, filled: false)
    // The first word not before the prefix; the words with it follow.
    var low = 0
    var high = vocabulary.count
    while low < high {
      let middle = (low + high) / 2
      if vocabulary[middle].lexicographicallyPrecedes(prefix) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    var index = low
    while index < vocabulary.count && vocabulary[index].starts(with: prefix) {
      for position in postings[index] { bits.insert(position) }
      index += 1
    }
    return bits
  }
}

/// A fixed-size set of small integers.
private struct Bitset {
  var words: [UInt64]

  init(count: Int, filled: Bool) {
    words = [UInt64](repeating: filled ? .max : 0, count: (count + 63) / 64)
    if filled, count % 64 != 0 { words[words.count - 1] = (1 << UInt64(count % 64)) - 1 }
  }

  mutating func insert(_ member: Int32) {
    words[Int(member) >> 6] |= 1 << UInt64(member & 63)
  }

  func contains(_ member: Int32) -> Bool {
    words[Int(member) >> 6] & (1 << UInt64(member & 63)) != 0
  }

  mutating func formIntersection(_ other: Bitset) {
    for index in words.indices { words[index] &= other.words[index] }
  }

  var population: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

  var members: [Int32] {
    var result: [Int32] = []
    for (index, word) in words.enumerated() where word != 0 {
      var rest = word
      while rest != 0 {
        result.append(Int32(index * 64 + rest.trailingZeroBitCount))
        rest &= rest - 1
      }
    }
    return result
  }
}
