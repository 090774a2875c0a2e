import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct EvaluationGateTests {
  @Test(arguments: [
    "f1>=0.9", "accuracy >= 95%", "macro-f1>0.5", "macro_f1>0.5", "intent:residence:recall>=0.95",
    "entity:city:f1>=0.8", "entities:precision>=0.9", "lang:uk:accuracy>=0.8",
    "entity-value:city:f1>=0.8", "entity-span:city:recall>=0.5", "entities-value:f1>=0.9",
  ])
  func reads(_ text: String) {
    #expect(EvaluationGate(text) != nil, "\(text)")
  }

  @Test(arguments: [
    "", "f1", "f1>=", "f1>=1.5", "f1>=120%", "f1>=-0.1", "f1>=nan", "speed>=1", "intent::f1>=1",
    "lang:xx:f1>=0.5", "intent:a:b:f1>=0.5", "entities:city:f1>=0.5", "entity-token:city:f1>=0.5",
    "entities-x:f1>=0.5",
  ])
  func refuses(_ text: String) {
    #expect(EvaluationGate(text) == nil, "\(text)")
  }

  @Test func judgesTheFigureItNames() {
    let judged = [
      ("hello", "greet", "greet"), ("hi", "greet", "greet"), ("bye", "goodbye", "greet"),
      ("пока", "goodbye", "goodbye"),
    ].map { text, intent, found in
      NLUEvaluation.Judged(
        example: NLUTestExample(intent: intent, annotated: text),
        answered: NLUPrediction(intent: .init(name: found, confidence: 0.9)))
    }
    let evaluation = NLUEvaluation(judged)
    #expect(EvaluationGate("accuracy>=0.75")?.passes(evaluation) == true)
    #expect(EvaluationGate("accuracy>0.75")?.passes(evaluation) == false)
    #expect(EvaluationGate("intent:goodbye:recall>=0.5")?.passes(evaluation) == true)
    #expect(EvaluationGate("intent:goodbye:recall>=51%")?.passes(evaluation) == false)
    #expect(EvaluationGate("intent:greet:precision==0.6667")?.passes(evaluation) == true)
    #expect(EvaluationGate("lang:ru:accuracy>=1")?.passes(evaluation) == true)
    // A figure the run does not have fails, never passes by default.
    #expect(EvaluationGate("intent:housing:recall>=0")?.passes(evaluation) == false)
    #expect(EvaluationGate("entity:city:f1>=0")?.passes(evaluation) == false)
    // Said before anything is asked: a name none of the examples has.
    let examples = judged.map(\.example)
    #expect(EvaluationGate("intent:housing:recall>=0")?.unknownName(in: examples) == "housing")
    #expect(EvaluationGate("intent:greet:recall>=0")?.unknownName(in: examples) == nil)
    #expect(EvaluationGate("lang:uk:f1>=0")?.unknownName(in: examples) == "uk")
    #expect(EvaluationGate("entity:city:f1>=0")?.unknownName(in: examples) == "city")
  }

  /// `entity:` is Rasa's figure (by token), `entity-value:` the value match.
  @Test func entityScopesNameTheirFigure() {
    let judged = NLUEvaluation.Judged(
      example: NLUTestExample(intent: "housing", annotated: "[Nove Mesto](city) flat"),
      answered: NLUPrediction(
        intent: .init(name: "housing", confidence: 1),
        entities: [.init(entity: "city", value: "Nove", start: 0, end: 4, extractor: "Regex")],
        tokens: [0..<4, 5..<10, 11..<15]))
    let evaluation = NLUEvaluation([judged, judged])
    // Tokens: Nove right, Mesto missed: precision 1, recall 0.5.
    #expect(EvaluationGate("entity:city:recall>=0.5")?.passes(evaluation) == true)
    #expect(EvaluationGate("entity:city:recall>0.5")?.passes(evaluation) == false)
    #expect(EvaluationGate("entity-span:city:recall<=0")?.passes(evaluation) == true)
    #expect(EvaluationGate("entities-value:f1<=0")?.passes(evaluation) == true)
    #expect(EvaluationGate("entities:precision>=1")?.passes(evaluation) == true)
  }
}
