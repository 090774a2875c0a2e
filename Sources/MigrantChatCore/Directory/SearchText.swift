import Foundation

/// The form text is searched in: lowercase, without diacritics.
///
/// "Mečová" and "mecova" fold to the same text, as do "Brno" and "BRNO";
/// Cyrillic keeps its letters (й and ё fold to и and е, which people type
/// interchangeably). Used on both the indexed text and the query.
public enum SearchText {
  public static func fold(_ text: String) -> String {
    text.folding(
      options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil
    )
    .precomposedStringWithCanonicalMapping
  }

  /// The words of a query, folded, for prefix matching ("leto" finds Letohrad).
  public static func terms(_ query: String) -> [String] {
    fold(query).split { !$0.isLetter && !$0.isNumber }.map(String.init)
  }
}
