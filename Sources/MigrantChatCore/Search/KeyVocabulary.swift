/// The sorted keys of an index, and how a query word matches them: the one
/// matching rule of every search (contacts, guides).
///
/// A query word matches, in this order of preference: a key equal to it
/// (`exact`), a key it starts (`prefix`), a key one of its stems starts
/// (`stem`), a key a few typos away, or whose start is (`typo`).
public struct KeyVocabulary: Sendable {
  public enum Match: Int, Sendable, Comparable {
    case exact, prefix, stem, typo

    public static func < (a: Match, b: Match) -> Bool { a.rawValue < b.rawValue }
  }

  /// The most keys looked at for typos per query word.
  static let typoScanLimit = 20_000

  /// Keys as UTF-8, sorted by bytes: the keys with a prefix are contiguous.
  public let keys: [[UInt8]]

  /// `keys` need not be sorted or unique; `index(of:)` finds a key's place after.
  public init(keys: some Sequence<String>) {
    self.keys = Set(keys).map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
  }

  public var count: Int { keys.count }

  /// The place of `key`, nil when absent.
  public func index(of key: String) -> Int? {
    let bytes = Array(key.utf8)
    let place = firstKey(notBefore: bytes)
    return place < keys.count && keys[place] == bytes ? place : nil
  }

  /// Calls `visit` with every key that `term` matches and how; a key can be
  /// visited more than once (as a prefix and a typo): keep the best.
  public func matches(_ term: SearchQuery.Term, _ visit: (Int, Match) -> Void) {
    let key = Array(term.key.utf8)
    let place = firstKey(notBefore: key)
    if term.wholeWord {
      if place < keys.count && keys[place] == key { visit(place, .exact) }
      return
    }
    for place in place..<keys.count {
      guard keys[place].starts(with: key) else { break }
      visit(place, keys[place].count == key.count ? .exact : .prefix)
    }
    for stem in term.stems {
      let stem = Array(stem.utf8)
      var place = firstKey(notBefore: stem)
      while place < keys.count && keys[place].starts(with: stem) {
        visit(place, .stem)
        place += 1
      }
    }
    guard term.typos > 0, let first = key.first else { return }
    // Typos on the word and on its stems (the stem of "страхование" is one letter
    // from the start of "страховая"), each against a whole key or its start.
    let targets = [key] + term.stems.map { Array($0.utf8) }.filter { $0.count >= 5 }
    func isNear(_ candidate: [UInt8]) -> Bool {
      targets.contains { target in
        let bound = min(term.typos, EditDistance.allowedTypos(letters: target.count))
        guard bound > 0 else { return false }
        return EditDistance.within(target, candidate[...], bound: bound) != nil
          || (candidate.count > target.count
            && EditDistance.within(target, candidate.prefix(target.count), bound: bound) != nil)
      }
    }
    // Keys with the same first letter, and with the second (one letter too many
    // at the start: "imigration"). Looking at every key would cost each query
    // the whole vocabulary; at most `typoScanLimit` keys per letter are looked at
    // (a vocabulary that large under one letter finds typos only among its first).
    for letter in Set([first] + (key.count > 1 ? [key[1]] : [])) {
      var scanned = 0
      var place = firstKey(notBefore: [letter])
      while place < keys.count && keys[place].first == letter && scanned < Self.typoScanLimit {
        if isNear(keys[place]) { visit(place, .typo) }
        place += 1
        scanned += 1
      }
    }
  }

  /// Whether `term` matches a key equal to it or one it starts (typos and stems
  /// are not looked at): a cheap test before a search that would find nothing.
  public func hasStart(_ term: SearchQuery.Term) -> Bool {
    let key = Array(term.key.utf8)
    let place = firstKey(notBefore: key)
    guard place < keys.count else { return false }
    return term.wholeWord ? keys[place] == key : keys[place].starts(with: key)
  }

  /// The best way `term` matches any key (`Match` order), nil when none.
  public func bestMatch(_ term: SearchQuery.Term) -> Match? {
    if hasStart(term) {
      let key = Array(term.key.utf8)
      return keys[firstKey(notBefore: key)] == key ? .exact : .prefix
    }
    var best: Match?
    matches(term) { _, match in best = min(best ?? match, match) }
    return best
  }

  /// How well `query` matches these keys, for choosing a keyboard layout
  /// (`KeyboardLayout.reading`): the worst of its words' best matches (`Match`;
  /// a group's best alternative), nil when a word matches nothing.
  public func strength(of query: SearchQuery) -> Int? {
    func worst(_ terms: [SearchQuery.Term]) -> Int? {
      var worst = 0
      for term in terms {
        guard let match = bestMatch(term) else { return nil }
        worst = max(worst, match.rawValue)
      }
      return worst
    }
    guard !query.isEmpty, var result = worst(query.terms) else { return nil }
    for group in query.groups {
      guard let best = group.alternatives.compactMap(worst).min() else { return nil }
      result = max(result, best)
    }
    return result
  }

  /// The first key not before `prefix`.
  private func firstKey(notBefore prefix: [UInt8]) -> Int {
    var low = 0
    var high = keys.count
    while low < high {
      let middle = (low + high) / 2
      if keys[middle].lexicographicallyPrecedes(prefix) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }
}
