import Foundation

/// How well a deployed bot understands a labelled test set, counted as `rasa test
/// nlu` counts it: intents (an `nlu_fallback` undone, so the classifier's own
/// choice is judged), entities by token, span and value, and how its confidence
/// separates right answers from wrong ones.
public struct NLUEvaluation: Sendable {
  /// One example and what the bot made of it.
  public struct Judged: Sendable, Hashable {
    public var example: NLUTestExample
    /// As the bot answered it.
    public var answered: NLUPrediction
    /// The intent judged: the bot's, an `nlu_fallback` undone.
    public var predicted: String { answered.withoutFallback.intent?.name ?? "" }
    public var confidence: Double { answered.withoutFallback.intent?.confidence ?? 0 }
    public var isRight: Bool { predicted == example.intent }

    public init(example: NLUTestExample, answered: NLUPrediction) {
      self.example = example
      self.answered = answered
    }
  }

  /// Examples taken for another intent, by pair, most first.
  public struct Confusion: Sendable, Hashable {
    public var intent: String
    public var predicted: String
    public var examples: [Judged]
  }

  /// At one threshold, what the bot would do with the examples: answer right,
  /// answer wrong, or send to the fallback (confidence below it).
  public struct ThresholdPoint: Sendable, Hashable {
    public var threshold: Double
    public var right: Int
    public var wrong: Int
    public var fallback: Int

    /// The objective the sweep maximizes: right answers less `wrongCost` per wrong one
    /// (a fallback, which asks the person to say it again, costs nothing).
    public func score(wrongCost: Double) -> Double { Double(right) - wrongCost * Double(wrong) }
  }

  public var judged: [Judged]
  public var intents: ClassificationReport
  public var entities: EntityEvaluation?
  /// Per language of the examples (`NLUTestExample.language`).
  public var byLanguage: [Language: ClassificationReport]
  public var confusions: [Confusion]
  /// Right and wrong predictions by confidence, in tenths (0–0.1 … 0.9–1.0).
  public var rightHistogram: [Int]
  public var wrongHistogram: [Int]
  /// Thresholds 0.00 to 1.00 by 0.01.
  public var sweep: [ThresholdPoint]
  /// How much worse a wrong answer is than a right one is good.
  public var wrongCost: Double
  /// The bot's fallback threshold, where known, and what it did as deployed.
  public var botThreshold: Double?
  public var asDeployed: ThresholdPoint
  /// The examples there were to ask; more than `judged` when the run stopped early.
  public var planned: Int

  public init(
    _ judged: [Judged], wrongCost: Double = 1, botThreshold: Double? = nil, planned: Int? = nil
  ) {
    self.judged = judged
    self.planned = max(planned ?? judged.count, judged.count)
    self.wrongCost = wrongCost
    self.botThreshold = botThreshold
    intents = ClassificationReport(
      targets: judged.map(\.example.intent), predictions: judged.map(\.predicted))
    entities = EntityEvaluation(judged.map { ($0.example, $0.answered) })
    var byLanguage: [Language: ClassificationReport] = [:]
    for (language, group) in Dictionary(grouping: judged, by: \.example.language) {
      byLanguage[language] = ClassificationReport(
        targets: group.map(\.example.intent), predictions: group.map(\.predicted))
    }
    self.byLanguage = byLanguage
    confusions = Dictionary(grouping: judged.filter { !$0.isRight }) {
      [$0.example.intent, $0.predicted]
    }
    .map { key, group in
      Confusion(
        intent: key[0], predicted: key[1],
        examples: group.sorted { $0.confidence > $1.confidence })
    }
    .sorted {
      $0.examples.count != $1.examples.count
        ? $0.examples.count > $1.examples.count
        : ($0.intent, $0.predicted) < ($1.intent, $1.predicted)
    }
    // Clamped before it becomes an Int: a hostile bot's 1e300 (or inf) is no trap.
    func bin(_ confidence: Double) -> Int {
      confidence.isFinite ? min(9, Int(min(max(confidence, 0), 1) * 10)) : confidence > 0 ? 9 : 0
    }
    var right = [Int](repeating: 0, count: 10)
    var wrong = [Int](repeating: 0, count: 10)
    for item in judged {
      if item.isRight { right[bin(item.confidence)] += 1 } else { wrong[bin(item.confidence)] += 1 }
    }
    rightHistogram = right
    wrongHistogram = wrong
    sweep = (0...100).map { Self.point(judged, threshold: Double($0) / 100) }
    // As deployed: what the bot answered, its fallback as it decided.
    asDeployed = ThresholdPoint(
      threshold: botThreshold ?? 0,
      right: judged.filter { !$0.answered.isFallback && $0.isRight }.count,
      wrong: judged.filter { !$0.answered.isFallback && !$0.isRight }.count,
      fallback: judged.filter(\.answered.isFallback).count)
  }

  static func point(_ judged: [Judged], threshold: Double) -> ThresholdPoint {
    var point = ThresholdPoint(threshold: threshold, right: 0, wrong: 0, fallback: 0)
    for item in judged {
      if item.confidence < threshold {
        point.fallback += 1
      } else if item.isRight {
        point.right += 1
      } else {
        point.wrong += 1
      }
    }
    return point
  }

  /// Whether every example planned was asked.
  public var isComplete: Bool { judged.count == planned }

  /// The threshold the objective is best at (the lowest of equals: fewest fallbacks).
  public var bestThreshold: ThresholdPoint {
    sweep.reduce(sweep[0]) { best, point in
      point.score(wrongCost: wrongCost) > best.score(wrongCost: wrongCost) ? point : best
    }
  }
}

extension NLUEvaluation {
  /// What a run asked: the examples judged so far, the bot's fallback threshold as
  /// it told it, and why the run stopped early, if it did.
  public struct Measured: Sendable {
    public var judged: [Judged] = []
    public var botThreshold: Double?
    public var stop: RobustnessStop?

    public init() {}
  }
}
