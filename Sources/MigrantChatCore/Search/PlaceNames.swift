/// Other names of Czech cities: English and German exonyms, and Russian and
/// Ukrainian spellings that `SearchText.key` does not bring to the Czech one.
///
/// A query that names a city in any of these ways searches for the Czech name
/// the data uses ("Carlsbad" → Karlovy Vary, "Olmütz" → Olomouc).
///
/// Where the names come from: English, Russian and Ukrainian names as the
/// cities' Wikipedia articles in those languages spell them (with the common
/// variants: Ческе-Будеёвице and Ческе-Будейовице); German names as the German
/// Wikipedia articles give them, the historical names still used in German
/// texts; Gottwaldov is Zlín's former Czech name. Transliterations that
/// already meet the Czech key ("Брно", "Острава") are kept in the table so it
/// reads as a whole; they add nothing at run time.
public enum PlaceNames {
  /// Czech name, then its other names.
  static let table: [(czech: String, names: [String])] = [
    // Inflected forms whose stem is not the name's start: Czech locatives people
    // see on signs ("v Praze"), Ukrainian and Russian ones with a changed consonant.
    ("Praha", ["Prague", "Prag", "Praga", "Прага", "Praze", "Prahy", "Празі", "Праге"]),
    ("Brno", ["Brünn", "Bruenn", "Брно", "Brně"]),
    ("Ostrava", ["Ostrau", "Mährisch Ostrau", "Острава", "Ostravě", "Ostravou"]),
    ("Plzeň", ["Pilsen", "Пльзень", "Plzni", "Пльзені", "Пльзене"]),
    ("Liberec", ["Reichenberg", "Либерец", "Ліберець", "Liberci", "Либерце", "Ліберці"]),
    ("Olomouc", ["Olmütz", "Olmuetz", "Оломоуц", "Оломоуць", "Olomouci"]),
    ("Ústí nad Labem", ["Aussig", "Усти-над-Лабем", "Усті-над-Лабем"]),
    (
      "Hradec Králové",
      ["Königgrätz", "Koeniggraetz", "Градец-Кралове", "Градець-Кралове", "Hradci Králové"]
    ),
    (
      "České Budějovice",
      [
        "Budweis", "Ческе-Будеёвице", "Ческе-Будейовице", "Чеські Будейовиці", "Чеське Будейовіце",
        "Českých Budějovicích", "Budějovicích", "Budějovic",
      ]
    ),
    ("Pardubice", ["Pardubitz", "Пардубице", "Пардубиці", "Pardubicích", "Pardubic"]),
    ("Zlín", ["Gottwaldov", "Злин", "Злін", "Zlíně"]),
    ("Jihlava", ["Iglau", "Йиглава", "Їглава", "Иглава", "Іглава", "Jihlavě"]),
    (
      "Karlovy Vary",
      ["Carlsbad", "Karlsbad", "Карлсбад", "Карловы Вары", "Карлові Вари", "Karlových Varech"]
    ),
    ("Kladno", ["Кладно"]),
    ("Děčín", ["Tetschen", "Дечин", "Дєчин"]),
    ("Teplice", ["Teplitz", "Теплице", "Теплиці", "Teplicích"]),
    ("Cheb", ["Eger", "Хеб"]),
    ("Opava", ["Troppau", "Опава"]),
    ("Znojmo", ["Znaim", "Зноймо"]),
    ("Mladá Boleslav", ["Jungbunzlau", "Млада-Болеслав", "Млада Болеслав"]),
    ("Jablonec nad Nisou", ["Gablonz", "Яблонец-над-Нисой", "Яблонец-над-Нисоу"]),
    ("Most", ["Brüx"]),
    ("Chomutov", ["Komotau", "Хомутов"]),
    ("Třebíč", ["Trebitsch", "Тршебич"]),
    ("Karviná", ["Karwin", "Карвина", "Карвіна"]),
    ("Havířov", ["Гавиржов", "Гавіржов"]),
    ("Frýdek-Místek", ["Фридек-Мистек", "Фрідек-Містек"]),
    ("Kolín", ["Колин", "Колін"]),
    ("Tábor", ["Табор"]),
    ("Prostějov", ["Prossnitz", "Простеёв", "Простейов"]),
    ("Přerov", ["Prerau", "Пршеров"]),
    ("Trutnov", ["Trautenau", "Трутнов"]),
  ]

  /// Other names' keys (as word sequences) → the Czech name's keys.
  static let byKeys: [[String]: [String]] = {
    var map: [[String]: [String]] = [:]
    for (czech, names) in table {
      let target = SearchText.keys(czech)
      for name in names where SearchText.keys(name) != target {
        map[SearchText.keys(name)] = target
      }
    }
    return map
  }()

  /// The longest other name in the table, in words.
  static let longest = byKeys.keys.map(\.count).max() ?? 1

  /// `keys` with every other name of a city replaced by the Czech name's keys,
  /// the longest names first ("Mährisch Ostrau" before "Ostrau").
  public static func replacingExonyms(_ keys: [String]) -> [String] {
    var result: [String] = []
    var index = 0
    while index < keys.count {
      var matched = false
      for length in stride(from: min(longest, keys.count - index), through: 1, by: -1) {
        if let czech = byKeys[Array(keys[index..<index + length])] {
          result += czech
          index += length
          matched = true
          break
        }
      }
      if !matched {
        result.append(keys[index])
        index += 1
      }
    }
    return result
  }
}
