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

/// OpenStreetMap's day abbreviations in the card's language (#14: "Mo-Th" in Ukrainian cards).
@Suite struct OpeningHoursTests {
  @Test func daysAreLocalized() {
    let hours = "Mo-Th 09:00-17:00, Fr 09:00-14:00; Sa,Su off"
    #expect(
      OpeningHours.localizingDays(hours, to: .uk)
        == "Пн-Чт 09:00-17:00, Пт 09:00-14:00; Сб,Нд зачинено")
  }

  @Test func textThatIsNotTheSyntaxStaysAsItIs() {
    #expect(OpeningHours.localizingDays("Mo-Fr 9-17", to: .ru) == "Пн-Пт 9-17")
    #expect(OpeningHours.localizingDays("By appointment (Mo)", to: .ru) == "By appointment (Mo)")
    #expect(OpeningHours.localizingDays("Mo-Fr 9-17", to: .en) == "Mo-Fr 9-17")
    var contact = Contact(id: 1, name: "x")
    contact.openingHours = "Mo 8-12"
    #expect(contact.openingHours(in: .uk) == "Пн 8-12")
  }
}
