/// Opening hours in OpenStreetMap's syntax, as the data API gives them.
enum OpeningHours {
  static let days = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su", "PH", "off", "closed"]
  static let names: [Language: [String]] = [
    .ru: ["Пн", "Вт", "Ср", "Чт", "Пт", "Сб", "Вс", "Праздники", "закрыто", "закрыто"],
    .uk: ["Пн", "Вт", "Ср", "Чт", "Пт", "Сб", "Нд", "Свята", "зачинено", "зачинено"],
  ]

  /// The day abbreviations in `language`; English and text that is not in the
  /// syntax (anything but days, times, digits and `-,;: `) stay as they are.
  static func localizingDays(_ hours: String, to language: Language) -> String {
    guard let localized = names[language] else { return hours }
    var output = ""
    var word = ""
    func flush() -> Bool {
      defer { word = "" }
      guard !word.isEmpty else { return true }
      guard let index = days.firstIndex(of: word) else { return false }
      output += localized[index]
      return true
    }
    for character in hours {
      if character.isLetter {
        word.append(character)
        continue
      }
      guard flush() else { return hours }
      guard character.isNumber || " -,;:+./".contains(character) else { return hours }
      output.append(character)
    }
    return flush() ? output : hours
  }
}
