import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct NLUTestExampleTests {
  /// The three ways Rasa's training data marks an entity.
  @Test func readsEveryMarkForm() {
    let plain = NLUTestExample(intent: "housing", annotated: "a flat in [Brno](city)")
    #expect(plain.text == "a flat in Brno")
    #expect(
      plain.entities == [
        .init(entity: "city", value: "Brno", start: 10, end: 14, valueStated: false)
      ])
    let synonym = NLUTestExample(intent: "housing", annotated: "[Prague](city:Praha) flat")
    #expect(synonym.entities == [.init(entity: "city", value: "Praha", start: 0, end: 6)])
    let object = NLUTestExample(
      intent: "travel",
      annotated:
        #"from [Praha]{"entity": "city", "role": "from"} to [Brno]{"entity": "city", "value": "Brno", "role": "to", "group": "1"}"#
    )
    #expect(object.text == "from Praha to Brno")
    #expect(object.entities.map(\.label) == ["city.from", "city.1.to"])
    #expect(object.entities.map(\.value) == ["Praha", "Brno"])
    #expect(object.entities.last.map { [$0.start, $0.end] } == [14, 18])
  }

  /// Python counts Unicode scalars: an emoji or a combining accent moves the offsets Rasa gives.
  @Test func offsetsAreUnicodeScalarsAsRasaCountsThem() {
    let example = NLUTestExample(intent: "housing", annotated: "👍🏽 e\u{301} [Brno](city)")
    #expect(example.entities.first.map { [$0.start, $0.end] } == [6, 10])
  }

  @Test func aRetrievalIntentIsJudgedByItsFirstPart() {
    #expect(NLUTestExample(intent: "faq/ask_name", annotated: "who are you").intent == "faq")
  }

  @Test func aMarkThatNamesNoEntityIsLeftOut() {
    let example = NLUTestExample(intent: "x", annotated: #"[a]() [b]{"value": "c"} [d]{not json}"#)
    #expect(example.text == "a b d")
    #expect(example.entities.isEmpty)
  }
}
