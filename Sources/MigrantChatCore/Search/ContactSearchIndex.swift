import Foundation

/// Directory search in memory, for long-lived processes and large directories.
///
/// Each contact's names (every language), city and address are held as
/// `SearchText.keys`; a sorted vocabulary of those keys maps each to the
/// contacts that have it, per field. A query word matches, in this order of
/// preference: a word equal to it, a word it starts, a word one of its stems
/// starts, a word a few typos away. The level of a match is that order and the
/// field (name before city before address); a contact's level for the query is
/// its worst word's. Every word that matches anything must match (a word the
/// directory lacks is left out); below `fewMatches` whole matches, contacts
/// that miss one word of three or more follow. Results come favourites first,
/// then by level, then by name in the user's language.
public final class ContactSearchIndex: Sendable {
  public struct Row: Sendable {
    public var id: Int64
    /// Keys of the names in every language, the city and the addresses, space-separated.
    public var names: String
    public var city: String
    public var address: String
    /// Sort keys in `Language.allCases` order.
    public var sortKeys: [String]

    public init(id: Int64, names: String, city: String, address: String, sortKeys: [String]) {
      self.id = id
      self.names = names
      self.city = city
      self.address = address
      self.sortKeys = sortKeys
    }
  }

  /// What a search found.
  public struct Found: Sendable, Equatable {
    public var ids: [Int64]
    public var total: Int
    /// How well the query matched, to choose between readings of it.
    public var quality = SearchQuality.none
    /// The typed words left out because they match no contact (others did).
    public var leftOut: [String] = []
  }

  static let fieldCount = 3
  /// The level of a match is `match * fieldCount + field` (`KeyVocabulary.Match`).
  static let noMatch = UInt8.max
  /// Levels from here are another name of an office kind (`OfficeKinds`), by field.
  static let otherNameLevel = UInt8(4 * fieldCount)
  /// Levels from here are the words of an office kind's name as typed, when none of
  /// them matched but by a stem or a typo.
  static let weakTypedLevel = otherNameLevel + UInt8(fieldCount)
  /// Below this many contacts that match every word, those that miss one follow.
  static let fewMatches = 5

  private let ids: [Int64]
  private let positions: [Int64: Int32]
  private let vocabulary: KeyVocabulary
  /// Per field (names, city, address), per vocabulary word: its contacts, ascending.
  private let postings: [[[Int32]]]
  /// Per language: contacts in display order, and each contact's place in it.
  private let order: [[Int32]]
  private let rank: [[Int32]]

  public var count: Int { ids.count }

  public init(rows: [Row]) {
    ids = rows.map(\.id)
    positions = Dictionary(
      rows.enumerated().map { ($0.element.id, Int32($0.offset)) }, uniquingKeysWith: { a, _ in a })
    // Each word gets a number as it is first seen; each field lists (word, contact)
    // pairs in contact order. No set or list per word and row: a one-shot search
    // builds this for every start.
    var wordNumbers: [Substring: Int32] = [:]
    var pairs = [[(word: Int32, position: Int32)]](repeating: [], count: Self.fieldCount)
    for (position, row) in rows.enumerated() {
      for field in 0..<Self.fieldCount {
        let text =
          switch field {
          case 0: row.names
          case 1: row.city
          default: row.address
          }
        // Split on the byte: keys are split by one space, no grapheme needs breaking.
        for bytes in text.utf8.split(separator: UInt8(ascii: " ")) {
          let word = Substring(bytes)
          let number: Int32
          if let known = wordNumbers[word] {
            number = known
          } else {
            number = Int32(wordNumbers.count)
            wordNumbers[word] = number
          }
          pairs[field].append((number, Int32(position)))
        }
      }
    }
    let vocabulary = KeyVocabulary(keys: wordNumbers.keys.map(String.init))
    self.vocabulary = vocabulary
    // Per field, the contacts of each word (ascending, once each), in vocabulary order.
    let numberAt = vocabulary.keys.map { wordNumbers[Substring(decoding: $0, as: UTF8.self)] ?? 0 }
    postings = pairs.map { pairs in
      var lists = [[Int32]](repeating: [], count: wordNumbers.count)
      for (word, position) in pairs where lists[Int(word)].last != position {
        lists[Int(word)].append(position)
      }
      return numberAt.map { lists[Int($0)] }
    }
    var order: [[Int32]] = []
    var rank: [[Int32]] = []
    for languageIndex in Language.allCases.indices {
      let sorted = Self.displayOrder(rows, languageIndex: languageIndex)
      var places = [Int32](repeating: 0, count: rows.count)
      for (place, position) in sorted.enumerated() { places[Int(position)] = Int32(place) }
      order.append(sorted)
      rank.append(places)
    }
    self.order = order
    self.rank = rank
  }

  /// Contacts by their sort key in one language, then by id: the keys' bytes in one
  /// buffer, compared with memcmp (arrays of bytes compared element by element cost
  /// a one-shot search of 1,000 contacts milliseconds in retains).
  private static func displayOrder(_ rows: [Row], languageIndex: Int) -> [Int32] {
    var bytes: [UInt8] = []
    var starts: [Int] = [0]
    for row in rows {
      if row.sortKeys.indices.contains(languageIndex) { bytes += row.sortKeys[languageIndex].utf8 }
      starts.append(bytes.count)
    }
    let ids = rows.map(\.id)
    return bytes.withUnsafeBufferPointer { buffer in
      Array(rows.indices).sorted { a, b in
        let (aStart, aCount) = (starts[a], starts[a + 1] - starts[a])
        let (bStart, bCount) = (starts[b], starts[b + 1] - starts[b])
        if let base = buffer.baseAddress {
          let compared = memcmp(base + aStart, base + bStart, min(aCount, bCount))
          if compared != 0 { return compared < 0 }
        }
        return aCount != bCount ? aCount < bCount : ids[a] < ids[b]
      }.map(Int32.init)
    }
  }

  /// The first `limit` matches of `query` and how many match in all. An empty
  /// query lists everyone. When every word of the query is a city's, the limit
  /// grows to list every office of that city, up to `cityLimit` (a real city has
  /// dozens; beyond, the total says how many more).
  public func search(
    _ query: SearchQuery, language: Language, favourites: Set<Int64>, limit: Int,
    cityLimit: Int = 100
  ) -> Found {
    let languageIndex = Language.allCases.firstIndex(of: language) ?? 0
    let rank = self.rank[languageIndex]
    guard !query.isEmpty else {
      return Found(
        ids: listing(order[languageIndex], favourites: favourites, limit: limit, rank: rank),
        total: ids.count)
    }
    // A word that matches nothing at all ("offices", "помощи", "получить") is left
    // out when others match: people add words the data does not have.
    let perTerm = query.terms.map { self.levels(of: $0) } + query.groups.map { self.levels(of: $0) }
    let matching = perTerm.filter(\.any)
    let used = matching.isEmpty ? perTerm : matching
    let leftOut =
      matching.isEmpty ? [] : zip(query.typedWords, perTerm).filter { !$1.any }.map(\.0)
    let isCityQuery = used.allSatisfy(\.cityExact)
    // Contacts that match every word, by their worst word's level; after them,
    // from three words up, those that miss one word ("полиция по делам
    // иностранцев" still finds "Иностранная полиция"): those in the city the
    // query names first, then the ones that miss the commonest word.
    let levelCount = Int(Self.weakTypedLevel) + Self.fieldCount
    var partial: [(position: Int32, missedCity: Bool, missedMatches: Int, level: UInt8)] = []
    let matchCounts = used.map { $0.levels.count { $0 != Self.noMatch } }
    // One word (most searches): its levels are the contacts'. Several: each contact's
    // worst word, read from one buffer (an element of `used` copied per contact and
    // word cost a search of 100,000 contacts a millisecond in retains).
    var levels = used[0].levels
    if used.count > 1 {
      // The words' levels one after another in one buffer.
      let count = levels.count
      let flat = used.flatMap(\.levels)
      flat.withUnsafeBufferPointer { flat in
        for position in 0..<count {
          var worst: UInt8 = 0
          var missed = 0
          var missedCount = 0
          for index in used.indices {
            let level = flat[index * count + position]
            if level == Self.noMatch {
              missedCount += 1
              missed = index
            } else {
              worst = max(worst, level)
            }
          }
          levels[position] = missedCount == 0 ? worst : Self.noMatch
          if missedCount == 1 && used.count >= 3 {
            partial.append((Int32(position), used[missed].cityExact, matchCounts[missed], worst))
          }
        }
      }
    }
    var buckets = [[Int32]](repeating: [], count: levelCount)
    for (position, level) in levels.enumerated() where level != Self.noMatch {
      buckets[Int(level)].append(Int32(position))
    }
    let fullTotal = buckets.reduce(0) { $0 + $1.count }
    let bestLevel = buckets.firstIndex { !$0.isEmpty } ?? partial.map { Int($0.level) }.min()
    // Another name of an office kind is a name recognized: as good as an exact match.
    var quality = SearchQuality(
      matchedUnits: matching.count, unmatchedUnits: perTerm.count - matching.count,
      complete: fullTotal > 0,
      bestMatch: bestLevel.map {
        $0 >= Int(Self.weakTypedLevel)
          ? KeyVocabulary.Match.stem.rawValue
          : $0 >= Int(Self.otherNameLevel) ? 0 : $0 / Self.fieldCount
      }
        ?? SearchQuality.noMatch)
    quality.worstWordMatch = matching.map(\.bestMatch.rawValue).max() ?? 0
    var wanted = max(limit, 0)
    if isCityQuery {
      // Every office of the city: the exact city matches (and exact name matches).
      wanted = max(wanted, min(cityLimit, buckets[0].count + buckets[1].count))
    }
    // Only when whole matches are few, so the count does not depend on the limit.
    if fullTotal >= Self.fewMatches || partial.count > 4096 { partial = [] }
    let total = fullTotal + partial.count
    guard wanted > 0, total > 0 else {
      return Found(ids: [], total: total, quality: quality, leftOut: leftOut)
    }

    let byRank: (Int32, Int32) -> Bool = { rank[Int($0)] < rank[Int($1)] }
    let favourite = favourites.compactMap { positions[$0] }
      .filter { levels[Int($0)] != Self.noMatch }
      .sorted { (levels[Int($0)], rank[Int($0)]) < (levels[Int($1)], rank[Int($1)]) }
    var result = Array(favourite.prefix(wanted))
    let favouriteSet = Set(favourite)
    for (level, bucket) in buckets.enumerated() where result.count < wanted && !bucket.isEmpty {
      let needed = wanted - result.count
      if bucket.count <= 4096 {
        result += bucket.filter { !favouriteSet.contains($0) }.sorted(by: byRank).prefix(needed)
      } else {
        // Many: the first ones in display order are near its start.
        var taken = 0
        for position in order[languageIndex] where taken < needed {
          if levels[Int(position)] == UInt8(level) && !favouriteSet.contains(position) {
            result.append(position)
            taken += 1
          }
        }
      }
    }
    if result.count < wanted {
      let shown = Set(result)
      result += partial.filter { !shown.contains($0.position) }.sorted { a, b in
        if a.missedCity != b.missedCity { return !a.missedCity }
        if a.missedMatches != b.missedMatches { return a.missedMatches > b.missedMatches }
        return (a.level, rank[Int(a.position)]) < (b.level, rank[Int(b.position)])
      }.map(\.position).prefix(wanted - result.count)
    }
    return Found(ids: result.map { ids[Int($0)] }, total: total, quality: quality, leftOut: leftOut)
  }

  /// How well `query` matches the directory's words (`KeyVocabulary.strength`).
  public func strength(of query: SearchQuery) -> Int? { vocabulary.strength(of: query) }

  private func listing(
    _ order: [Int32], favourites: Set<Int64>, limit: Int, rank: [Int32]
  ) -> [Int64] {
    let favourite = favourites.compactMap { positions[$0] }.sorted { rank[Int($0)] < rank[Int($1)] }
    let favouriteSet = Set(favourite)
    var result = Array(favourite.prefix(max(limit, 0)))
    for position in order where result.count < limit && !favouriteSet.contains(position) {
      result.append(position)
    }
    return result.map { ids[Int($0)] }
  }

  /// Each contact's best level for a group: the best of its alternatives, an
  /// alternative's level being its worst word's. Alternatives with a word the
  /// directory lacks are not looked at (most of an office kind's names).
  private func levels(of group: SearchQuery.Group) -> WordLevels {
    var best = [UInt8](repeating: Self.noMatch, count: ids.count)
    var any = false
    var bestMatch = KeyVocabulary.Match.typo
    // What was typed first: another name of an office kind ranks after every match
    // of the words as typed ("страхова компанія" lists the offices named so first,
    // "residence permits" the Residence Permit Office before the ministry's). But
    // typed words that only share stems with a contact's rank after the other
    // names: "миграционная полиция" is the foreign police, not the ministry's
    // migration policy (whose English "policy" starts like "полиция").
    let stem = UInt8(KeyVocabulary.Match.stem.rawValue * Self.fieldCount)
    for (index, alternative) in group.alternatives.enumerated()
    where alternative.allSatisfy({ vocabulary.hasStart($0) || !$0.stems.isEmpty || $0.typos > 0 }) {
      var worst: [UInt8]?
      var strongest: [UInt8]?
      var worstMatch = KeyVocabulary.Match.exact
      for term in alternative {
        let found = levels(of: term)
        guard found.any else {
          worst = nil
          break
        }
        worstMatch = max(worstMatch, found.bestMatch)
        if var current = worst, var least = strongest {
          for position in current.indices {
            current[position] = max(current[position], found.levels[position])
            least[position] = min(least[position], found.levels[position])
          }
          (worst, strongest) = (current, least)
        } else {
          (worst, strongest) = (found.levels, found.levels)
        }
      }
      guard let worst, let strongest else { continue }
      // Another name of the kind matched: the words were recognized.
      bestMatch = min(bestMatch, index > 0 ? .exact : worstMatch)
      for position in best.indices where worst[position] != Self.noMatch {
        let field = worst[position] % UInt8(Self.fieldCount)
        let level =
          index > 0
          ? Self.otherNameLevel + field
          : strongest[position] >= stem ? Self.weakTypedLevel + field : worst[position]
        if level < best[position] { best[position] = level }
        any = true
      }
    }
    return WordLevels(levels: best, cityExact: false, any: any, bestMatch: bestMatch)
  }

  /// Each contact's best level for a word or a group (`noMatch` when none),
  /// whether the word is the exact key of a city, whether it matched anything, and
  /// its best way of matching.
  struct WordLevels {
    var levels: [UInt8]
    var cityExact: Bool
    var any: Bool
    var bestMatch: KeyVocabulary.Match
  }

  /// Each contact's best level for one query word.
  private func levels(of term: SearchQuery.Term) -> WordLevels {
    var levels = [UInt8](repeating: Self.noMatch, count: ids.count)
    var cityExact = false
    var any = false
    var bestMatch = KeyVocabulary.Match.typo
    vocabulary.matches(term) { word, match in
      any = true
      bestMatch = min(bestMatch, match)
      if match == .exact && !postings[1][word].isEmpty { cityExact = true }
      for field in 0..<Self.fieldCount {
        let level = UInt8(match.rawValue * Self.fieldCount + field)
        for position in postings[field][word] where level < levels[Int(position)] {
          levels[Int(position)] = level
        }
      }
    }
    return WordLevels(levels: levels, cityExact: cityExact, any: any, bestMatch: bestMatch)
  }
}
