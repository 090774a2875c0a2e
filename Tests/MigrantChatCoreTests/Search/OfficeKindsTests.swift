import Testing

@testable import MigrantChatCore

@Suite struct OfficeKindsTests {
  /// The kinds a query's group names, by label.
  func kinds(_ text: String) -> [String] {
    let query = SearchQuery(text)
    guard let group = query.groups.first else { return [] }
    return OfficeKinds.kinds.indices.filter { kind in
      OfficeKinds.alternatives[kind].contains { group.alternatives.dropFirst().contains($0) }
    }.map { OfficeKinds.kinds[$0].label }
  }

  @Test(arguments: [
    ("OAMP", "Ministry"), ("МВД", "Ministry"), ("мвс", "Ministry"), ("ÚP", "Labour"),
    ("центр занятости", "Labour"), ("центра занятости", "Labour"), ("ČSSZ", "Social"),
    ("соцстрах", "Social"), ("VZP", "VZP"), ("pojišťovnu", "Health"),
    ("ministrstvo vnitra", "Ministry"),
    ("миграционная полиция", "Foreign"), ("cizpol", "Foreign"), ("ФОП", "Trade"),
    ("immigration office", "Ministry"), ("страхова компанія", "Health"),
  ])
  func namesFindTheirKind(text: String, label: String) {
    let found = kinds(text)
    #expect(found.contains { $0.contains(label) }, "\(text): \(found)")
  }

  @Test func aNameOfTwoKindsNamesBoth() {
    let found = kinds("миграционка")
    #expect(
      found.contains { $0.hasPrefix("Ministry") } && found.contains { $0.hasPrefix("Foreign") })
  }

  @Test func wordsOfNoKindStayWords() {
    for text in ["centre", "brno", "policy", "Masarykova", "1234"] {
      #expect(SearchQuery(text).groups.isEmpty, "\(text)")
    }
  }

  /// The typed words come first, without stems or typos; the other names follow.
  @Test func theWordsAsTypedAreTheFirstAlternative() throws {
    let group = try #require(SearchQuery("OAMP brno").groups.first)
    #expect(group.alternatives[0].map(\.key) == ["oamp"])
    #expect(group.alternatives.contains { $0.map(\.key) == ["ministerstvo", "vnitra"] })
    #expect(SearchQuery("OAMP brno").terms.map(\.key) == ["brno"])
  }

  /// An acronym is a whole word: "ÚP" must not start "управление" (upravleni).
  @Test func shortNamesMatchWholeWordsOnly() {
    let short = OfficeKinds.alternatives.flatMap { $0 }.flatMap { $0 }.filter { $0.key.count < 4 }
    #expect(!short.isEmpty && short.allSatisfy(\.wholeWord))
    let vocabulary = KeyVocabulary(keys: ["upravleni", "up"])
    var matched: [Int] = []
    vocabulary.matches(SearchQuery.Term(key: "up", stems: [], typos: 0, wholeWord: true)) {
      place, _ in matched.append(place)
    }
    #expect(matched == [vocabulary.index(of: "up")].compactMap { $0 })
  }

  /// Every kind has Czech or English names and Russian or Ukrainian ones.
  @Test func everyKindHasLatinAndCyrillicNames() {
    for kind in OfficeKinds.kinds {
      let cyrillic = kind.names.filter { KeyboardLayout.isCyrillic(Substring($0)) }
      #expect(!cyrillic.isEmpty && cyrillic.count < kind.names.count, "\(kind.label)")
    }
  }
}

@Suite struct PostcodeTests {
  @Test(arguments: ["60200", "602 00", "602-00", "PSČ 602 00"])
  func postcodesMatchWithOrWithoutTheSpace(text: String) throws {
    let query = SearchQuery(text)
    let group = try #require(query.groups.first, "\(text)")
    let ways = Set(group.alternatives.map { $0.map(\.key) })
    #expect(ways == [["60200"], ["602", "00"]])
    #expect(group.alternatives.allSatisfy { $0.allSatisfy(\.wholeWord) })
  }

  @Test(arguments: ["6020", "602", "602000", "602 0", "60 200"])
  func otherNumbersAreNotPostcodes(text: String) {
    #expect(SearchQuery(text).groups.isEmpty, "\(text)")
  }

  @Test func aPostcodeAndACity() {
    let query = SearchQuery("602 00 Brno")
    #expect(query.groups.count == 1 && query.terms.map(\.key) == ["brno"])
  }
}

@Suite struct SearchQualityTests {
  @Test func fewerWordsUnmatchedWinsThenCompleteThenHowWell() {
    let none = SearchQuality.none
    let oneOfTwo = SearchQuality(matchedUnits: 1, unmatchedUnits: 1, complete: true, bestMatch: 0)
    let twoByPrefix = SearchQuality(
      matchedUnits: 2, unmatchedUnits: 0, complete: true, bestMatch: 1)
    let oneExact = SearchQuality(matchedUnits: 1, unmatchedUnits: 0, complete: true, bestMatch: 0)
    #expect(none < oneOfTwo && oneOfTwo < twoByPrefix && twoByPrefix < oneExact)
    #expect(oneExact.isSure && !oneOfTwo.isSure)
    var byTypo = oneExact
    byTypo.worstWordMatch = KeyVocabulary.Match.typo.rawValue
    #expect(!byTypo.isSure)
    // Every word a word of the directory, found together or not: sure.
    let apart = SearchQuality(matchedUnits: 2, unmatchedUnits: 0, complete: false, bestMatch: 4)
    #expect(apart.isSure)
  }
}
