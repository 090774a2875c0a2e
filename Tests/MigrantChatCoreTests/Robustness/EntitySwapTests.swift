import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct EntitySwapTests {
  func swaps(_ annotated: String, _ intent: String = "housing") -> [UtteranceVariant] {
    let example = RobustnessExample(intent: intent, annotated: annotated)
    return EntitySwap.variants(of: example, language: example.language, seed: 1)
  }

  /// A town in the form the sentence put it in: в Праге is в Остраве, з Праги з Острави.
  @Test func aTownKeepsItsCase() {
    for variant in swaps("ищу квартиру в [Праге](city)") {
      let new = variant.swap?.new ?? ""
      #expect(EntitySwap.places.contains { $0.russian[1] == new }, "\(variant.text)")
      #expect(variant.text == "ищу квартиру в \(new)")
      #expect(variant.swap?.annotated == "ищу квартиру в [\(new)](city)")
    }
    for variant in swaps("шукаю житло біля [Праги](city)") {
      #expect(
        EntitySwap.places.contains { $0.ukrainian[2] == variant.swap?.new }, "\(variant.text)")
    }
    // Indeclinable Брно: the preposition says the case (в Брно is в Остраві in Ukrainian).
    for variant in swaps("посвідка на проживання в [Брно](city)", "residence") {
      #expect(
        EntitySwap.places.contains { $0.ukrainian[1] == variant.swap?.new }, "\(variant.text)")
    }
    #expect(swaps("a flat in [Prague](city)").count == 2)
    #expect(swaps("a flat in [Prague](city)").allSatisfy { $0.variantClass == .entitySwap })
  }

  @Test func theSameSeedTheSameSwaps() {
    let once = swaps("I need a flat in [Brno](city)").map(\.text)
    #expect(once == swaps("I need a flat in [Brno](city)").map(\.text))
    #expect(Set(once).count == 2 && !once.contains("I need a flat in Brno"))
  }

  @Test func namesNumbersAndDates() {
    let name = swaps("a letter for [Ивана](person)", "mail")
    // Ивана is the genitive: so are the names put in its place.
    #expect(name.count == 2)
    #expect(
      name.allSatisfy { variant in
        EntitySwap.names.contains { $0.russian[1] == variant.swap?.new }
      })
    let number = swaps("a flat for [3](people) people")
    #expect(number.count == 2)
    #expect(number.allSatisfy { ($0.swap?.new).map { $0.count == 1 && $0 != "3" } == true })
    let date = swaps("appointment on [15.12.](date)", "visit")
    #expect(date.count == 2)
    #expect(
      date.allSatisfy { ($0.swap?.new).map { DateShape.isDate($0) && $0.hasSuffix(".") } == true })
    #expect(DateShape("2026-12-15")?.write(day: 3, month: 4) == "2026-04-03")
    #expect(DateShape("15/12")?.write(day: 3, month: 4) == "3/4")
    #expect(DateShape("12.40") == nil && DateShape("v1.2") == nil)
    // The worst values a test file holds: no trap, a number of as many digits (at
    // most six varied), a date too long to be one refused.
    let long = swaps("account [123456789012345678901234567890](number) please", "bank")
    #expect(long.count == 2)
    #expect(DateShape("123456789012345678901234.12.2026") == nil)
    #expect(DateShape("1.99999999999999999999999") == nil)
  }

  /// An entity the swap knows nothing of is left as it is; a JSON mark loses its value.
  @Test func unknownKindsAreLeftAndMarksKeepTheirRole() {
    #expect(swaps("my [blue](colour) card").isEmpty)
    let marked = swaps(#"flat in [Prague]{"entity": "city", "value": "Praha", "role": "to"}"#)
    // The stated value becomes the new town's name, the role stays.
    let mark = marked.first?.swap?.annotated ?? ""
    #expect(mark.contains(#""role":"to""#) && mark.contains(#""value":""#), "\(mark)")
    #expect(!mark.contains("Praha"), "\(mark)")
    let synonym = swaps("квартира в [Праге](city:Praha)").first?.swap?.annotated ?? ""
    #expect(
      EntitySwap.places.contains {
        synonym == "квартира в [\($0.russian[1])](city:\($0.czech[0]))"
      },
      "\(synonym)")
    #expect(marked.first?.swap?.label == "city.to")
  }
}

@Suite struct NegationTests {
  @Test(arguments: [
    ("I need a flat", Language.en, "I don't need a flat"),
    ("нужна квартира", .ru, "не нужна квартира"),
    ("Потрібна квартира", .uk, "Не потрібна квартира"),
    ("health insurance", .en, "I don't need health insurance"),
    ("I am great", .en, "I am not great"),
    ("extend my permit", .en, "I don't want to extend my permit"),
  ])
  func negates(_ text: String, _ language: Language, _ negated: String) {
    #expect(Negation.variant(of: text, language: language) == negated)
  }

  @Test func leavesWhatItCannotNegate() {
    #expect(Negation.variant(of: "I don't need a flat", language: .en) == nil)
    #expect(Negation.variant(of: "где жить?", language: .ru) == nil)
    // Russian and Ukrainian are not wrapped: "мені не потрібно медичне страхування"
    // would not agree.
    #expect(Negation.variant(of: "медичне страхування", language: .uk) == nil)
    #expect(Negation.variant(of: "where can I find a doctor", language: .en) == nil)
    #expect(Negation.applies(toIntent: "greet") == false)
    #expect(Negation.applies(toIntent: "housing"))
    #expect(Negation.applies(toIntent: nil) == false)
  }
}
