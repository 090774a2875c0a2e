import Testing

@testable import MigrantChatCore

/// Each transform against its standard's own table or examples.
@Suite struct TransliterationTests {
  /// ISO 9:1995, table 1 (Russian and Ukrainian letters).
  @Test func iso9IsOneLetterEach() {
    #expect(
      Transliteration.iso9.apply("абвгґдеёєжзиіїйклмнопрстуфхцчшщъыьэюя", language: .ru)
        == "abvgg̀deëêžziìïjklmnoprstufhcčšŝʺyʹèûâ")
  }

  /// The examples in the table of Resolution No. 55 of the Cabinet of Ministers of
  /// Ukraine (27 January 2010).
  @Test(arguments: [
    ("Алушта", "Alushta"), ("Згорани", "Zghorany"), ("Розгон", "Rozghon"),
    ("Єнакієве", "Yenakiieve"), ("Їжакевич", "Yizhakevych"), ("Йосипівка", "Yosypivka"),
    ("Стрий", "Stryi"), ("Юрій", "Yurii"), ("Яготин", "Yahotyn"), ("Знам'янка", "Znamianka"),
    ("Щербухи", "Shcherbukhy"), ("Гадяч", "Hadiach"), ("Ґалаґан", "Galagan"), ("Київ", "Kyiv"),
    ("Львів", "Lviv"), ("Хуст", "Khust"), ("Ціна", "Tsina"), ("Чернівці", "Chernivtsi"),
    ("Шостка", "Shostka"), ("Житомир", "Zhytomyr"), ("Фастів", "Fastiv"),
  ])
  func ukrainian2010(cyrillic: String, latin: String) {
    #expect(Transliteration.ua2010.apply(cyrillic, language: .uk) == latin)
  }

  /// The examples of chat Latin, and Czech spelling.
  @Test func informalAndCzech() {
    #expect(Transliteration.informal.apply("привет", language: .ru) == "privet")
    #expect(
      Transliteration.informal.apply("вид на жительство", language: .ru) == "vid na zhitelstvo")
    #expect(Transliteration.informal.apply("Київ", language: .uk) == "Kyyiv")
    #expect(Transliteration.czech.apply("жительство", language: .ru) == "žitelstvo")
    #expect(Transliteration.czech.apply("Харьков", language: .ru) == "Charkov")
    #expect(Transliteration.czech.apply("Київ", language: .uk) == "Kyjiv")
    // Other scripts and signs stay.
    #expect(Transliteration.iso9.apply("Brno, 602 00!", language: .ru) == "Brno, 602 00!")
  }
}

@Suite struct UtteranceVariantsTests {
  @Test func everyClassOfARussianExample() {
    let variants = UtteranceVariants.variants(of: "Где получить вид на жительство?", language: .ru)
    let classes = Set(variants.map(\.variantClass))
    // Nothing to take off: no no-diacritics variant (it would be the example). The
    // entity swaps and negations are the plan's (`EntitySwap`, `Negation`).
    #expect(
      classes == Set(VariantClass.allCases).subtracting([.noDiacritics, .entitySwap, .negation]))
    let child = UtteranceVariants.variants(
      of: "запись ребёнка", language: .ru, classes: [.noDiacritics])
    #expect(child.map(\.text) == ["запись ребенка"])
    #expect(variants.contains { $0.text == "Gde poluchit vid na zhitelstvo?" })
    #expect(
      variants.contains { $0.scheme == "russian" && $0.text == "Ult gjkexbnm dbl yf ;bntkmcndj?" })
    #expect(variants.contains { $0.variantClass == .ruUkMix && $0.text.contains("і") })
    #expect(variants.contains { $0.text == "где получить вид на жительство?" })
    // Never the example itself, never twice.
    #expect(!variants.map(\.text).contains("Где получить вид на жительство?"))
    #expect(Set(variants.map(\.text)).count == variants.count)
  }

  @Test func latinExamplesGetLayoutsDiacriticsAndTypos() {
    let variants = UtteranceVariants.variants(of: "zaměstnanecká karta", language: .ru)
    #expect(
      variants.contains { $0.variantClass == .noDiacritics && $0.text == "zamestnanecka karta" })
    #expect(!variants.contains { $0.variantClass == .transliteration })
    // Czech letters are not typed on QWERTY: no layout variant of them; ASCII Latin has one.
    #expect(!variants.contains { $0.variantClass == .keyboardLayout })
    #expect(
      UtteranceVariants.variants(of: "zamestnanecka karta", language: .ru).contains {
        $0.variantClass == .keyboardLayout && $0.text.hasSuffix("лфкеф")
      })
    #expect(UtteranceVariants.withoutDiacritics("ребёнок") == "ребенок")
  }

  /// The same seed, the same variants; typos are one and two edits away.
  @Test func typosAreDeterministicAndNear() {
    let text = "Как оформить медицинскую страховку"
    let first = UtteranceVariants.variants(of: text, language: .ru, classes: [.typo], seed: 7)
    #expect(first == UtteranceVariants.variants(of: text, language: .ru, classes: [.typo], seed: 7))
    let others = (1...20).map {
      UtteranceVariants.variants(of: text, language: .ru, classes: [.typo], seed: $0)
    }
    #expect(Set(others.map { $0.map(\.text) }).count > 10, "seeds give other typos")
    for variant in others.flatMap({ $0 }) {
      let edits = variant.scheme == "one-edit" ? 1 : 2
      #expect(abs(variant.text.count - text.count) <= edits)
      #expect(variant.text.allSatisfy { $0.isLetter || $0 == " " })
      #expect(
        !variant.text.contains { $0.isASCII && $0.isLetter }, "Cyrillic neighbours stay Cyrillic")
    }
  }

  @Test func keyboardNeighboursAreTheKeysAround() {
    #expect(Set(Typos.neighbours(of: "g")) == ["f", "h", "t", "y", "v", "b"])
    #expect(Set(Typos.neighbours(of: "п")) == ["а", "р", "е", "н", "м", "и"])
    #expect(Typos.neighbours(of: "і").contains("в"))
    #expect(Typos.neighbours(of: "7").isEmpty)
  }

  @Test func emptyAndSignsMakeNothingBroken() {
    #expect(UtteranceVariants.variants(of: "", language: .en).isEmpty)
    for variant in UtteranceVariants.variants(of: "?!", language: .uk) {
      #expect(!variant.text.isEmpty)
    }
  }

  /// Chat Latin differs from seed to seed, as people spell it: each letter one of
  /// the ways people use, every other letter as `informal` spells it.
  @Test func chatLatinIsSpelledTheWaysPeopleDo() {
    let text = "Жильё и страховка для детей"
    let spellings = Set(
      (UInt64(1)...30).map { seed in
        var generator = SeededGenerator(seed: seed)
        return Transliteration.chat(text, language: .ru, using: &generator)
      })
    #expect(spellings.count > 5)
    #expect(
      spellings.contains { $0.hasPrefix("Zhil") } && spellings.contains { $0.hasPrefix("Jil") })
    for spelling in spellings {
      #expect(spelling.allSatisfy { $0.isASCII }, "\(spelling)")
      #expect(
        spelling.hasSuffix("dlya detey") || spelling.contains("dl") && spelling.contains("dete"))
    }
    var generator = SeededGenerator(seed: 3)
    #expect(
      Transliteration.chat("Їжак", language: .uk, using: &generator).lowercased().hasPrefix("yi")
        || Transliteration.chat("Їжак", language: .uk, using: &generator).lowercased().hasPrefix(
          "ji")
    )
  }

  /// The layout switched part-way: the words from one on, never the first, never a single word.
  @Test func theLayoutSwitchedPartWay() {
    let text = "где получить вид на жительство"
    let parts = Set(
      (UInt64(1)...20).compactMap { seed in
        UtteranceVariants.variants(of: text, language: .ru, classes: [.keyboardLayout], seed: seed)
          .first { $0.scheme == "russian-part-way" }?.text
      })
    #expect(parts.count >= 3)
    for part in parts {
      #expect(part.hasPrefix("где "))
      #expect(part.hasSuffix(";bntkmcndj"))
    }
    #expect(
      !UtteranceVariants.variants(of: "привет", language: .ru, classes: [.keyboardLayout])
        .contains { $0.scheme.hasSuffix("part-way") })
  }
}
