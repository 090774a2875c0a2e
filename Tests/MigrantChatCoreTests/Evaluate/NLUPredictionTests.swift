import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct NLUPredictionTests {
  /// Rasa 3.6's answer to `POST /model/parse` when its FallbackClassifier fired.
  let fallback = #"""
    {"text":"flat in Prague","intent":{"name":"nlu_fallback","confidence":0.3},
     "entities":[{"entity":"city","start":8,"end":14,"value":"Praha","extractor":"RegexEntityExtractor",
       "processors":["EntitySynonymMapper"]},{"entity":"time","start":0,"end":4,"value":{"to":1},
       "extractor":"DucklingEntityExtractor"}],
     "text_tokens":[[0,4],[5,7],[8,14]],
     "intent_ranking":[{"name":"nlu_fallback","confidence":0.3},{"name":"housing","confidence":0.28},
       {"name":"greet","confidence":0.2}]}
    """#

  @Test func readsTheIntentRankingEntitiesAndTokens() throws {
    let prediction = NLUPrediction(parse: try JSONParser.parse(fallback))
    #expect(prediction.isFallback)
    #expect(prediction.ranking.map(\.name) == ["nlu_fallback", "housing", "greet"])
    #expect(prediction.tokens == [0..<4, 5..<7, 8..<14])
    #expect(prediction.entities.first?.value == "Praha")
    #expect(prediction.entities.first?.extractor == "RegexEntityExtractor")
    #expect(prediction.entities.last?.value == #"{"to":1}"#)
  }

  /// As Rasa's `undo_fallback_prediction`: the classifier's own first choice is judged.
  @Test func theFallbackIsUndoneAsRasaTestNLUDoes() throws {
    let undone = NLUPrediction(parse: try JSONParser.parse(fallback)).withoutFallback
    #expect(undone.intent == NLUPrediction.Ranked(name: "housing", confidence: 0.28))
    #expect(undone.ranking.map(\.name) == ["housing", "greet"])
    let alone = NLUPrediction(
      intent: .init(name: "nlu_fallback", confidence: 0.3),
      ranking: [.init(name: "nlu_fallback", confidence: 0.3)])
    #expect(alone.withoutFallback == alone)
  }

  @Test func whatIsMissingOrWrongIsLeftOut() throws {
    let odd = NLUPrediction(
      parse: try JSONParser.parse(
        #"{"intent":null,"entities":[{"entity":"x","start":-1,"end":2},{"entity":"y","start":3,"end":1},{"start":0,"end":1}],"text_tokens":[[0],[1.5,2],"a"]}"#
      ))
    #expect(odd.intent == nil && odd.entities.isEmpty && odd.tokens.isEmpty)
  }
}
