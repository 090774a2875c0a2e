import Foundation

/// Finds the place a person means, however they write it: `Olomouc`, `olomouc`,
/// `Оломоуц`, `Olmütz`, `около Оломоуца`, `біля Оломоуца`, `u Olomouce`, with a
/// typo (`Olomuc`), in the other keyboard layout, or coordinates (`49.59,17.25`).
///
/// Names go through `SearchText.keys`, so Cyrillic and Latin spellings meet
/// (Оломоуц and Olomouc are both `olomouc`). Then, best first: the whole name; an
/// inflected name (each word the name's stem and an ending of up to three letters:
/// Оломоуца, Olomouce, Brna, Hradce Králové); the first words of a longer name
/// (Hradec → Hradec Králové, not Hrádek); a typo in the whole name. Among equals, Czech places
/// before those abroad, a place's own name before its other names, the bigger
/// place first. A query of several words is tried whole, then a run of its words
/// at a time ("Brno Bohunice" is Brno), longest first, but not for typos.
public enum PlaceLookup {
  public enum Outcome: Sendable, Hashable {
    /// A place of the tables (in Czechia, or near it abroad); `readAs`: the text as
    /// read in the other keyboard layout, when it was.
    ///
    /// `guessed`: not found as typed, but as the closest name (a typo, or some of the
    /// words): said, and `/place` does not keep it without being asked again.
    case place(Place, readAs: String?, guessed: Bool)
    /// Coordinates.
    case point(GeoPoint)
    /// A place abroad too far for the directory (Kyiv, Vienna's capital is near).
    case abroad(Place)
    /// Nothing matched; the closest Czech names, if any are close.
    case unknown(suggestions: [String])
    case empty
    /// Longer than `maxCharacters`: nobody's place name is that long.
    case tooLong
    case outOfRange(latitude: Double, longitude: Double)
  }

  /// No place name is longer (the longest Czech one is about 40 characters).
  public static let maxCharacters = 200

  /// How far from the nearest Czech place a place abroad still counts as near, in km.
  public static let nearAbroad = 100.0

  public static func find(_ text: String) -> Outcome {
    // Escape sequences and control characters pasted with a name are not part of it.
    let trimmed = TerminalSanitizer.clean(text, keepNewlines: false).trimmingWhitespace()
    guard !trimmed.isEmpty else { return .empty }
    guard trimmed.count <= maxCharacters else { return .tooLong }
    switch GeoPoint.parse(trimmed) {
    case .point(let point): return .point(point)
    case .outOfRange(let latitude, let longitude):
      return .outOfRange(latitude: latitude, longitude: longitude)
    case .notCoordinates: break
    }
    let typed = best(trimmed)
    if let typed, !typed.guessed { return outcome(typed, readAs: nil) }
    // The other keyboard layout, before a guess at what was typed.
    for layout in KeyboardLayout.allCases {
      if let switched = layout.switched(trimmed), switched != trimmed,
        let found = best(switched), !found.guessed
      {
        return outcome(found, readAs: switched)
      }
    }
    if let typed { return outcome(typed, readAs: nil) }
    return .unknown(suggestions: suggestions(trimmed))
  }

  /// A Czech place by a name as the data API writes a city ("Brno", "Praha 4",
  /// "Ústí n. L." is not found): the whole name or an inflected one, never a typo.
  public static func czechPlace(named name: String) -> Place? {
    let keys = SearchText.keys(name)
    guard !keys.isEmpty, keys.count <= 6 else { return nil }
    let found = matches(for: keys, tiers: [.exact, .inflected]).first { !$0.place.isAbroad }
    if let found { return found.place }
    // "Praha 4", "Brno-Bohunice": the first words.
    for length in stride(from: keys.count - 1, through: 1, by: -1) {
      if let found = matches(for: Array(keys.prefix(length)), tiers: [.exact]).first(where: {
        !$0.place.isAbroad
      }) {
        return found.place
      }
    }
    return nil
  }

  private static func outcome(_ match: Match, readAs: String?) -> Outcome {
    var place = match.place
    guard place.isAbroad else { return .place(place, readAs: readAs, guessed: match.guessed) }
    // Abroad, the name as it was matched ("Відень", "Wien"), not GeoNames' English one.
    place.name = match.name
    let nearest = PlaceTable.czech.lazy.map { $0.point.distance(to: place.point) }.min() ?? 0
    return nearest <= nearAbroad
      ? .place(place, readAs: readAs, guessed: match.guessed) : .abroad(place)
  }

  // MARK: - Matching

  enum Tier: Int, Comparable {
    /// The whole name; inflected; its first words (Hradec, u Hradce); other words of
    /// it (Místek of Frýdek-Místek); one or two typos in the whole name.
    case exact, inflected, start, part, typo
    static func < (a: Tier, b: Tier) -> Bool { a.rawValue < b.rawValue }
  }

  struct Match {
    var place: Place
    var tier: Tier
    var ownName: Bool
    /// The name matched, as the table writes it.
    var name: String
    /// A typo, or some words of the query left out: a guess, said as one.
    var guessed = false
  }

  /// One name of a place, as keys.
  struct Entry {
    var name: String
    var keys: [String]
    var joined: [UInt8]
    var place: Int
    var abroad: Bool
    var ownName: Bool
  }

  static let places: [Place] = PlaceTable.czech + PlaceTable.abroad

  static let entries: [Entry] = {
    var entries: [Entry] = []
    for (index, place) in places.enumerated() {
      var seen = Set<[String]>()
      let own = SearchText.keys(place.name)
      for (number, name) in ([place.name] + place.otherNames).enumerated() {
        let keys = SearchText.keys(name)
        guard !keys.isEmpty, seen.insert(keys).inserted else { continue }
        // A short form of the name ("Hradec" of Hradec nad Moravicí) is no better than
        // the start of any other name: "Hradec" is Hradec Králové, the biggest.
        if number > 0, keys.count < own.count, Array(own.prefix(keys.count)) == keys { continue }
        entries.append(
          Entry(
            name: name, keys: keys, joined: Array(keys.joined(separator: " ").utf8), place: index,
            abroad: place.isAbroad, ownName: number == 0))
      }
    }
    return entries
  }()

  /// Words around a place name that are not part of it: "около", "біля", "u", "near".
  static let fillers: Set<String> = Set(
    [
      "около", "возле", "рядом", "с", "со", "в", "во", "у", "близ", "недалеко", "от", "под",
      "город", "городе", "г", "біля", "поблизу", "поруч", "з", "із", "коло", "під", "місто",
      "місті", "u", "v", "ve", "blízko", "poblíž", "kolem", "okolí", "nedaleko", "město",
      "obec", "near", "in", "around", "close", "to", "city", "town", "of", "the", "village",
      "bei", "nahe",
      // The same words as people spell them in Latin letters on a phone.
      "bilia", "bilya", "bila", "kolo", "poblyzu", "bliz", "vozle", "ryadom", "riadom",
    ].map { SearchText.key($0) })

  /// The best match: the words as typed (fillers and all: Nové Město, Rožnov pod
  /// Radhoštěm), then without the words around a name (около, u, near), then with a
  /// typo, then a run of the words (a guess, as the rest is left out).
  static func best(_ text: String) -> Match? {
    let keys = PlaceNames.replacingExonyms(SearchText.keys(text))
    guard !keys.isEmpty, keys.count <= 12 else { return nil }
    let meaningful = keys.filter { !fillers.contains($0) }
    let query = meaningful.isEmpty ? keys : meaningful
    if let found = matches(for: keys, tiers: [.exact, .inflected]).first { return found }
    if let found = matches(for: query, tiers: [.exact, .inflected, .start, .part]).first {
      return found
    }
    if var found = matches(for: query, tiers: [.typo]).first {
      found.guessed = true
      return found
    }
    guard query.count > 1 else { return nil }
    for length in stride(from: query.count - 1, through: 1, by: -1) {
      for start in 0...(query.count - length) {
        let run = Array(query[start..<start + length])
        guard run.joined().count >= 3 else { continue }
        if var found = matches(for: run, tiers: [.exact, .inflected, .start]).first {
          found.guessed = true
          return found
        }
      }
    }
    return nil
  }

  /// Every place `keys` names in one of `tiers`, best first.
  static func matches(for keys: [String], tiers: Set<Tier>) -> [Match] {
    let joined = Array(keys.joined(separator: " ").utf8)
    let typos = EditDistance.allowedTypos(letters: joined.count)
    var found: [Int: Match] = [:]
    for entry in entries {
      let tier: Tier
      if entry.keys == keys {
        tier = .exact
      } else if entry.keys.count == keys.count, inflect(keys, entry.keys[...]) {
        tier = .inflected
      } else if entry.keys.count > keys.count, keys.joined().count >= 4,
        inflect(keys, entry.keys.prefix(keys.count))
      {
        tier = .start
      } else if tiers.contains(.part), entry.keys.count > keys.count, keys.joined().count >= 5,
        (1...(entry.keys.count - keys.count)).contains(where: {
          inflect(keys, entry.keys[$0..<$0 + keys.count])
        })
      {
        tier = .part
      } else if typos > 0, tiers.contains(.typo), abs(entry.joined.count - joined.count) <= typos,
        EditDistance.within(joined, entry.joined[...], bound: typos) != nil
      {
        tier = .typo
      } else {
        continue
      }
      // A place abroad by its whole name only: an ending, a typo or a part of the name
      // of one of the world's capitals is more often a Czech word misread (limit, Lima).
      guard tiers.contains(tier), !entry.abroad || tier == .exact else { continue }
      let match = Match(
        place: places[entry.place], tier: tier, ownName: entry.ownName, name: entry.name)
      if let other = found[entry.place], !better(match, than: other) { continue }
      found[entry.place] = match
    }
    return found.values.sorted(by: better)
  }

  /// Whether each of `typed` is its word of `words` with another ending.
  static func inflect(_ typed: [String], _ words: ArraySlice<String>) -> Bool {
    typed.count == words.count && zip(typed, words).allSatisfy { inflects($0, $1) }
  }

  static func better(_ a: Match, than b: Match) -> Bool {
    if a.tier != b.tier { return a.tier < b.tier }
    if a.place.isAbroad != b.place.isAbroad { return !a.place.isAbroad }
    if a.ownName != b.ownName { return a.ownName }
    if a.place.population != b.place.population { return a.place.population > b.place.population }
    return a.place.name < b.place.name
  }

  /// Whether `typed` is `word` with another ending: the word, or its stem (without a
  /// last vowel; without the e that Czech drops: Hradec, Hradce; with the ů of a
  /// possessive as o: Jindřichův, Jindřichově), then up to two letters after a stem
  /// of three (Brna, Brnem; not Valmez for Vali), four after a longer one
  /// (Пардубіцях, Лазнях: х is two letters of the key).
  static func inflects(_ typed: String, _ word: String) -> Bool {
    if typed == word { return true }
    guard word.count >= 4, typed.count >= 3 else { return false }
    var stems = [word]
    let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
    if let last = word.last, vowels.contains(last) { stems.append(String(word.dropLast())) }
    let letters = Array(word)
    if letters.count >= 4, letters[letters.count - 2] == "e",
      let last = letters.last, !vowels.contains(last)
    {
      stems.append(String(letters.dropLast(2)) + String(last))
    }
    // Czech ů is o before an ending: Dvůr, ve Dvoře; Jindřichův, Jindřichova.
    if letters.count >= 3, letters[letters.count - 2] == "u", let last = letters.last,
      !vowels.contains(last)
    {
      stems.append(String(letters.dropLast(2)) + "o" + String(last))
    }
    return stems.contains { stem in
      stem.count >= 3 && typed.hasPrefix(stem)
        && typed.count - stem.count <= (stem.count >= 4 ? 4 : 2)
    }
  }

  /// The Czech names closest to `text`, for "did you mean": at most three, the
  /// nearest and biggest first, and only names a typo or two away.
  static func suggestions(_ text: String) -> [String] {
    let keys = SearchText.keys(text).filter { !fillers.contains($0) }
    let joined = Array(keys.joined(separator: " ").utf8)
    guard joined.count >= 3 else { return [] }
    // A short name gets one letter wrong at most: Zliv is not what "Львів" meant.
    let bound = joined.count >= 6 ? max(2, joined.count / 3) : 1
    var close: [(name: String, distance: Int, population: Int)] = []
    var seen = Set<String>()
    for entry in entries where !entry.abroad {
      guard abs(entry.joined.count - joined.count) <= bound,
        let distance = EditDistance.within(joined, entry.joined[...], bound: bound)
      else { continue }
      let place = places[entry.place]
      guard seen.insert(place.name).inserted else { continue }
      close.append((place.name, distance, place.population))
    }
    return close.sorted {
      ($0.distance, -$0.population, $0.name) < ($1.distance, -$1.population, $1.name)
    }.prefix(3).map(\.name)
  }
}
