/// The cities and the words of names a directory has, as written, for
/// "Did you mean Olomouc?" when a search finds nothing.
public struct SuggestionWords: Sendable {
  /// Key → the word as the data writes it (the first seen), cities before name words.
  private let cities: [(key: [UInt8], text: String)]
  private let words: [(key: [UInt8], text: String)]

  /// From the cities and the names as the data writes them.
  public init(cities cityNames: [String], names: [String]) {
    var cities: [String: String] = [:]
    var words: [String: String] = [:]
    for city in cityNames where !city.isEmpty {
      let key = SearchText.keys(city).joined(separator: " ")
      if cities[key] == nil { cities[key] = city }
    }
    for name in names {
      // Words with digits (house numbers, ids in names) are never what was meant.
      for word in SearchText.words(name)
      where word.count >= 3 && !word.contains(where: \.isNumber) {
        let key = SearchText.key(word)
        if words[key] == nil { words[key] = word }
      }
    }
    self.cities = cities.map { (Array($0.key.utf8), $0.value) }.sorted { $0.text < $1.text }
    self.words = words.map { (Array($0.key.utf8), $0.value) }.sorted { $0.text < $1.text }
  }

  /// Up to `limit` cities and name words closest to the query's words: for each
  /// word of three letters or more, what is within a few edits (one for short
  /// words, up to three for long ones), closest first, cities first among equals.
  public func closest(to query: SearchQuery, limit: Int = 3) -> [String] {
    var found: [(distance: Int, isCity: Bool, text: String)] = []
    for term in query.terms where term.key.count >= 3 {
      let key = Array(term.key.utf8)
      let bound = key.count <= 4 ? 1 : key.count <= 8 ? 2 : 3
      for (isCity, list) in [(true, cities), (false, words)] {
        for candidate in list {
          // A city of several words is compared word by word and as a whole.
          let parts = candidate.key.split(separator: UInt8(ascii: " "))
          let distances = ([candidate.key[...]] + (parts.count > 1 ? parts : [])).compactMap {
            EditDistance.within(key, $0, bound: bound)
          }
          if let distance = distances.min() {
            found.append((distance, isCity, candidate.text))
          }
        }
      }
    }
    var chosen: [String] = []
    for candidate in found.sorted(by: {
      ($0.distance, $0.isCity ? 0 : 1, $0.text) < ($1.distance, $1.isCity ? 0 : 1, $1.text)
    }) where chosen.count < limit {
      // A word already offered as part of a city ("Králové" of "Hradec Králové") is not
      // offered again.
      guard !chosen.contains(where: { $0 == candidate.text || $0.contains(candidate.text) })
      else { continue }
      chosen.append(candidate.text)
    }
    return chosen
  }
}
