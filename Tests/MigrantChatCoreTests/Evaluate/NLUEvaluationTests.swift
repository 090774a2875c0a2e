import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct NLUEvaluationTests {
  func judged(
    _ text: String, _ intent: String, found: String, _ confidence: Double,
    ranking: [(String, Double)] = [], entities: [NLUPrediction.Entity] = [],
    tokens: [Range<Int>] = []
  ) -> NLUEvaluation.Judged {
    NLUEvaluation.Judged(
      example: NLUTestExample(intent: intent, annotated: text),
      answered: NLUPrediction(
        intent: .init(name: found, confidence: confidence),
        ranking: [.init(name: found, confidence: confidence)]
          + ranking.map { .init(name: $0.0, confidence: $0.1) },
        entities: entities, tokens: tokens))
  }

  var sample: [NLUEvaluation.Judged] {
    [
      judged("hello", "greet", found: "greet", 0.95),
      judged("hi", "greet", found: "greet", 0.62),
      judged("bye", "goodbye", found: "greet", 0.55),
      judged("see you", "goodbye", found: "nlu_fallback", 0.3, ranking: [("greet", 0.25)]),
      judged("житло", "housing", found: "housing", 0.81),
      judged("де жити", "housing", found: "nlu_fallback", 0.3, ranking: [("housing", 0.29)]),
    ]
  }

  @Test func judgesTheIntentWithTheFallbackUndone() {
    let evaluation = NLUEvaluation(sample, botThreshold: 0.3)
    #expect(sample.map(\.predicted) == ["greet", "greet", "greet", "greet", "housing", "housing"])
    #expect(abs(evaluation.intents.accuracy - 4 / 6) < 1e-9)
    #expect(evaluation.intents.rows["goodbye"]?.recall == 0)
    #expect(evaluation.confusions.map { [$0.intent, $0.predicted] } == [["goodbye", "greet"]])
    #expect(evaluation.confusions.first?.examples.map(\.example.text) == ["bye", "see you"])
    #expect(evaluation.byLanguage[.uk]?.accuracy == 1)
    #expect(evaluation.byLanguage[.en]?.accuracy == 0.5)
  }

  /// A hostile bot's confidences (1e300, negative, infinite) are binned, never a trap.
  @Test func confidencesOutOfRangeAreNoTrap() throws {
    let items =
      try ["1e300", "-5", "1e400", "-1e400"].map { confidence in
        NLUEvaluation.Judged(
          example: NLUTestExample(intent: "greet", annotated: "hi"),
          answered: NLUPrediction(
            parse: try JSONParser.parse(#"{"intent":{"name":"greet","confidence":\#(confidence)}}"#)
          ))
      } + [judged("bye", "goodbye", found: "greet", 0.5)]
    let evaluation = NLUEvaluation(items)
    #expect(evaluation.rightHistogram.reduce(0, +) == 4)
    #expect(evaluation.text(Localizer(.en), server: "x").contains("Fallback thresholds"))
  }

  @Test func histogramsAndTheThresholdSweep() {
    let evaluation = NLUEvaluation(sample, botThreshold: 0.3)
    #expect(evaluation.rightHistogram == [0, 0, 1, 0, 0, 0, 1, 0, 1, 1])
    #expect(evaluation.wrongHistogram == [0, 0, 1, 0, 0, 1, 0, 0, 0, 0])
    #expect(evaluation.sweep.count == 101)
    let atHalf = evaluation.sweep[50]
    #expect([atHalf.right, atHalf.wrong, atHalf.fallback] as [Int] == [3, 1, 2])
    // right − wrong is 3 from 0.26 (4 − 1) and from 0.56 (3 − 0): the lowest of equals.
    #expect(evaluation.bestThreshold.threshold == 0.26)
    #expect(evaluation.bestThreshold.score(wrongCost: 1) == 3)
    // A wrong answer that costs two right ones: 0.56, the wrong 0.55 out.
    #expect(NLUEvaluation(sample, wrongCost: 2).bestThreshold.threshold == 0.56)
    // A wrong answer that costs nothing: the lowest threshold answers everything.
    #expect(NLUEvaluation(sample, wrongCost: 0).bestThreshold.threshold == 0)
    // As deployed: the two fallbacks the bot gave, whatever the sweep says.
    #expect(
      [evaluation.asDeployed.right, evaluation.asDeployed.wrong, evaluation.asDeployed.fallback]
        as [Int] == [3, 1, 2])
  }

  /// Rasa's token labels: each token takes the entity sharing most characters with it.
  @Test func entitiesByTokenSpanAndValue() {
    let city = { (start: Int, end: Int, value: String) in
      NLUPrediction.Entity(
        entity: "city", value: value, start: start, end: end, extractor: "RegexEntityExtractor")
    }
    let items = [
      // "a flat in Prague": found, mapped to Praha as marked.
      judged(
        #"a flat in [Prague]{"entity": "city", "value": "Praha"}"#, "housing", found: "housing",
        0.9, entities: [city(10, 16, "Praha")], tokens: [0..<1, 2..<6, 7..<9, 10..<16]),
      // "flat in Brno": found with the wrong span (one token short), value right.
      judged(
        "flat in [Nove Mesto](city)", "housing", found: "housing", 0.9,
        entities: [city(8, 12, "Nove Mesto")], tokens: [0..<4, 5..<7, 8..<12, 13..<18]),
      // "hello Praha": nothing marked, Praha found.
      judged(
        "hello Praha", "greet", found: "greet", 0.9, entities: [city(6, 11, "Praha")],
        tokens: [0..<5, 6..<11]),
    ]
    let evaluation = NLUEvaluation(items)
    let entities = try! #require(evaluation.entities)
    let tokens = try! #require(entities.byToken["RegexEntityExtractor"])
    // Tokens: city marked on 3 (Prague, Nove, Mesto), found on 3 (Prague, Nove, Praha).
    #expect(
      tokens.rows["city"]
        == ClassificationReport.Row(precision: 2 / 3, recall: 2 / 3, f1: 2 / 3, support: 3))
    #expect(
      entities.bySpan.byLabel["city"] == EntityMatchReport.Counts(matched: 1, found: 3, marked: 2))
    #expect(
      entities.byValue.byLabel["city"] == EntityMatchReport.Counts(matched: 2, found: 3, marked: 2))
    #expect(NLUEvaluation([judged("hi", "greet", found: "greet", 1)]).entities == nil)
    // By value, the mismatches: Nove Mesto found as "Nove"… no, the value was right;
    // "hello Praha" found a city no one marked.
    #expect(entities.byValue.mismatches.map(\.example) == [2])
    #expect(entities.bySpan.mismatches.map(\.example) == [1, 2])
  }

  /// A mark without a value takes the bot's for the same words (its synonyms); a mark
  /// with one must get that value.
  @Test func theValueOfAMarkWithoutOneIsTheBots() {
    let found = NLUPrediction.Entity(
      entity: "city", value: "Praha", start: 0, end: 6, extractor: "RegexEntityExtractor")
    func value(_ annotated: String) -> EntityMatchReport.Counts? {
      NLUEvaluation([
        NLUEvaluation.Judged(
          example: NLUTestExample(intent: "housing", annotated: annotated),
          answered: NLUPrediction(
            intent: .init(name: "housing", confidence: 1), entities: [found],
            tokens: [0..<6, 7..<11]))
      ]).entities?.byValue.byLabel["city"]
    }
    #expect(value("[Prague](city) flat")?.matched == 1)
    #expect(value("[Prague](city:Praha) flat")?.matched == 1)
    #expect(value("[Prague](city:Prague) flat")?.matched == 0)
    #expect(value(#"[Prague]{"entity": "city", "value": "Brno"} flat"#)?.matched == 0)
  }

  @Test func theReportsSayTheSameFigures() throws {
    let evaluation = NLUEvaluation(sample, botThreshold: 0.3)
    let json = evaluation.json(server: "http://bot")
    #expect(json["predictions"]?.arrayValue?.count == 6)
    #expect(json["intent_evaluation"]?["report"]?["goodbye"]?["recall"]?.numberValue == 0)
    #expect(json["best_threshold"]?["threshold"]?.numberValue == 0.26)
    #expect(json["bot_threshold"]?.numberValue == 0.3)
    let text = evaluation.text(Localizer(.en), server: "http://bot")
    #expect(text.hasPrefix("6 examples asked of http://bot: 66.7% taken for their intent"))
    #expect(text.contains("  goodbye → greet (2): “bye” 0.550, “see you” 0.250 (nlu_fallback)"))
    // For a screen reader: words for the arrow and the bars, plain quotes.
    let words = evaluation.text(Localizer(.en), server: "http://bot", accessible: true)
    #expect(words.contains("  goodbye taken for greet (2): \"bye\" 0.550"))
    #expect(words.contains("  0.9 to 1.0: 1 right, 0 wrong"))
    #expect(!words.contains("█") && !words.contains("→") && !words.contains("“"))
    // Stopped early: the headline says of how many.
    let partial = NLUEvaluation(sample, planned: 10).text(Localizer(.ru), server: "http://bot")
    #expect(partial.hasPrefix("Остановлено раньше: у http://bot спрошено 6 примеров из 10"))
    #expect(NLUEvaluation(sample, planned: 10).json(server: "x")["complete"] == .bool(false))
    #expect(text.contains("best, 0.26: 4 right, 1 wrong, 1 to the fallback"))
    #expect(text.contains("the bot's, 0.30: 3 right, 1 wrong, 2 to the fallback"))
    let page = evaluation.html(Localizer(.uk), server: "http://bot/<x>")
    #expect(page.contains("<svg") && !page.contains("<script") && !page.contains("<x>"))
    #expect(page.contains("Матриця помилок"))
  }
}
