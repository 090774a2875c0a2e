import Foundation
import Testing

@testable import MigrantChatCore

/// The text pipeline every search shares: keys, other city names, small words,
/// stems, typos, and the ranking of the contact index.
@Suite struct SearchTextKeyTests {
  /// Cyrillic and Latin spellings of a name meet in one key (Czech h is г, soft
  /// signs go, и/і/y are all i, doubled letters are one).
  @Test(arguments: [
    ("Брно", "Brno"), ("Градец", "Hradec"), ("Йиглава", "Jihlava"), ("Їглава", "Jihlava"),
    ("Оломоуць", "Olomouc"), ("Оломоуц", "Olomouc"), ("Дечин", "Děčín"), ("Ліберець", "Liberec"),
    ("Карловы", "Karlovy"), ("Карлові", "Karlovy"), ("Пльзень", "Plzeň"), ("Хомутов", "Chomutov"),
    ("Злін", "Zlín"), ("imigration", "immigration"), ("ŽIŽKOVA", "zizkova"),
  ])
  func spellingsMeet(cyrillic: String, latin: String) {
    #expect(SearchText.key(cyrillic) == SearchText.key(latin), "\(cyrillic) \(latin)")
  }

  @Test func wordsDigitsAndSigns() {
    #expect(
      SearchText.keys("Úřad práce, Brno-střed 602 00") == [
        "urad", "prace", "brno", "stred", "602", "00",
      ])
    // Apostrophes of every shape are inside a word; digits are never merged.
    #expect(
      SearchText.keys("Зв'язатися Зв’язатися Звʼязатися") == [
        "zvjazatisja", "zvjazatisja", "zvjazatisja",
      ])
    #expect(SearchText.keys("1000") == ["1000"])
    // A long run of one letter stays long: "zzzz" must not start half the vocabulary.
    #expect(SearchText.key("zzzz").count > 1)
    // Combining marks (a decomposed "é") are not separators; emoji and signs are.
    #expect(SearchText.keys("Caf\u{65}\u{301} 😀 brno!") == ["cafe", "brno"])
    // Other scripts keep their letters.
    #expect(SearchText.keys("مرحبا") == ["مرحبا"])
    #expect(SearchText.words("Hradec-Králové, 5") == ["Hradec", "Králové", "5"])
  }
}

@Suite struct SearchQueryTests {
  @Test(arguments: [
    ("Carlsbad", ["karlovi", "vari"]), ("Olmütz", ["olomouc"]), ("Reichenberg", ["liberec"]),
    ("Königgrätz", ["hradec", "kralove"]), ("у Празі", ["praha"]),
    ("Ческе-Будеёвице", ["ceske", "budejovice"]), ("Mährisch Ostrau", ["ostrava"]),
  ])
  func otherCityNamesAreTheCzechOne(query: String, keys: [String]) {
    #expect(SearchQuery(query).terms.map(\.key) == keys)
  }

  @Test func smallWordsAreLeftOutUnlessAlone() {
    #expect(SearchQuery("centre in Brno").terms.map(\.key) == ["centre", "brno"])
    let housing = SearchQuery("житло у Брні")
    #expect(housing.terms.map(\.key) == ["brni"])
    // "житло" names an office kind: a group, the words as typed first.
    #expect(housing.groups.first?.alternatives.first?.map(\.key) == ["zitlo"])
    #expect(SearchQuery("в").terms.map(\.key) == ["v"])
  }

  @Test func typosFromFiveLettersTwoFromNine() {
    let terms = SearchQuery("brno praha information 1234").terms
    #expect(terms.map(\.typos) == [0, 1, 2, 0])
    #expect(EditDistance.within("olomuc", "olomouc", bound: 1) == 1)
    #expect(EditDistance.within("ostarva", "ostrava", bound: 1) == 1, "a swap is one edit")
    #expect(EditDistance.within("brno", "praha", bound: 2) == nil)
  }

  @Test func ukrainianStemsKeepThreeLetters() {
    #expect(UkrainianStemmer.stem("житла") == "житл")
    #expect(UkrainianStemmer.stem("іноземців") == "іноземц")
    #expect(UkrainianStemmer.stem("роботу") == "робот")
    #expect(UkrainianStemmer.stem("та") == "та")
    // Query words get stems as extra keys; the word's own key stays first.
    let term = SearchQuery("іноземців").terms.first
    #expect(term?.key == "inozemciv" && term?.stems == ["inozemc"])
  }

  /// A pasted page costs what a sentence does.
  @Test func longQueriesAreCut() {
    let query = SearchQuery(String(repeating: "brno praha ", count: 2000))
    #expect(query.terms.count <= SearchQuery.maxTerms)
    #expect(SearchQuery(String(repeating: "a", count: 10_000)).terms.count == 1)
  }
}

@Suite struct ContactSearchIndexRankingTests {
  static func row(_ id: Int64, names: String, city: String, address: String = "")
    -> ContactSearchIndex.Row
  {
    ContactSearchIndex.Row(
      id: id, names: SearchText.keys(names).joined(separator: " "),
      city: SearchText.keys(city).joined(separator: " "),
      address: SearchText.keys(address).joined(separator: " "),
      sortKeys: Array(repeating: SearchText.fold(names), count: 3))
  }

  static let index = ContactSearchIndex(rows: [
    row(1, names: "Brnoservis", city: "Praha"),
    row(2, names: "Labour Office", city: "Brno"),
    row(3, names: "Integration Centre Brno", city: "Brno"),
    row(4, names: "Advice", city: "Ostrava", address: "Brněnská 5"),
    row(5, names: "Centrum pro cizince", city: "Brno"),
    row(6, names: "Health Insurance", city: "Olomouc"),
  ])

  func ids(_ query: String, limit: Int = 20, favourites: Set<Int64> = []) -> [Int64] {
    Self.index.search(SearchQuery(query), language: .en, favourites: favourites, limit: limit).ids
  }

  /// Exact words before prefixes; a name match before a city match before an address.
  @Test func exactBeforePrefixNameBeforeCity() {
    #expect(ids("brno") == [3, 5, 2, 1])
    #expect(ids("brn") == [1, 3, 5, 2, 4], "all prefixes: names, then cities, then the address")
    #expect(ids("labour") == [2])
  }

  @Test func typosComeLast() {
    #expect(ids("olomuc") == [6])
    #expect(ids("insurence") == [6])
    #expect(ids("brmo").isEmpty, "no typos in words under five letters")
  }

  /// A city query lists every office of the city, whatever the limit.
  @Test func aCityQueryListsTheWholeCity() {
    #expect(Set(ids("brno", limit: 1)).isSuperset(of: [2, 3, 5]))
    #expect(ids("labour", limit: 0).isEmpty)
  }

  @Test func favouritesFirst() {
    #expect(ids("brno", favourites: [5]).first == 5)
  }

  @Test func aWordThatMatchesNothingIsLeftOut() {
    #expect(ids("labour offices zzzq") == [2])
    #expect(ids("zzzq qqqz").isEmpty)
  }
}

@Suite struct StoredContactTests {
  /// The cache's own format reads back to the same contact, every field and language.
  @Test func storedJSONRoundTrips() {
    var contacts = SampleDirectory.contacts()
    var full = Contact(
      id: 9_007_199_254, name: "Úřad \"práce\"\n\\ 😀",
      localized: [
        .ru: Contact.LocalizedAttributes(name: "Бюро", address: "ул. 1"),
        .uk: Contact.LocalizedAttributes(description: "опис", openingHours: "Пн-Пт"),
        .en: Contact.LocalizedAttributes(),
      ])
    full.latitude = 49.1925
    full.longitude = -16.5
    full.order = -3
    full.sample = true
    full.color = "#fff"
    contacts.append(full)
    for contact in contacts {
      #expect(Contact.stored(contact.storedJSON) == contact, "\(contact.id)")
      // Written member by member, it is the sorted compact form JSONValue writes.
      #expect(
        (try? JSONParser.parse(contact.storedJSON))?.compactText == contact.storedJSON,
        "\(contact.id)")
    }
  }

  /// A sync's rows, made in chunks on other threads, come in the contacts' order,
  /// each what one contact makes.
  @Test func rowsComeInOrderFromEveryChunk() {
    let sample = SampleDirectory.contacts()
    let contacts = (0..<2_503).map { index in
      var contact = sample[index % sample.count]
      contact.id = Int64(index)
      return contact
    }
    let expected = contacts.map(StoredContactRow.init)
    // With helper threads, and with none (the writer makes every chunk itself).
    for helpers in [nil, 0, 3] {
      var rows: [StoredContactRow] = []
      StoredContactRows(contacts, helpers: helpers).forEach { rows.append($0) }
      #expect(rows == expected, "helpers: \(String(describing: helpers))")
    }
    var none = 0
    StoredContactRows([]).forEach { _ in none += 1 }
    #expect(none == 0)
  }

  /// Rows written by earlier versions (Foundation's Codable form) are still read.
  @Test func theOldFormIsStillRead() throws {
    let contact = SampleDirectory.contacts()[0]
    let old = String(decoding: try JSONEncoder().encode(contact), as: UTF8.self)
    #expect(Contact.stored(old) == contact)
  }

  /// The table fold is Foundation's, scalar by scalar, for Latin and Cyrillic text.
  @Test func theFoldTableIsFoundations() {
    for text in [
      "Mečová Žižkova ÚSTÍ", "Ёлка Їжак Ґанок Йод", "Straße Œuvre Æther", "e\u{301} İstanbul",
      "Øresund Łódź ĦĦ", "Центр для ІНОЗЕМЦІВ",
    ] {
      #expect(SearchText.fold(text) == SearchText.foundationFold(text), "\(text)")
    }
  }
}

/// Found in review: other scripts, letters with strokes, decomposed Cyrillic,
/// numbers JSON cannot hold, guides deeper than one level.
@Suite struct SearchEdgeTests {
  @Test func otherScriptsKeepTheirLetters() {
    // Three-byte UTF-8 letters whose bytes repeat are not "doubled letters".
    for word in ["人", "ッ", "त", "人人", "東京"] {
      #expect(SearchText.key(word) == word, "\(word)")
    }
    #expect(SearchText.key("人") != SearchText.key("ッ"))
  }

  @Test(arguments: [
    ("Łódź", "lodz"), ("ŁÓDŹ", "lodz"), ("Øresund", "oresund"), ("Æther", "aether"),
    ("Đakovo", "dakovo"), ("Straße", "strase"), ("Strasse", "strase"),
  ])
  func lettersWithStrokesAreTheirPlainLetter(word: String, key: String) {
    #expect(SearchText.key(word) == key)
  }

  @Test func decomposedCyrillicIsTheLetter() {
    #expect(SearchText.key("И\u{306}иглава") == SearchText.key("Йиглава"))
    #expect(SearchText.key("І\u{308}глава") == SearchText.key("Їглава"))
    #expect(SearchText.key("Брно\u{483}") == "brno")
  }

  @Test func idsAndNumbersJSONCannotHoldStayReadable() {
    var big = Contact(id: 9_007_199_254_740_993, name: "Big")
    big.latitude = .nan
    big.longitude = .infinity
    let stored = Contact.stored(big.storedJSON)
    #expect(stored?.id == 9_007_199_254_740_993)
    #expect(stored?.latitude == nil && stored?.longitude == nil)
    #expect(JSONValue.number(.nan).compactText == "null")
    // A payload with "NaN" coordinates: that office is skipped, the others kept.
    let payload = #"{"items":[{"id":1,"name":"A","latitude":"NaN"},{"id":2,"name":"B"}]}"#
    let decoded = try? ItemsPayloadDecoder.contacts(Data(payload.utf8))
    #expect(decoded?.items.map(\.id) == [2])
  }

  @Test func aStepBelowAnAnswerFindsItsGuide() {
    let tree = GuidanceTree(
      tags: [],
      items: [
        FaqItem(id: 1, title: "Residence permit"),
        FaqItem(id: 2, parentID: 1, title: "Yes"),
        FaqItem(id: 3, parentID: 2, title: "Bring the lease contract", isTask: true),
      ])
    #expect(tree.search("lease", language: .en).map(\.id) == [1])
  }
}

@Suite struct SuggestionTests {
  @Test func aCityIsOfferedOnceNotAlsoItsWords() {
    var contact = Contact(id: 1, name: "Trade Licensing Office, Hradec Králové")
    contact.city = "Hradec Králové"
    let words = SuggestionWords(cities: [contact.city ?? ""], names: contact.allNames)
    #expect(words.closest(to: SearchQuery("kralowe")) == ["Hradec Králové"])
    #expect(words.closest(to: SearchQuery("licenzing")) == ["Licensing"])
  }
}
