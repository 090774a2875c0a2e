/// Small words a query need not match: prepositions, conjunctions, articles and
/// question words in English, Russian and Ukrainian ("centre in Brno",
/// "страховка в Праге", "де знайти житло у Брні").
///
/// They are left out of a query that has other words; a query of small words
/// alone is searched as it is. Kept as keys (`SearchText.key`), so "в" and "v"
/// are one entry.
public enum StopWords {
  static let words: [String] = [
    // English
    "a", "an", "the", "in", "at", "on", "of", "for", "to", "and", "or", "with", "near", "my",
    "i", "me", "is", "are", "do", "does", "can", "how", "where", "what", "get", "find",
    "need", "office", "offices",
    // Russian
    "в", "во", "на", "у", "к", "ко", "с", "со", "о", "об", "от", "до", "для", "по", "из", "и",
    "или", "а", "мне", "я", "где", "как", "что", "найти", "нужно", "нужен", "нужна",
    // Ukrainian
    "та", "й", "і", "або", "з", "із", "зі", "від", "для", "де", "як", "що", "мені", "знайти",
    "потрібно", "потрібен", "потрібна",
  ]

  static let keys: Set<String> = Set(words.map(SearchText.key))

  public static func contains(key: String) -> Bool { keys.contains(key) }
}
