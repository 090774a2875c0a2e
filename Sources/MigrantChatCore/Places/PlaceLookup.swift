import Foundation
import Synchronization

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
/// at a time ("Brno Bohunice" is Brno), longest first, but not for typos. A name
/// spelled as typed comes before one alike but for marks (Koštice, Kostice), and a
/// mark typed where the name has none makes it a guess (Holašovice is not
/// Holasovice); of places of one name the biggest is taken and the others named
/// (`namesakes(of:)`), and a region after a comma picks one (Nová Ves, Liberecký kraj).
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

  /// `preferring`: the layout read first where both read a name (the interface's,
  /// `KeyboardLayout.preferred(for:)`).
  public static func find(_ text: String, preferring: KeyboardLayout = .russian) -> Outcome {
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
    if let chosen = namesake(inRegion: trimmed) {
      return .place(chosen, readAs: nil, guessed: false)
    }
    let typed = best(trimmed)
    if let typed, !typed.guessed { return outcome(typed, readAs: nil) }
    // The other keyboard layout, before a guess at what was typed: read as every other
    // search reads a query (`KeyboardLayout.readings`), word by word ("около ,hyj" is
    // около Брно), then all of it in each layout.
    for reading in KeyboardLayout.readings(of: trimmed, preferring: preferring, strength: strength)
    {
      if let found = best(reading), !found.guessed { return outcome(found, readAs: reading) }
    }
    if let typed { return outcome(typed, readAs: nil) }
    return .unknown(suggestions: suggestions(trimmed))
  }

  /// A Czech place by a name as the data API writes a city ("Brno", "Praha 4",
  /// "Ústí n. L." is not found): the whole name or an inflected one, never a typo.
  public static func czechPlace(named name: String) -> Place? {
    if let cached = towns.withLock({ $0[name] }) { return cached }
    let place = lookUpTown(name)
    towns.withLock { cache in
      if cache.count >= 10_000 { cache.removeAll() }
      cache[name] = .some(place)
    }
    return place
  }

  /// Towns of the data API's offices, looked up once for every list and card.
  private static let towns = Mutex<[String: Place?]>([:])

  private static func lookUpTown(_ name: String) -> Place? {
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

  /// How well one word (a chunk of a query) names a place, for
  /// `KeyboardLayout.readings`: on `KeyVocabulary.Match`'s scale, lower is better,
  /// a typo never counts (nil); a word around a name (около, u) is known as typed.
  /// The word's keys are read as `best` reads a query's: exonyms replaced, then as
  /// typed or transliterated ("Пршерова" is Přerov's).
  static func strength(_ chunk: String) -> Int? {
    let keys = PlaceNames.replacingExonyms(SearchText.keys(chunk))
    guard !keys.isEmpty else { return nil }
    if keys.allSatisfy(fillers.contains) { return KeyVocabulary.Match.exact.rawValue }
    let tiers: Set<Tier> = [.exact, .inflected, .start, .part]
    let found = [keys, transliterated(keys)].compactMap { reading in
      reading.flatMap { matches(for: $0, tiers: tiers).first }
    }.min { $0.tier < $1.tier }
    switch found?.tier {
    case nil: return nil
    case .exact?: return KeyVocabulary.Match.exact.rawValue
    // In `Tier`'s order: an inflected name before the start or a part of one.
    case .inflected?: return KeyVocabulary.Match.prefix.rawValue
    case .start?, .part?, .typo?: return KeyVocabulary.Match.stem.rawValue
    }
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
    var spelling = Spelling.other
    /// The name matched, as the table writes it.
    var name: String
    /// A typo, or some words of the query left out: a guess, said as one.
    var guessed = false
    /// The query's words are the first words of the name, letter for letter: ahead
    /// of an inflected name ("Roznov" is Rožnov pod Radhoštěm before Rožná's "Rožnov").
    var startsAsTyped = false

    /// The tier, with the start of a name typed letter for letter between the whole
    /// name and an inflected one.
    var order: Double {
      tier == .start && startsAsTyped ? 0.5 : Double(tier.rawValue)
    }
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

  /// Places by their own name, folded (lowercase, no diacritics).
  static let ownNames: [String: [Int]] = {
    var names: [String: [Int]] = [:]
    for (index, place) in places.enumerated() {
      names[SearchText.fold(place.name), default: []].append(index)
    }
    return names
  }()

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

  /// The entries with a word starting with each two letters: the only ones that can
  /// match a query whose first word starts so, but by a typo (exact, inflected, the
  /// start or a part of a name all begin a name's word with the query's first letters).
  static let byStart: [String: [Int]] = {
    var buckets: [String: Set<Int>] = [:]
    for (index, entry) in entries.enumerated() {
      for word in entry.keys { buckets[String(word.prefix(2)), default: []].insert(index) }
    }
    return buckets.mapValues { $0.sorted() }
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
    let spelled = text.trimmingWhitespace()
    // A place's own name as typed (Olomouc, praha, Ceske Budejovice) needs no other
    // name's keys: found before they are made (a lookup's process is 14 ms shorter).
    // The name spelled letter for letter comes first (Koštice, not Kostice); a name
    // whose marks the text contradicts (Holašovice is not Holasovice) is left to the
    // full search below, which finds it as a guess when nothing better is there.
    if let indices = ownNames[SearchText.fold(spelled)] {
      var found: Match?
      for place in indices.map({ places[$0] }) {
        let spelling = spelling(of: spelled, as: [place.name])
        guard spelling != .other else { continue }
        let match = Match(
          place: place, tier: .exact, ownName: true, spelling: spelling, name: place.name)
        if found.map({ better(match, than: $0) }) ?? true { found = match }
      }
      if let found { return found }
    }
    let keys = PlaceNames.replacingExonyms(SearchText.keys(text))
    guard !keys.isEmpty, keys.count <= 12 else { return nil }
    // The words around a name, not those inside it ("Bystřice pod Hostýnem" keeps
    // its "pod").
    var query = ArraySlice(keys)
    while query.count > 1, let first = query.first, fillers.contains(first) { query.removeFirst() }
    while query.count > 1, let last = query.last, fillers.contains(last) { query.removeLast() }
    let readings = [Array(query)] + [transliterated(Array(query))].compactMap { $0 }
    if var found = matches(for: keys, tiers: [.exact, .inflected], spelled: spelled).first {
      // Every name of it contradicts the marks typed: the closest name, not the one typed.
      if found.tier == .exact, found.spelling == .other, hasMarks(spelled) { found.guessed = true }
      return found
    }
    for reading in readings {
      if let found = matches(for: reading, tiers: [.exact, .inflected, .start, .part]).first {
        return found
      }
    }
    if var found = matches(for: Array(query), tiers: [.typo]).first {
      found.guessed = true
      return found
    }
    guard query.count > 1 else { return nil }
    // A run of the words, the longest first; of runs as long, the best match
    // ("malapit sa Pardubice": Pardubice whole, not Malá Strana from "malapit").
    let words = Array(query)
    for length in stride(from: words.count - 1, through: 1, by: -1) {
      let found = (0...(words.count - length)).compactMap { start -> Match? in
        let run = Array(words[start..<start + length])
        guard run.joined().count >= 3 else { return nil }
        return matches(for: run, tiers: [.exact, .inflected, .start]).first
      }
      if var best = found.min(by: better) {
        best.guessed = true
        return best
      }
    }
    return nil
  }

  /// The query's words as Czech spells what Latin transliterations of Russian and
  /// Ukrainian write (`ts` for ц, `rsh`/`rzh` for ř: Libertse, Trshesht'), when that
  /// changes them; nil otherwise.
  static func transliterated(_ words: [String]) -> [String]? {
    let changed = words.map { word in
      word.replacingOccurrences(of: "rs", with: "r").replacingOccurrences(of: "rz", with: "r")
        .replacingOccurrences(of: "ts", with: "c")
    }
    return changed == words ? nil : changed
  }

  /// Every place `keys` names in one of `tiers`, best first; `spelled`: the text as
  /// typed, to prefer a name spelled so.
  static func matches(for keys: [String], tiers: Set<Tier>, spelled: String? = nil) -> [Match] {
    let joined = Array(keys.joined(separator: " ").utf8)
    let typos = EditDistance.allowedTypos(letters: joined.count)
    var found: [Int: Match] = [:]
    let candidates =
      tiers.contains(.typo)
      ? Array(entries.indices) : byStart[String(keys.first?.prefix(2) ?? "")] ?? []
    for entry in candidates.lazy.map({ entries[$0] }) {
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
      var match = Match(
        place: places[entry.place], tier: tier, ownName: entry.ownName, name: entry.name)
      match.startsAsTyped = tier == .start && Array(entry.keys.prefix(keys.count)) == keys
      if let spelled, tier == .exact {
        let names = [match.place.name] + match.place.otherNames
        // The very spelling typed (Vídeň), else one that differs in case or in marks
        // the text leaves out.
        let typed = spelled.lowercased()
        if let same = names.first(where: { $0.lowercased() == typed }) {
          match.spelling = .exact
          match.name = same
        } else if let same = names.first(where: { spelling(of: spelled, as: [$0]) == .folded })
          // Other names often come without marks (GeoNames' Budejovice of České
          // Budějovice): no contradiction; only the place's own name is spelled on signs.
          ?? match.place.otherNames.first(where: {
            SearchText.fold($0) == SearchText.fold(spelled)
          })
        {
          match.spelling = .folded
          match.name = same
        }
      }
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
    if a.order != b.order { return a.order < b.order }
    if a.spelling != b.spelling { return a.spelling > b.spelling }
    if a.place.isAbroad != b.place.isAbroad { return !a.place.isAbroad }
    if a.ownName != b.ownName { return a.ownName }
    if a.place.population != b.place.population { return a.place.population > b.place.population }
    return a.place.name < b.place.name
  }

  /// Whether `typed` is `word` with another ending: the word, or its stem (without a
  /// last vowel; without the e that Czech drops: Hradec, Hradce; with the ů of a
  /// possessive as o: Jindřichův, Jindřichově; k and h as c and z: Poličce, Praze),
  /// then one of the case endings (`endings`: Brna, Brnem, Оломоуца, Пардубіцях).
  /// Stems are three letters or more.
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
    // k and h become c and z before an ending, where a vowel was dropped: Polička,
    // v Poličce; Praha, v Praze. Not otherwise: Hrádek is v Hrádku, and "Hradec" or
    // "u Hradce" is Hradec.
    let dropped = word.last.map { vowels.contains($0) } == true ? [String(word.dropLast())] : []
    let softened = dropped.filter { $0.hasSuffix("k") || $0.hasSuffix("h") }.map { stem in
      let base = String(stem.dropLast())
      let soft: Character = stem.hasSuffix("k") ? "c" : "z"
      // Keys write a doubled letter once: Poličce is "police".
      return base.last == soft ? base : base + String(soft)
    }
    if softened.contains(where: {
      typed.hasPrefix($0) && typed.count > $0.count
        && endings.contains(String(typed.dropFirst($0.count))) && $0.count >= 3
    }) {
      return true
    }
    // Czech ů is o before an ending: Dvůr, ve Dvoře; Jindřichův, Jindřichova.
    if letters.count >= 3, letters[letters.count - 2] == "u", let last = letters.last,
      !vowels.contains(last)
    {
      stems.append(String(letters.dropLast(2)) + "o" + String(last))
    }
    return stems.contains { stem in
      stem.count >= 3 && typed.hasPrefix(stem)
        && endings.contains(String(typed.dropFirst(stem.count)))
    }
  }

  /// Case endings of Czech, Russian and Ukrainian as keys spell them (я is `ja`, х is
  /// `ch`): only these follow a stem, so Benešovice is not Benešov, Ostrovec not
  /// Ostrov, and "limit" not Lima.
  static let endings: Set<String> = [
    "", "a", "e", "i", "o", "u", "ja", "je", "ji", "ju", "em", "om", "im", "um", "am", "ou",
    "oj", "oju", "eju", "ej", "ij", "ach", "jach", "ech", "ich", "ami", "jami", "ovi", "evi",
    "ego", "oho", "eho", "omu", "emu", "ov", "ev",
    // As phones spell them in Latin letters (Prahoyu, y being i), and Polish ones.
    "ia", "ie", "iu", "oiu", "eiu", "m", "mi",
  ]

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
