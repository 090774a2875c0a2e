import Testing

@testable import MigrantChatCore

/// Each language sorts by its own alphabet (#14: Ukrainian put "Інтеграційний" after "Центр").
@Suite struct SortKeyTests {
  func sorted(_ names: [String], _ language: Language) -> [String] {
    names.sorted { SortKey.make($0, language: language) < SortKey.make($1, language: language) }
  }

  @Test func ukrainianAlphabet() {
    let names = [
      "Центр", "Інтеграційний", "Їжак", "Йога", "Ґанок", "Гора", "Єва", "Ель", "Ива", "Яр",
    ]
    #expect(
      sorted(names, .uk) == [
        "Гора", "Ґанок", "Ель", "Єва", "Ива", "Інтеграційний", "Їжак", "Йога", "Центр", "Яр",
      ])
  }

  @Test func russianAlphabet() {
    let names = ["Центр", "Ёлка", "Ель", "Жук", "Йод", "Иван", "Эра", "Ящик"]
    #expect(sorted(names, .ru) == ["Ёлка", "Ель", "Жук", "Иван", "Йод", "Центр", "Эра", "Ящик"])
  }

  @Test func caseAndDiacriticsDoNotCountAndEnglishIsAsBefore() {
    #expect(SortKey.make("ЦЕНТР", language: .uk) == SortKey.make("центр", language: .uk))
    #expect(SortKey.make("Mečová", language: .en) == SearchText.fold("Mečová"))
    #expect(sorted(["Brno", "Ústí", "Ostrava"], .en) == ["Brno", "Ostrava", "Ústí"])
  }
}
