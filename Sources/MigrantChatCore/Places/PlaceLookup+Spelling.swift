import Foundation

/// How a name is spelled against the names of the table, and places of one name.
extension PlaceLookup {
  /// How close a name matched is to the text as typed, best last.
  enum Spelling: Int, Comparable {
    /// Only the keys are alike; or the text writes a letter with a mark where the
    /// name has it plain (Holašovice typed, Holasovice found): another name.
    case other
    /// Alike but for case and marks the text leaves out (Olomouc, Ceske Budejovice).
    case folded
    /// Letter for letter, but for case (Katowice, not the Czech village Katovice,
    /// whose key is the same).
    case exact
    static func < (a: Spelling, b: Spelling) -> Bool { a.rawValue < b.rawValue }
  }

  /// How `typed` spells the best of `names`: letter for letter; alike but for case
  /// and marks it leaves out; or otherwise (other letters, or a mark where the name
  /// has none: Holašovice is not Holasovice, though both fold to holasovice).
  static func spelling(of typed: String, as names: [String]) -> Spelling {
    let typedLetters = Array(typed.lowercased())
    let folded = SearchText.fold(typed)
    var best = Spelling.other
    for name in names {
      let letters = Array(name.lowercased())
      if letters == typedLetters { return .exact }
      guard SearchText.fold(name) == folded, letters.count == typedLetters.count else { continue }
      let contradicts = zip(typedLetters, letters).contains { typed, named in
        typed != named && !typed.isASCII && named.isASCII
      }
      if !contradicts { best = .folded }
    }
    return best
  }

  /// Whether `text` has a letter with a diacritical mark (š, ř, é, ů).
  static func hasMarks(_ text: String) -> Bool {
    text.contains {
      $0.isLetter && !$0.isASCII && SearchText.fold(String($0)).allSatisfy(\.isASCII)
    }
  }

  /// The other Czech places of `place`'s name (Nová Ves, Staré Město, Lhota): the
  /// lookup takes the biggest, or the one spelled as typed, and says the others exist.
  public static func namesakes(of place: Place) -> [Place] {
    guard !place.isAbroad else { return [] }
    return (ownNames[SearchText.fold(place.name)] ?? []).map { places[$0] }.filter {
      !$0.isAbroad && ($0.name != place.name || $0.point != place.point)
    }
  }

  /// "Nová Ves, Plzeňský kraj", "Nová Ves (Plzeňský)": of the places of one name, the
  /// one in the region named after a comma or in brackets (as the lookup's note on
  /// namesakes writes them); nil when the text is not so, or no such place is there.
  static func namesake(inRegion text: String) -> Place? {
    guard let cut = text.lastIndex(where: { $0 == "," || $0 == "(" }) else { return nil }
    let name = String(text[..<cut]).trimmingWhitespace()
    let regionKeys = SearchText.keys(String(text[text.index(after: cut)...])).filter {
      !["kraj", "kraji", "region", "hlavni", "mesto", "okres"].contains($0)
    }
    guard let typed = regionKeys.first, regionKeys.count == 1, typed.count >= 4,
      let found = best(name), !found.guessed, !found.place.isAbroad
    else { return nil }
    return ([found.place] + namesakes(of: found.place)).first { place in
      guard let region = place.region else { return false }
      return SearchText.keys(region).contains { $0.hasPrefix(typed) || inflects(typed, $0) }
    }
  }
}
