import Foundation

/// CheckList's invariance test for entities: an example's city, name or number
/// swapped for another of its kind, in the case form the sentence needs ("в Праге"
/// becomes "в Остраве", not "в Острава"). The intent must stay, and the bot must
/// find the new value.
public struct EntitySwap: Sendable, Hashable {
  /// The entity's label (`city`, `city.to`) and its text before and after.
  public var label: String
  public var old: String
  public var new: String
  /// The variant as Rasa's training data writes it, the new value marked.
  public var annotated: String

  /// What an entity is, for choosing what to swap it for.
  enum Kind: Sendable, Hashable {
    case place, name, number, date
  }

  /// The forms of a word a sentence can need: nominative, locative (в Праге, v
  /// Praze), genitive (из Праги, z Prahy), per script and language.
  struct Forms: Sendable, Hashable {
    var latin: [String]
    var czech: [String]
    var russian: [String]
    var ukrainian: [String]

    func forms(_ language: Language, cyrillic: Bool) -> [[String]] {
      guard cyrillic else { return [latin, czech] }
      return language == .uk ? [ukrainian, russian] : [russian, ukrainian]
    }
  }

  /// Towns people move to, with the forms sentences put them in: nominative,
  /// locative (в Праге, v Praze), genitive (из Праги, z Prahy) and instrumental (с
  /// Прагой, s Prahou). Brno is indeclinable in Russian, declined in Ukrainian (у Брні).
  static let places: [Forms] = [
    Forms(
      latin: ["Brno"], czech: ["Brno", "Brně", "Brna", "Brnem"],
      russian: ["Брно", "Брно", "Брно", "Брно"], ukrainian: ["Брно", "Брні", "Брна", "Брном"]),
    Forms(
      latin: ["Prague"], czech: ["Praha", "Praze", "Prahy", "Prahou"],
      russian: ["Прага", "Праге", "Праги", "Прагой"],
      ukrainian: ["Прага", "Празі", "Праги", "Прагою"]),
    Forms(
      latin: ["Ostrava"], czech: ["Ostrava", "Ostravě", "Ostravy", "Ostravou"],
      russian: ["Острава", "Остраве", "Остравы", "Остравой"],
      ukrainian: ["Острава", "Остраві", "Острави", "Остравою"]),
    Forms(
      latin: ["Plzen"], czech: ["Plzeň", "Plzni", "Plzně", "Plzní"],
      russian: ["Пльзень", "Пльзене", "Пльзеня", "Пльзенем"],
      ukrainian: ["Пльзень", "Пльзені", "Пльзеня", "Пльзенем"]),
    Forms(
      latin: ["Olomouc"], czech: ["Olomouc", "Olomouci", "Olomouce", "Olomoucí"],
      russian: ["Оломоуц", "Оломоуце", "Оломоуца", "Оломоуцем"],
      ukrainian: ["Оломоуц", "Оломоуці", "Оломоуца", "Оломоуцом"]),
    Forms(
      latin: ["Liberec"], czech: ["Liberec", "Liberci", "Liberce", "Libercem"],
      russian: ["Либерец", "Либерце", "Либерца", "Либерцем"],
      ukrainian: ["Ліберець", "Ліберці", "Ліберця", "Ліберцем"]),
    Forms(
      latin: ["Zlin"], czech: ["Zlín", "Zlíně", "Zlína", "Zlínem"],
      russian: ["Злин", "Злине", "Злина", "Злином"],
      ukrainian: ["Злін", "Зліні", "Зліна", "Зліном"]),
    Forms(
      latin: ["Jihlava"], czech: ["Jihlava", "Jihlavě", "Jihlavy", "Jihlavou"],
      russian: ["Йиглава", "Йиглаве", "Йиглавы", "Йиглавой"],
      ukrainian: ["Їглава", "Їглаві", "Їглави", "Їглавою"]),
    Forms(
      latin: ["Pardubice"], czech: ["Pardubice", "Pardubicích", "Pardubic", "Pardubicemi"],
      russian: ["Пардубице", "Пардубицах", "Пардубиц", "Пардубицами"],
      ukrainian: ["Пардубице", "Пардубицях", "Пардубиць", "Пардубицями"]),
  ]

  /// People's names, nominative, genitive (для Ивана) and dative (Ивану).
  static let names: [Forms] = [
    Forms(
      latin: ["Maria"], czech: ["Marie", "Marie", "Marii"], russian: ["Мария", "Марии", "Марии"],
      ukrainian: ["Марія", "Марії", "Марії"]),
    Forms(
      latin: ["Anna"], czech: ["Anna", "Anny", "Anně"], russian: ["Анна", "Анны", "Анне"],
      ukrainian: ["Анна", "Анни", "Анні"]),
    Forms(
      latin: ["Olena"], czech: ["Olena", "Oleny", "Oleně"], russian: ["Елена", "Елены", "Елене"],
      ukrainian: ["Олена", "Олени", "Олені"]),
    Forms(
      latin: ["Ivan"], czech: ["Ivan", "Ivana", "Ivanovi"], russian: ["Иван", "Ивана", "Ивану"],
      ukrainian: ["Іван", "Івана", "Івану"]),
    Forms(
      latin: ["Petr"], czech: ["Petr", "Petra", "Petrovi"], russian: ["Пётр", "Петра", "Петру"],
      ukrainian: ["Петро", "Петра", "Петру"]),
    Forms(
      latin: ["Oksana"], czech: ["Oksana", "Oksany", "Oksaně"],
      russian: ["Оксана", "Оксаны", "Оксане"], ukrainian: ["Оксана", "Оксани", "Оксані"]),
  ]

  /// Prepositions that put a town in the locative (в Праге, v Praze) and in the
  /// genitive (из Праги, z Prahy, біля Праги).
  static let locative: Set<String> = ["в", "во", "на", "у", "о", "об", "при", "v", "ve", "na"]
  static let instrumental: Set<String> = [
    "с", "со", "над", "под", "перед", "между", "між", "під", "s", "se", "před", "pod", "nad",
  ]
  static let genitive: Set<String> = [
    "из", "от", "до", "для", "около", "возле", "з", "із", "зі", "від", "біля", "z", "ze", "od",
    "do", "u", "blízko",
  ]

  /// The kind an entity is, by its name (`city`, `person`, `amount`), else by its
  /// text (a town the tables know, digits, a date in numbers); nil: nothing to swap.
  static func kind(entity: String, text: String) -> Kind? {
    let name = entity.lowercased()
    let stripped = text.trimmingCharacters(in: .whitespaces)
    if ["date", "day", "time", "deadline"].contains(where: name.contains)
      || DateShape.isDate(stripped)
    {
      return DateShape.isDate(stripped) ? .date : nil
    }
    if ["number", "amount", "count", "age", "quantity", "sum", "money", "price"].contains(
      where: name.contains) || stripped.allSatisfy(\.isNumber)
    {
      return stripped.contains(where: \.isNumber) ? .number : nil
    }
    if ["city", "town", "place", "location", "region", "gorod", "misto", "mesto"].contains(
      where: name.contains)
    {
      return .place
    }
    if ["name", "person", "who"].contains(where: name.contains) { return .name }
    if form(of: stripped, in: places) != nil || PlaceLookup.czechPlace(named: stripped) != nil {
      return .place
    }
    return nil
  }

  /// Where `text` is among `table`'s forms: the row, the column (its case form) and
  /// which list (script) it was found in.
  static func form(
    of text: String, in table: [Forms], language: Language = .en
  ) -> (row: Int, column: Int, list: Int)? {
    let folded = text.lowercased()
    // The example's own language first: Брно is Russian and Ukrainian alike, and a
    // Ukrainian sentence needs Ukrainian forms (в Остраві).
    let order = language == .uk ? [3, 2, 1, 0] : language == .ru ? [2, 3, 1, 0] : [0, 1, 2, 3]
    for list in order {
      for (row, forms) in table.enumerated() {
        let words = [forms.latin, forms.czech, forms.russian, forms.ukrainian][list]
        if let column = words.firstIndex(where: { $0.lowercased() == folded }) {
          return (row, column, list)
        }
      }
    }
    return nil
  }

  /// Up to `count` other values for `text`, of its kind, in its form and script.
  static func replacements(
    for text: String, kind: Kind, language: Language, count: Int, after word: String? = nil,
    using generator: inout SeededGenerator
  ) -> [String] {
    switch kind {
    case .place, .name:
      let table = kind == .place ? places : names
      let cyrillic = KeyboardLayout.isCyrillic(Substring(text))
      // As found: the same column (case) of the same list (script) in other rows.
      var column = 0
      var list: Int?
      var exclude: Int?
      let found = form(of: text, in: table, language: language)
      // A Cyrillic word in a form the tables do not have (с Остравой's case unknown)
      // is not swapped: a wrong case would test Russian, not the bot.
      if found == nil, cyrillic { return [] }
      if let found {
        (column, list, exclude) = (found.column, found.list, found.row)
        // A word with one form for several cases (Брно, Kladno): the case is the
        // preposition's (в Брно is в Остраве, из Брно из Остравы).
        let words = [
          table[found.row].latin, table[found.row].czech, table[found.row].russian,
          table[found.row].ukrainian,
        ][found.list]
        // So is a nominative after a preposition (шукаю житло в Острава): the
        // sentence needs the preposition's case.
        let ambiguous = words.filter { $0.lowercased() == text.lowercased() }.count > 1
        if kind == .place, ambiguous || found.column == 0, let preposition = word?.lowercased() {
          if Self.locative.contains(preposition) { column = 1 }
          if Self.genitive.contains(preposition) { column = 2 }
          if Self.instrumental.contains(preposition) { column = 3 }
        }
      }
      let lists: (Forms) -> [String] = { forms in
        switch list {
        case 0?: forms.latin
        case 1?: forms.czech
        case 2?: forms.russian
        case 3?: forms.ukrainian
        default: forms.forms(language, cyrillic: cyrillic)[0]
        }
      }
      var candidates = table.indices.filter { $0 != exclude }.compactMap { row -> String? in
        let words = lists(table[row])
        return words.indices.contains(column) ? words[column] : words.first
      }.filter { $0.lowercased() != text.lowercased() }
      candidates.shuffle(using: &generator)
      let capitalised = text.first?.isUppercase ?? true
      return candidates.prefix(count).map { capitalised ? $0 : $0.lowercased() }
    case .number:
      // As many digits, at most six (a long account number is varied in its first six).
      let digits = min(text.filter(\.isNumber).count, 6)
      let low = digits <= 1 ? 2 : Int(pow(10, Double(digits - 1)))
      let high = digits <= 1 ? 9 : Int(pow(10, Double(digits))) - 1
      var values = Set<String>()
      while values.count < count, low < high {
        let value = String(Int.random(in: low...high, using: &generator))
        if value != text.filter(\.isNumber) { values.insert(value) }
      }
      let prefix = String(text.prefix { !$0.isNumber })
      let suffix = String(text.reversed().prefix { !$0.isNumber }.reversed())
      return values.sorted().map { prefix + $0 + suffix }
    case .date:
      guard let shape = DateShape(text) else { return [] }
      var values: [String] = []
      while values.count < count {
        let day = Int.random(in: 1...28, using: &generator)
        let month = Int.random(in: 1...12, using: &generator)
        let written = shape.write(day: day, month: month)
        if written != text, !values.contains(written) { values.append(written) }
      }
      return values
    }
  }

  /// The entity-swap variants of an example: each marked entity of a kind swapped
  /// for two others. The same seed gives the same swaps.
  public static func variants(
    of example: RobustnessExample, language: Language, seed: UInt64
  ) -> [UtteranceVariant] {
    let characters = Array(example.text)
    var generator = SeededGenerator(
      seed: seed ^ UtteranceVariants.stableHash("swap:" + example.text))
    var variants: [UtteranceVariant] = []
    for entity in example.entities {
      let end = entity.start + entity.length
      guard end <= characters.count else { continue }
      let old = String(characters[entity.start..<end])
      guard let decoded = NLUTestExample.decode(entity.mark, text: old),
        let kind = kind(entity: decoded.entity, text: old)
      else { continue }
      let before = String(characters[..<entity.start]).split(whereSeparator: \.isWhitespace).last
        .map(String.init)
      for new in replacements(
        for: old, kind: kind, language: language, count: 2, after: before, using: &generator)
      {
        let text = String(characters[..<entity.start]) + new + String(characters[end...])
        // The other entities keep their marks; this one gets the new value's.
        var annotated = ""
        var position = 0
        for other in example.entities.sorted(by: { $0.start < $1.start }) {
          annotated += String(characters[position..<other.start])
          let words = String(characters[other.start..<(other.start + other.length)])
          if other == entity {
            // A mark that stated a value (a synonym's canonical name) states the new
            // one's: [Праге](city:Praha) becomes [Остраве](city:Ostrava).
            let value =
              decoded.valueStated
              ? canonical(of: new, kind: kind, like: decoded.value, language: language) : nil
            annotated += "[" + new + "]" + Self.mark(entity.mark, value: value)
          } else {
            annotated += "[" + words + "]" + other.mark
          }
          position = other.start + other.length
        }
        annotated += String(characters[position...])
        var variant = UtteranceVariant(.entitySwap, "\(kind)", text)
        variant.swap = EntitySwap(label: decoded.label, old: old, new: new, annotated: annotated)
        variants.append(variant)
      }
    }
    return variants
  }

  /// The mark for a swapped-in value: the entity (role, group), and `value` in place
  /// of the old one's, or none.
  static func mark(_ mark: String, value: String? = nil) -> String {
    if mark.hasPrefix("(") {
      let name = mark.dropFirst().dropLast().split(separator: ":").first.map(String.init) ?? ""
      return "(" + name + (value.map { ":" + $0 } ?? "") + ")"
    }
    guard case .object(var members)? = try? JSONParser.parse(mark) else { return mark }
    members["value"] = value.map(JSONValue.string)
    return JSONValue.object(members).compactText
  }

  /// The name a bot's synonyms would map `new` to, written as `stated` (the old
  /// value) was: a town's nominative in the same script (Ostrava for Praha, Острава
  /// for Прага); a name, number or date as it is.
  static func canonical(
    of new: String, kind: Kind, like stated: String, language: Language
  ) -> String {
    let table = kind == .place ? places : kind == .name ? names : []
    guard let found = form(of: new, in: table, language: language) else { return new }
    let row = table[found.row]
    if KeyboardLayout.isCyrillic(Substring(stated)) {
      return (language == .uk ? row.ukrainian : row.russian).first ?? new
    }
    return row.czech.first ?? new
  }
}

/// A date written in numbers (`15.12.`, `15.12.2026`, `15/12`, `2026-12-15`), to
/// write another in the same shape.
struct DateShape {
  var separator: Character
  var yearFirst: Bool
  var year: String?
  var trailing: Bool
  var padded: Bool

  static func isDate(_ text: String) -> Bool { DateShape(text) != nil }

  init?(_ text: String) {
    guard let separator = [Character("."), "/", "-"].first(where: { text.contains($0) }) else {
      return nil
    }
    let parts = text.split(separator: separator, omittingEmptySubsequences: false)
    let filled = parts.filter { !$0.isEmpty }
    guard (2...3).contains(filled.count), filled.allSatisfy({ $0.allSatisfy(\.isNumber) }),
      parts.count - filled.count <= 1, parts.first?.isEmpty == false
    else { return nil }
    self.separator = separator
    yearFirst = filled[0].count == 4
    // Day, month and year are short: a longer part (or one Int cannot hold) is no date.
    guard filled.allSatisfy({ $0.count <= 4 }) else { return nil }
    let numbers = filled.compactMap { Int($0) }
    guard numbers.count == filled.count else { return nil }
    if yearFirst {
      guard filled.count == 3, (1...12).contains(numbers[1]), (1...31).contains(numbers[2]) else {
        return nil
      }
      year = String(filled[0])
    } else {
      guard (1...31).contains(numbers[0]), (1...12).contains(numbers[1]) else { return nil }
      year = filled.count == 3 ? String(filled[2]) : nil
    }
    trailing = parts.last?.isEmpty == true
    // ISO dates are always written with two digits; others as the example wrote them.
    padded = yearFirst || (filled[0].count == 2 && filled[0].first == "0")
  }

  func write(day: Int, month: Int) -> String {
    func two(_ value: Int) -> String { padded && value < 10 ? "0\(value)" : String(value) }
    let separator = String(self.separator)
    if yearFirst, let year {
      return [year, two(month), two(day)].joined(separator: separator)
    }
    var parts = [two(day), two(month)]
    if let year { parts.append(year) }
    return parts.joined(separator: separator) + (trailing ? separator : "")
  }
}
