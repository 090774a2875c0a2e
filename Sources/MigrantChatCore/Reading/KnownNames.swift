/// Names a typed line keeps as written: the places of the built-in tables (Brno,
/// Praha, Olomouc, Kharkiv…), as written there or without diacritics. The chat
/// adds the directory's office names and streets.
public enum KnownNames {
  /// The words of the places' Latin names, lowercase and folded ("usti", "labem").
  static let placeWords: Set<String> = {
    var words: Set<String> = []
    for place in PlaceTable.czech + PlaceTable.abroad {
      for name in [place.name] + place.otherNames {
        for word in name.lowercased().split(whereSeparator: { !$0.isLetter }) where word.count >= 3
        {
          guard word.unicodeScalars.allSatisfy({ $0.value < 0x250 }) else { continue }
          words.insert(TypedLineReader.folded(String(word)))
        }
      }
    }
    // Words of place names that are also common words and say nothing of a place.
    words.subtract([
      "nad", "pod", "pri", "horni", "dolni", "nove", "nova", "novy", "stare", "stara",
    ])
    return words
  }()

  /// Whether `word` (a word as typed, capitalised) names a place the tables know.
  public static func isName(_ word: String) -> Bool {
    guard word.count >= 3, word.first?.isUppercase == true else { return false }
    return placeWords.contains(TypedLineReader.folded(word.lowercased()))
  }
}
