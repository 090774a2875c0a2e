import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct RobustnessReportTests {
  /// Rasa's entity marks, as its NLU training data format documents them.
  @Test(arguments: [
    ("офис в [Брно](city)", "офис в Брно"), ("[Brno](city:Brno) office", "Brno office"),
    (#"in [Praha]{"entity": "city", "value": "Praha"} now"#, "in Praha now"),
    ("a [b] c", "a [b] c"), ("open [bracket", "open [bracket"), ("[x](y", "[x](y"),
    ("plain", "plain"), ("", ""),
  ])
  func entityMarksAreTakenOut(annotated: String, plain: String) {
    #expect(RobustnessExample.plainText(annotated) == plain)
  }

  func outcome(
    _ intent: String, _ variantClass: VariantClass, understood: String?, _ confidence: Double?
  ) -> RobustnessOutcome {
    RobustnessOutcome(
      example: RobustnessExample(intent: intent, text: "вид на жительство"),
      variant: UtteranceVariant(variantClass, "s", "vid na zhitelstvo \(variantClass)"),
      understood: understood, confidence: confidence)
  }

  @Test func countsByClassAndIntentAndTheFailures() throws {
    let report = RobustnessReport(
      outcomes: [
        outcome("residence", .transliteration, understood: "nlu_fallback", 0.35),
        outcome("residence", .transliteration, understood: "residence", 0.9),
        outcome("residence", .typo, understood: "residence", 0.6),
        outcome("insurance", .typo, understood: "insurance", 0.4),
        outcome("insurance", .typo, understood: nil, nil),
      ], minConfidence: 0.5)
    #expect(report.classes.map(\.0) == [.transliteration, .typo])
    #expect(report.classes.map(\.1) == [.init(variants: 2, kept: 1), .init(variants: 3, kept: 1)])
    #expect(report.intents.map(\.0) == ["insurance", "residence"])
    #expect(report.failures.count == 3)
    #expect(abs(report.kept - 0.4) < 1e-9)
    let json = report.json
    #expect(json["classes"]?["typo"]?["variants"]?.numberValue == 3)
    #expect(json["classes"]?["typo"]?["kept"]?.numberValue == 1)
    #expect(json["intents"]?["residence"]?["transliteration"]?["kept"]?.numberValue == 1)
    #expect(json["failures"]?.arrayValue?.first?["understood"]?.stringValue == "nlu_fallback")
    #expect(json["failures"]?.arrayValue?.last?["understood"] == .null)
  }

  @Test func failingVariantsAsNLUTrainingData() {
    let report = RobustnessReport(
      outcomes: [
        outcome("residence", .transliteration, understood: "nlu_fallback", 0.35),
        outcome("residence", .typo, understood: "residence", 0.9),
        outcome("odd name", .typo, understood: "x", 0.9),
      ], minConfidence: 0.5)
    #expect(
      report.nluYAML == """
        version: "3.1"
        nlu:
        - intent: "odd name"
          examples: |
            - vid na zhitelstvo typo
        - intent: residence
          examples: |
            - vid na zhitelstvo transliteration

        """)
  }
}
