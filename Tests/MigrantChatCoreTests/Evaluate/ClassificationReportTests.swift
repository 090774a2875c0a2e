import Foundation
import Testing

@testable import MigrantChatCore

/// The figures scikit-learn 1.1 gives for the same labels (`classification_report(t,
/// p, labels=sorted(set(t)), output_dict=True)`, as `rasa test nlu` calls it),
/// computed there and written here.
@Suite struct ClassificationReportTests {
  func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

  @Test func matchesScikitLearnWithAPredictionNoTargetHas() {
    let report = ClassificationReport(
      targets: ["a", "a", "a", "b", "b", "c", "c", "c", "c", "d"],
      predictions: ["a", "b", "x", "b", "b", "c", "c", "a", "", "a"])
    #expect(report.labels == ["a", "b", "c", "d"])
    let expected: [String: (Double, Double, Double, Int)] = [
      "a": (1 / 3, 1 / 3, 1 / 3, 3), "b": (2 / 3, 1, 0.8, 2), "c": (1, 0.5, 2 / 3, 4),
      "d": (0, 0, 0, 1),
    ]
    for (label, (precision, recall, f1, support)) in expected {
      let row = report.rows[label]
      #expect(row.map { close($0.precision, precision) } == true, "\(label)")
      #expect(row.map { close($0.recall, recall) } == true, "\(label)")
      #expect(row.map { close($0.f1, f1) } == true, "\(label)")
      #expect(row?.support == support)
    }
    // "x" and "" are predicted but no target's: a micro average, not the accuracy.
    #expect(close(report.micro.precision, 0.625))
    #expect(close(report.micro.recall, 0.5))
    #expect(close(report.micro.f1, 0.5555555555555556))
    #expect(close(report.macro.precision, 0.5))
    #expect(close(report.macro.recall, 0.4583333333333333))
    #expect(close(report.macro.f1, 0.45))
    #expect(close(report.weighted.precision, 0.6333333333333333))
    #expect(close(report.weighted.f1, 0.5266666666666666))
    #expect(report.weighted.support == 10)
    #expect(close(report.accuracy, 0.5))
    #expect(report.confusedWith["a"]?.map(\.label) == ["b", "x"])
    #expect(report.confusedWith["c"]?.map(\.label) == ["", "a"])
  }

  @Test func theAccuracyIsTheMicroAverageWhenEveryLabelIsATarget() {
    let report = ClassificationReport(targets: ["a", "b", "a"], predictions: ["a", "b", "b"])
    #expect(close(report.accuracy, 2 / 3))
    #expect(
      report.micro
        == ClassificationReport.Row(precision: 2 / 3, recall: 2 / 3, f1: 2 / 3, support: 3))
    #expect(close(report.macro.precision, 0.75))
    #expect(close(report.weighted.precision, 0.8333333333333334))
    let json = report.json
    #expect(json["accuracy"]?.numberValue.map { close($0, 2 / 3) } == true)
    #expect(json["micro avg"]?["support"]?.numberValue == 3)
    #expect(json["a"]?["confused_with"]?["b"]?.numberValue == 1)
  }

  @Test func entityTokensLeaveNoEntityOutOfTheRows() {
    let report = ClassificationReport(
      targets: ["no_entity", "city", "city", "no_entity", "name"],
      predictions: ["no_entity", "city", "no_entity", "city", "no_entity"],
      excluding: "no_entity")
    #expect(report.labels == ["city", "name"])
    #expect(close(report.micro.precision, 0.5))
    #expect(close(report.micro.recall, 1 / 3))
    #expect(close(report.micro.f1, 0.4))
    #expect(close(report.macro.f1, 0.25))
    #expect(close(report.weighted.f1, 1 / 3))
    #expect(close(report.accuracy, 0.4))
  }

  @Test func nothingToDivideByIsZero() {
    let empty = ClassificationReport(targets: [], predictions: [])
    #expect(empty.labels.isEmpty && empty.accuracy == 0 && empty.macro.f1 == 0)
    let never = ClassificationReport(targets: ["a"], predictions: ["b"])
    #expect(never.rows["a"] == ClassificationReport.Row(precision: 0, recall: 0, f1: 0, support: 1))
  }
}
