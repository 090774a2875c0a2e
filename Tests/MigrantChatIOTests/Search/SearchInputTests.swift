import Foundation
import MigrantChatCore
import Testing

@testable import MigrantChatIO

/// Queries nobody designed for: never an error from SQLite, never a slow path,
/// a clear "nothing found" (with suggestions) when nothing matches.
@Suite struct SearchInputTests {
  static func store() throws -> SQLiteContactStore {
    let store = try SQLiteContactStore.inMemory()
    try store.replaceContacts(SampleDirectory.contacts(), source: .sample)
    return store
  }

  static let hostile = [
    "!!!", "...", "\"", "*", "NEAR(", "brno\" OR \"x", "'; DROP TABLE contact; --", "^brno",
    "brno*", "col:brno", String(repeating: "x", count: 10_000),
    String(repeating: "brno praha ", count: 1000), "Брно brno Brno", "😀😀", "😀 brno",
    "e\u{301}\u{301}\u{301}", "\u{200F}مرحبا\u{200F}", "שלום", "\u{202E}onrb", "\0", "\n\t",
    "a AND b OR c NOT d", "()", "{}[]", "%_", "\\",
    // Letters and numbers of other scripts, which FTS5's tokenizer might split into
    // a phrase (an error with detail=none).
    "東京", "กรุงเทพ", "١٢٣ brno", "½ ⅓ ²", "ǅ ﬁ", "𝔅𝔯𝔫𝔬", "Ⅻ", "ا٠ب", "x\u{2044}y",
    // Keys that are letters in the other keyboard layout, alone and in bulk (#34).
    "[[[;;;", "],.'`", "~{}:\"<>|", String(repeating: ",hyj ", count: 500), "ё ъ ї є ґ",
    "00000", "999 99 99999", "OAMP OAMP OAMP OAMP OAMP OAMP OAMP OAMP OAMP",
  ]

  @Test(arguments: hostile)
  func oddQueriesNeverFail(query: String) throws {
    let store = try Self.store()
    for language in Language.allCases {
      _ = try store.search(query, language: language, favourites: [], limit: 20)
      _ = try store.searchFTS(query, language: language, favourites: [], limit: 20)
    }
  }

  /// Text with no letter or digit finds nothing; it does not list the directory.
  @Test func signsAloneFindNothing() throws {
    let store = try Self.store()
    for query in ["!!!", "😀😀", "()"] {
      #expect(try store.search(query, language: .en, favourites: [], limit: 20).total == 0)
      #expect(try store.searchFTS(query, language: .en, favourites: [], limit: 20).total == 0)
    }
    #expect(try store.search("", language: .en, favourites: [], limit: 20).total == 12)
    #expect(try store.search("😀 brno", language: .en, favourites: [], limit: 20).total == 3)
  }

  /// The wrong keyboard layout both ways, read as meant and said so; a query that
  /// matches as typed is never switched (#34).
  @Test func theOtherLayoutIsReadWhenItMatchesBetter() throws {
    let store = try Self.store()
    func search(_ query: String) throws -> SearchResult {
      try store.search(query, language: .ru, favourites: [], limit: 20)
    }
    let prague = try search("ghfuf")
    #expect(prague.readAs == "прага" && Set(prague.contacts.map(\.id)) == [138506, 138507])
    let brno = try search("иктщ")
    #expect(brno.readAs == "brno" && brno.contacts.count == 3)
    // Half switched: the switched word is read, the other stays.
    let police = try search("ghfuf police")
    #expect(police.readAs == "прага police" && police.contacts.map(\.id) == [138507])
    for query in ["brno", "Brünn", "mecova", "letohrad"] {
      #expect(try search(query).readAs == nil, "\(query)")
    }
    // Nothing in either layout: nothing, as typed.
    let nothing = try search("qqqq")
    #expect(nothing.total == 0 && nothing.readAs == nil)
    // Found by testers (#34): a preposition left in Latin goes with the city; Cyrillic
    // typed right is not read as the start of a Latin word ("ЄС" is not `"C`); "[t,"
    // (хеб) is read though its "t" starts words; Ukrainian letters in Ukrainian.
    let inBrno = try store.search("d ,hys", language: .uk, favourites: [], limit: 20)
    #expect(inBrno.readAs == "в брні" && inBrno.contacts.count == 3)
    for typed in ["ЄС", "ЖКГ", "АБВГ", "суух"] {
      #expect(try search(typed).readAs == nil, "\(typed)")
    }
    let centre = try store.search("wtynh", language: .uk, favourites: [], limit: 20)
    #expect(centre.readAs == "центр")
  }

  /// "[t," is хеб typed on the Latin layout: its "t" starts many words, which says
  /// nothing; the other layout's city wins.
  @Test func aWordStartOfOneLetterIsNotSure() throws {
    let store = try SQLiteContactStore.inMemory()
    try store.replaceContacts(try SearchRecallTests.directory(), source: .sample)
    let cheb = try store.search("[t,", language: .ru, favourites: [], limit: 20)
    #expect(cheb.readAs == "хеб" && cheb.contacts.map(\.id) == [900066])
  }

  /// Words that match no office are left out when others match, and named.
  @Test func wordsLeftOutAreNamed() throws {
    let store = try Self.store()
    let result = try store.search("Opava labour", language: .en, favourites: [], limit: 20)
    #expect(result.contacts.map(\.id) == [138504] && result.leftOut == ["Opava"])
    #expect(try store.search("labour", language: .en, favourites: [], limit: 20).leftOut.isEmpty)
    let text = Renderer(width: 80, color: false, language: .ru).render(
      .contactList(
        ContactListing(query: "Opava labour", result: result, favourites: [], isSample: false))
    ).stdout
    #expect(text.hasPrefix("Нет ни в одном учреждении, поэтому не учтено: Opava."))
  }

  /// While the index is not there (a large directory's first search, a failed build),
  /// FTS5 answers: layouts, postcodes and office kinds too.
  @Test func theFallbackReadsLayoutsPostcodesAndKinds() throws {
    let store = try Self.store()
    store.readIndexRows { () throws(DirectoryError) -> [ContactSearchIndex.Row] in
      throw .storage(detail: "planted")
    }
    func ids(_ query: String) throws -> (Set<Int64>, String?) {
      let result = try store.search(query, language: .en, favourites: [], limit: 20)
      return (Set(result.contacts.map(\.id)), result.readAs)
    }
    #expect(try ids(",hyj") == ([138503, 138504, 138505], "брно"))
    #expect(try ids("60200") == ([138503], nil))
    #expect(try ids("602 00") == ([138503], nil))
    #expect(try ids("OAMP") == ([138505], nil))
    #expect(try ids("центр занятости") == ([138504], nil))
    // A one-letter start found is weaker than a word of the other layout.
    #expect(try ids("[jhjij").1 == nil)
    let store2 = try SQLiteContactStore.inMemory()
    try store2.replaceContacts(try SearchRecallTests.directory(), source: .sample)
    store2.readIndexRows { () throws(DirectoryError) -> [ContactSearchIndex.Row] in
      throw .storage(detail: "planted")
    }
    let cheb = try store2.search("[t,", language: .ru, favourites: [], limit: 20)
    #expect(cheb.readAs == "хеб" && cheb.contacts.map(\.id) == [900066])
  }

  /// The FTS5 fallback (while a large index is built) reads the same keys and stems.
  @Test func theFallbackMatchesScriptsAndForms() throws {
    let store = try Self.store()
    func fts(_ query: String, _ language: Language = .ru) throws -> Set<Int64> {
      Set(
        try store.searchFTS(query, language: language, favourites: [], limit: 50).contacts.map(\.id)
      )
    }
    #expect(try fts("брно") == [138503, 138504, 138505])
    #expect(try fts("Olmütz", .en) == [138511])
    #expect(try fts("страхового") == [138508])
  }

  @Test func nothingFoundSuggestsNamesAndCities() throws {
    let store = try Self.store()
    let brmo = try store.search("Brmo", language: .en, favourites: [], limit: 20)
    #expect(brmo.total == 0)
    #expect(brmo.suggestions.first == "Brno")
    let olomauts = try store.search("olomoutz", language: .en, favourites: [], limit: 20)
    #expect(olomauts.suggestions.contains("Olomouc"))
    #expect(try store.search("qqqqqq", language: .en, favourites: [], limit: 20).suggestions == [])
  }

  @Test func snowballStemsEnglishAndRussian() {
    let stemmer = SnowballStemmer.shared
    #expect(stemmer.stem("families", language: .english) == "famili")
    #expect(stemmer.stem("страхового", language: .russian) == "страхов")
    #expect(stemmer.stem("іноземців", language: .ukrainian) == "іноземц")
    #expect(stemmer.stem(String(repeating: "a", count: 500), language: .english).count == 500)
  }
}
