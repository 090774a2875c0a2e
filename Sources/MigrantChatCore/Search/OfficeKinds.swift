/// The kinds of office a migrant in Czechia deals with, and the documents that
/// send them there, by every name people give them: the Czech official name
/// and its acronym, the English, Russian and Ukrainian names, and how migrants
/// say it ("pracák", "миграционка", "соцстрах", "ФОП").
///
/// A query that names a kind in any of these ways searches for any of its
/// names (and for the words as typed): "OAMP Brno" finds "Ministerstvo vnitra,
/// odbor azylové a migrační politiky, pracoviště Brno" and "Residence Permit
/// Office, Brno". Like `PlaceNames`, this is applied to the query only; the
/// stored rows never hold it, so a change here needs no new sync.
///
/// Where the names come from (see docs/directory.md, "Office kinds"): the
/// official Czech names, acronyms and English names as the offices' own sites
/// write them (mvcr.cz for the Ministry of the Interior and its Department of
/// Asylum and Migration Policy, policie.gov.cz for the foreign police,
/// uradprace.cz, vzp.cz, cssz.cz, mpo.gov.cz and rzp.cz for trade licensing,
/// integracnicentra.cz, charita.cz); the Russian and Ukrainian names as those
/// sites' Ukrainian pages and the integration centres' leaflets name them, and
/// the words migrants use for them in the labelled query sets.
public enum OfficeKinds {
  struct Kind {
    /// What the kind is, in English (tests and docs).
    var label: String
    var names: [String]
  }

  static let kinds: [Kind] = [
    Kind(
      label: "Ministry of the Interior, Department of Asylum and Migration Policy (OAMP)",
      names: [
        "Ministerstvo vnitra", "MV", "MV ČR", "MVČR", "OAMP", "OAMP MV",
        "odbor azylové a migrační politiky", "azylové a migrační politiky", "migrační úřad",
        "imigrační úřad", "cizinecký odbor", "povolení k pobytu", "zaměstnanecká karta",
        "trvalý pobyt", "dlouhodobý pobyt", "prodloužení pobytu", "vízum", "víza", "azyl",
        "Ministry of the Interior", "Ministry of Interior", "Interior Ministry",
        "Department of Asylum and Migration Policy", "asylum and migration",
        "immigration office", "migration office", "residence permit office", "residence office",
        "residence permit", "employee card", "permanent residence", "long-term residence",
        "visa", "long-term visa", "asylum",
        "Министерство внутренних дел", "МВД", "МВД ЧР", "МВД Чехии", "ОАМП", "МВ",
        "отдел убежища и миграционной политики", "миграционная служба", "миграционный отдел",
        "миграционка", "отдел по делам пребывания", "вид на жительство", "ВНЖ", "ПМЖ",
        "карта сотрудника", "продление визы", "виза", "убежище",
        "Міністерство внутрішніх справ", "МВС", "МВС ЧР", "МВС Чехії",
        "відділ притулку та міграційної політики", "міграційна служба", "міграційний відділ",
        "міграційна", "відділ у справах перебування", "посвідка на проживання", "посвідка",
        "картка працівника", "віза", "притулок",
      ]),
    Kind(
      label: "Foreign police (Odbor cizinecké policie)",
      names: [
        "cizinecká policie", "odbor cizinecké policie", "služba cizinecké policie", "OCP", "SCP",
        "cizpol", "cizinka", "policie pro cizince",
        "foreign police", "foreigners police", "alien police", "immigration police",
        "police for foreigners",
        "иностранная полиция", "полиция по делам иностранцев", "миграционная полиция",
        "иммиграционная полиция", "полиция для иностранцев", "цизинецкая полиция", "цизинка",
        "миграционка",
        "іноземна поліція", "поліція у справах іноземців", "міграційна поліція",
        "імміграційна поліція", "поліція для іноземців", "цизинецька поліція",
      ]),
    Kind(
      label: "Labour Office (Úřad práce ČR)",
      names: [
        "Úřad práce", "Úřad práce ČR", "ÚP", "ÚP ČR", "ÚPČR", "pracák", "povolení k zaměstnání",
        "podpora v nezaměstnanosti", "dávky", "sociální dávky",
        "Labour Office", "Labor Office", "job centre", "job center", "jobcentre", "job", "jobs",
        "employment office", "unemployment office", "work permit", "unemployment benefit",
        "benefits", "пособие", "пособия", "виплати",
        "работа", "робота",
        "биржа труда", "бюро по труду", "центр занятости", "служба занятости", "трудовая биржа",
        "отдел труда", "управление труда", "трудовой офис", "уряд праце", "биржа",
        "разрешение на работу", "пособие по безработице",
        "центр зайнятості", "служба зайнятості", "бюро праці", "біржа праці", "управління праці",
        "трудова біржа", "трудовий офіс", "уряд праці", "біржа", "дозвіл на роботу",
        "допомога по безробіттю",
      ]),
    // VZP by its own names; any health insurer (VZP among them) by the generic ones.
    Kind(
      label: "Všeobecná zdravotní pojišťovna (VZP)",
      names: [
        "Všeobecná zdravotní pojišťovna", "VZP", "VZP ČR", "General Health Insurance Company",
        "ВЗП", "Всеобщая медицинская страховая компания", "Загальна медична страхова компанія",
      ]),
    Kind(
      label: "Health insurance",
      names: [
        "Všeobecná zdravotní pojišťovna", "General Health Insurance Company",
        "Всеобщая медицинская страховая компания", "Загальна медична страхова компанія",
        "zdravotní pojišťovna", "pojišťovna", "zdravotní pojištění", "kartička pojištěnce",
        "průkaz pojištěnce", "health insurance", "health insurance company",
        "insurance company", "medical insurance", "insurance card", "медицинская страховка",
        "медстраховка", "страховка", "страховая", "страховая компания", "медицинское страхование",
        "медстрахование", "страховой полис", "пойиштовна", "медична страховка",
        "медичне страхування",
        "страхова компанія", "страхова", "страховий поліс", "медичний поліс", "пойиштьовна",
      ]),
    Kind(
      label: "Czech Social Security Administration (ČSSZ)",
      names: [
        "Česká správa sociálního zabezpečení", "ČSSZ", "OSSZ", "PSSZ",
        "okresní správa sociálního zabezpečení", "sociální zabezpečení", "sociální pojištění",
        "důchod", "nemocenská", "sociálka",
        "Czech Social Security Administration", "social security", "social insurance",
        "pension", "sickness benefit",
        "ЧССЗ", "Чешское управление социального обеспечения", "социальное обеспечение",
        "социальное страхование", "соцстрах", "соцзабез", "соцобеспечение", "соцзабезпечение",
        "соцзабезпечення", "пенсионный фонд",
        "пенсия", "больничный", "социалка",
        "Чеське управління соціального забезпечення", "соціальне забезпечення",
        "соціальне страхування", "пенсійний фонд", "пенсія", "лікарняний", "соціалка",
      ]),
    Kind(
      label: "Trade licensing office (Živnostenský úřad)",
      names: [
        "Živnostenský úřad", "živnosťák", "živnostenský list", "živnost", "OSVČ",
        "Trade Licensing Office", "trade licence", "trade license", "trade office",
        "business licence", "business license", "business licensing", "self-employed",
        "sole trader",
        "живностенский лист", "живностенский", "живность", "ИП", "отдел предпринимательства",
        "отдел лицензирования", "лицензия на предпринимательство",
        "живностенський лист", "живностенський", "ФОП", "відділ підприємництва",
        "відділ ліцензування", "ліцензія на підприємництво",
      ]),
    Kind(
      label: "Integration centre (Centrum na podporu integrace cizinců)",
      names: [
        "Centrum na podporu integrace cizinců", "CPIC", "integrační centrum", "centrum pro cizince",
        "Centre for the Integration of Foreigners", "integration centre", "integration center",
        "centre for foreigners", "center for foreigners", "kurz češtiny", "Czech course",
        "Czech courses", "курсы чешского", "курси чеської",
        "Центр поддержки интеграции иностранцев", "интеграционный центр", "центр интеграции",
        "центр для иностранцев",
        "Центр підтримки інтеграції іноземців", "інтеграційний центр", "центр інтеграції",
        "центр для іноземців",
      ]),
    Kind(
      label: "Regional office, department of education (Krajský úřad, odbor školství)",
      names: [
        "Krajský úřad", "KÚ", "odbor školství", "školský odbor", "škola", "zápis do školy",
        "Regional Office", "Regional Authority", "Department of Education",
        "education department", "education office", "school department", "school",
        "школа", "запись в школу", "запис до школи",
        "Краевое управление", "краевой уряд", "отдел образования", "управление образования",
        "Крайове управління", "крайовий уряд", "відділ освіти", "управління освіти",
      ]),
    Kind(
      label: "Caritas (Charita)",
      names: ["Charita", "Charita ČR", "Caritas", "Каритас", "Карітас", "Харита"]),
    Kind(
      label: "Housing advice (Poradna pro bydlení)",
      names: [
        "Poradna pro bydlení", "bydlení", "ubytování", "housing advice", "housing",
        "accommodation", "Консультации по жилью", "жилищная консультация", "жильё", "жилье",
        "общежитие", "Консультації з питань житла", "житлова консультація", "житло",
        "гуртожиток",
      ]),
    Kind(
      label: "Legal aid",
      names: [
        "právní pomoc", "právní poradna", "právník", "legal aid", "legal advice", "lawyer",
        "юридическая помощь", "юридическая консультация", "юрист", "адвокат", "правова допомога",
        "юридична допомога", "юридична консультація",
      ]),
    Kind(
      label: "Family centre",
      names: [
        "rodinné centrum", "family centre", "family center", "семейный центр", "сімейний центр",
      ]
    ),
  ]

  /// A name as keys, and the kinds it names.
  struct Name {
    var keys: [String]
    var kinds: [Int]
  }

  /// Every name by its first key (a name in two kinds names both: "миграционка").
  static let names: [String: [Name]] = {
    var byKeys: [[String]: [Int]] = [:]
    for (index, kind) in kinds.enumerated() {
      for name in kind.names {
        // As the query's words are: without the small ones ("office", "по").
        let keys = contentKeys(name)
        guard !keys.isEmpty, byKeys[keys]?.contains(index) != true else { continue }
        byKeys[keys, default: []].append(index)
      }
    }
    var names: [String: [Name]] = [:]
    for (keys, kinds) in byKeys {
      names[keys[0], default: []].append(Name(keys: keys, kinds: kinds))
    }
    // Longest first: "úřad práce ČR" before "úřad práce".
    return names.mapValues { $0.sorted { $0.keys.count > $1.keys.count } }
  }()

  /// Names whose first key has four letters or more, by its first three: where
  /// the forms of a word ("центра", "центр") are looked for.
  static let namesByHead: [String: [Name]] = {
    var heads: [String: [Name]] = [:]
    for (first, list) in names where first.count >= 4 {
      heads[String(first.prefix(3)), default: []] += list
    }
    return heads
  }()

  /// Each kind's names as query terms: whole words for short keys (an acronym
  /// "up" must not start "upravleni"), prefixes from four letters.
  static let alternatives: [[[SearchQuery.Term]]] = kinds.map { kind in
    var seen = Set<[String]>()
    return kind.names.compactMap { name in
      let keys = contentKeys(name)
      guard !keys.isEmpty, seen.insert(keys).inserted else { return nil }
      return keys.map { SearchQuery.Term(key: $0, stems: [], typos: 0, wholeWord: $0.count < 4) }
    }
  }

  /// A name's keys without the small words a query leaves out.
  static func contentKeys(_ name: String) -> [String] {
    let keys = SearchText.keys(name)
    let content = keys.filter { !StopWords.contains(key: $0) }
    return content.isEmpty ? keys : content
  }

  /// Whether a query word is a form of a name's word: the same key; for words
  /// of four letters or more, the same but for an ending of up to two letters
  /// ("pojišťovnu", "центра"), a stem of the word that starts it ("занятость" →
  /// "занят", which starts "занятости"), or the word with the typos a search
  /// allows ("ministrstvo").
  static func isForm(_ term: SearchQuery.Term, of nameKey: String) -> Bool {
    if term.key == nameKey { return true }
    let key = Array(term.key.utf8)
    let name = Array(nameKey.utf8)
    guard key.count >= 4, name.count >= 4, !term.key.allSatisfy(\.isNumber) else { return false }
    let common = zip(key, name).prefix { $0 == $1 }.count
    if common >= 4 && max(key.count, name.count) - common <= 2 { return true }
    let stemmed = term.stems.contains { stem in
      stem.utf8.count >= 4 && nameKey.hasPrefix(stem) && name.count - stem.utf8.count <= 4
    }
    if stemmed { return true }
    let typos = min(term.typos, EditDistance.allowedTypos(letters: name.count))
    return typos > 0 && EditDistance.within(key, name[...], bound: typos) != nil
  }

  /// The longest name of a kind that starts at `terms[start]`: how many terms
  /// it takes, and the kinds it names.
  static func match(_ terms: [SearchQuery.Term], at start: Int) -> (length: Int, kinds: [Int])? {
    let key = terms[start].key
    var candidates = names[key] ?? []
    if key.count >= 4 {
      // A form of a name's first word ("центра занятости"): names whose first key
      // shares the query word's first three letters.
      candidates += (namesByHead[String(key.prefix(3))] ?? []).filter { $0.keys[0] != key }
      candidates.sort { $0.keys.count > $1.keys.count }
    }
    for name in candidates where name.keys.count <= terms.count - start {
      let matches = zip(name.keys, terms[start...]).allSatisfy { isForm($1, of: $0) }
      if matches { return (name.keys.count, name.kinds) }
    }
    return nil
  }
}
