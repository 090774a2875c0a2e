/// How well a query matched what it searched, to choose between its readings
/// (as typed, or as the other keyboard layout would have it): fewer of its
/// words left unmatched is better, then a result that matches all the others,
/// then the better way of matching (`KeyVocabulary.Match`: exact, prefix, stem,
/// typo). The number of words matched does not count: "d праге" (the `в` of
/// "в праге" left in the Latin layout) matches two, but "в праге" is meant.
public struct SearchQuality: Sendable, Comparable {
  /// Words (and groups) of the query that matched something.
  public var matchedUnits: Int
  /// Words (and groups) of the query that matched nothing.
  public var unmatchedUnits: Int
  /// Whether some result matched every word that matched anything.
  public var complete: Bool
  /// The best result's worst way of matching (`KeyVocabulary.Match.rawValue`);
  /// `noMatch` when nothing was found.
  public var bestMatch: Int
  /// The worst of the matched words' best ways of matching anything: a typo here
  /// (`иктщ` is one letter from some word) is worth reading in the other layout.
  public var worstWordMatch = 0

  public static let noMatch = 4
  public static let none = SearchQuality(
    matchedUnits: 0, unmatchedUnits: 0, complete: false, bestMatch: noMatch)

  public init(matchedUnits: Int, unmatchedUnits: Int, complete: Bool, bestMatch: Int) {
    self.matchedUnits = matchedUnits
    self.unmatchedUnits = unmatchedUnits
    self.complete = complete
    self.bestMatch = bestMatch
  }

  /// Whether a reading this good needs no other: every word matched something
  /// without a typo (together or not: "brno masarykova" may find nothing, but
  /// both are words of the directory, not of another layout).
  public var isSure: Bool {
    matchedUnits > 0 && unmatchedUnits == 0 && worstWordMatch < KeyVocabulary.Match.typo.rawValue
  }

  /// Alike as `<` sees them: neither is a better reading.
  public static func == (a: SearchQuality, b: SearchQuality) -> Bool { !(a < b) && !(b < a) }

  public static func < (a: SearchQuality, b: SearchQuality) -> Bool {
    if a.matchedUnits == 0 || b.matchedUnits == 0 { return a.matchedUnits < b.matchedUnits }
    if a.unmatchedUnits != b.unmatchedUnits { return a.unmatchedUnits > b.unmatchedUnits }
    if a.complete != b.complete { return !a.complete }
    return a.bestMatch > b.bestMatch
  }
}
