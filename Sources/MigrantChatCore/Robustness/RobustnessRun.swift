import Foundation
import Synchronization

extension RobustnessExample {
  /// The language the example is written in: Ukrainian when it has a letter only
  /// Ukrainian has (і ї є ґ), Russian when it is Cyrillic, English otherwise.
  public var language: Language {
    if text.contains(where: { "іїєґІЇЄҐ".contains($0) }) { return .uk }
    return KeyboardLayout.isCyrillic(Substring(text)) ? .ru : .en
  }
}

/// What the bot made of one text: what `/model/parse` understood, or (`--black-box`)
/// its answer in a fresh conversation.
public enum RobustnessReply: Sendable, Hashable {
  case insight(TurnInsight)
  case answer(RobustnessAnswer)
}

/// Why a run stopped before the end: the API refused, or the bot could not be reached.
public enum RobustnessStop: Error, Sendable, Hashable {
  case inspector(InspectorUnavailable)
  case bot(ChatError)
}

/// Asks a bot what it understands of every variant of its examples (`POST
/// /model/parse`, or its answers with `--black-box`), a few at a time and no
/// faster than a rate, so a production bot is not flooded; stopped, it keeps
/// what was measured.
public enum RobustnessRun {
  public typealias Parse = @Sendable (String) async -> Result<TurnInsight, InspectorUnavailable>
  /// Asks the bot about a text in a language.
  public typealias Ask =
    @Sendable (String, Language) async -> Result<RobustnessReply, RobustnessStop>

  /// Asking through `/model/parse` (which takes no language).
  public static func asking(_ parse: @escaping Parse) -> Ask {
    { text, _ in
      switch await parse(text) {
      case .success(let insight): .success(.insight(insight))
      case .failure(let reason): .failure(.inspector(reason))
      }
    }
  }

  /// Every example's variants: examples in `languages`, each in `classes`.
  public static func plan(
    _ examples: [RobustnessExample], languages: [Language], classes: [VariantClass],
    seed: UInt64
  ) -> [(example: RobustnessExample, variant: UtteranceVariant)] {
    examples.filter { languages.contains($0.language) }.flatMap { example in
      UtteranceVariants.variants(
        of: example.text, language: example.language, classes: classes, seed: seed
      ).map { (example, $0) }
    }
  }

  /// What was measured, and why it stopped early, if it did.
  public struct Measured: Sendable {
    public var outcomes: [RobustnessOutcome]
    public var stop: RobustnessStop?
  }

  /// Asks about each planned variant, `jobs` at a time, at most `rate` a second
  /// (nil: as fast as the bot answers). Outcomes come in the plan's order. A
  /// refusal (not enabled, unauthorized, unreachable) stops the run.
  public static func measure(
    _ plan: [(example: RobustnessExample, variant: UtteranceVariant)], jobs: Int,
    rate: Double?, ask: @escaping Ask, progress: (@Sendable (Int, Int) -> Void)? = nil
  ) async -> Measured {
    let (replies, stop) = await askAll(
      plan.map { ($0.variant.text, $0.example.language) }, jobs: jobs, rate: rate, ask: ask,
      progress: progress)
    let outcomes = zip(plan, replies).compactMap { planned, reply in
      reply.map { RobustnessOutcome(example: planned.example, variant: planned.variant, reply: $0) }
    }
    return Measured(outcomes: outcomes, stop: stop)
  }

  /// What the examples expect, asked of the bot where it is not given: the intent
  /// the bot understands each transcript turn as (`needIntents`, with the API), or
  /// the answer to each example (`--black-box`; asked twice, in two fresh
  /// conversations, so an answer that changes by itself is not taken for one a
  /// variant changed). Examples whose expectation cannot be had are left out, with why.
  public struct References: Sendable {
    public var examples: [RobustnessExample]
    public var skipped: [RobustnessSkip]
    public var stop: RobustnessStop?
  }

  public static func references(
    _ examples: [RobustnessExample], blackBox: Bool, jobs: Int, rate: Double?,
    ask: @escaping Ask, progress: (@Sendable (Int, Int) -> Void)? = nil
  ) async -> References {
    let asked = examples.filter { blackBox || $0.intent == nil }
    let times = blackBox ? 2 : 1
    let questions = asked.flatMap { example in
      Array(repeating: (example.text, example.language), count: times)
    }
    let (replies, stop) = await askAll(
      questions, jobs: jobs, rate: rate, ask: ask, progress: progress)
    var found: [String: Result<RobustnessReply, RobustnessSkip.Reason>] = [:]
    for (index, example) in asked.enumerated() {
      let mine = replies[(index * times)..<((index + 1) * times)]
      guard let first = mine.first.flatMap({ $0 }), mine.allSatisfy({ $0 != nil }) else {
        continue
      }
      switch first {
      case .insight(let insight):
        guard let intent = insight.intent, intent.name != fallbackIntent else {
          found[example.text] = .failure(.notUnderstood(insight.intent?.confidence))
          continue
        }
        found[example.text] = .success(first)
      case .answer(let answer):
        let same = mine.allSatisfy { reply in
          if case .answer(let other) = reply {
            return other.normalized(echoing: [example.text])
              == answer.normalized(echoing: [example.text])
          }
          return false
        }
        found[example.text] = same ? .success(first) : .failure(.answerChanges)
      }
    }
    var kept: [RobustnessExample] = []
    var skipped: [RobustnessSkip] = []
    for var example in examples {
      guard blackBox || example.intent == nil else {
        kept.append(example)
        continue
      }
      switch found[example.text] {
      case .success(.insight(let insight))?:
        example.intent = insight.intent?.name
        example.confidence = insight.intent?.confidence
        kept.append(example)
      case .success(.answer(let answer))?:
        example.answer = answer
        kept.append(example)
      case .failure(let reason)?:
        skipped.append(RobustnessSkip(example: example, reason: reason))
      case nil:
        break  // not asked: the run stopped
      }
    }
    return References(examples: kept, skipped: skipped, stop: stop)
  }

  /// Rasa's fallback intent: its confidence is the `FallbackClassifier` threshold.
  public static let fallbackIntent = "nlu_fallback"

  /// A text no bot has an intent for: asked first, its `nlu_fallback` tells the
  /// bot's fallback threshold.
  public static let nonsenseProbe = "qxzv wkjp"

  /// The bot's fallback threshold, as its answers tell it: Rasa's
  /// `FallbackClassifier` gives `nlu_fallback` the threshold as its confidence.
  public static func fallbackThreshold(_ insights: [TurnInsight]) -> Double? {
    insights.lazy.compactMap(\.intent).first { $0.name == fallbackIntent }?.confidence
  }

  /// Asks each question, `jobs` at a time, at most `rate` a second; the replies in
  /// the questions' order (nil where not asked), and what stopped it.
  static func askAll(
    _ questions: [(String, Language)], jobs: Int, rate: Double?, ask: @escaping Ask,
    progress: (@Sendable (Int, Int) -> Void)?
  ) async -> ([RobustnessReply?], RobustnessStop?) {
    let clock = ContinuousClock()
    let interval = rate.map { Duration.seconds(1 / max($0, 0.001)) }
    // Each ask takes the next free slot, `interval` after the last: asks started
    // late (a loaded machine) do not then go all at once.
    let pacer = Pacer(interval: interval ?? .zero)
    var replies = [RobustnessReply?](repeating: nil, count: questions.count)
    var stop: RobustnessStop?
    var done = 0
    await withTaskGroup(of: (Int, Result<RobustnessReply, RobustnessStop>?).self) { group in
      var next = 0
      func startNext() -> Bool {
        guard next < questions.count, stop == nil, !Task.isCancelled else { return false }
        let index = next
        next += 1
        group.addTask {
          if interval != nil { try? await Task.sleep(until: pacer.nextSlot(), clock: clock) }
          guard !Task.isCancelled else { return (index, nil) }
          return (index, await ask(questions[index].0, questions[index].1))
        }
        return true
      }
      for _ in 0..<max(jobs, 1) where !startNext() { break }
      while let (index, answer) = await group.next() {
        switch answer {
        case .success(let reply)?: replies[index] = reply
        case .failure(.bot(.cancelled))?: break  // Ctrl-C: the caller knows
        case .failure(let reason)?: if stop == nil { stop = reason }
        case nil: break
        }
        done += 1
        progress?(done, questions.count)
        _ = startNext()
      }
    }
    return (replies, stop)
  }
}

/// The instants asks may start at: each `interval` after the one before, never in the past.
private final class Pacer: Sendable {
  private let interval: Duration
  private let last: Mutex<ContinuousClock.Instant>

  init(interval: Duration) {
    self.interval = interval
    last = Mutex(ContinuousClock.now - interval)
  }

  func nextSlot() -> ContinuousClock.Instant {
    last.withLock { last in
      last = max(ContinuousClock.now, last + interval)
      return last
    }
  }
}
