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

/// Asks a bot what it understands of every variant of its examples (`POST
/// /model/parse`), a few at a time and no faster than a rate, so a production
/// bot is not flooded; stopped, it keeps what was measured.
public enum RobustnessRun {
  public typealias Parse = @Sendable (String) async -> Result<TurnInsight, InspectorUnavailable>

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

  /// What was measured, and why it stopped early (the API refused), if it did.
  public struct Measured: Sendable {
    public var outcomes: [RobustnessOutcome]
    public var unavailable: InspectorUnavailable?
  }

  /// Asks `parse` about each planned variant, `jobs` at a time, at most `rate` a
  /// second (nil: as fast as the bot answers). Outcomes come in the plan's order.
  /// A refusal of the API (not enabled, unauthorized, unreachable) stops the run.
  public static func measure(
    _ plan: [(example: RobustnessExample, variant: UtteranceVariant)], jobs: Int,
    rate: Double?, parse: @escaping Parse, progress: (@Sendable (Int, Int) -> Void)? = nil
  ) async -> Measured {
    let clock = ContinuousClock()
    let interval = rate.map { Duration.seconds(1 / max($0, 0.001)) }
    // Each ask takes the next free slot, `interval` after the last: asks started
    // late (a loaded machine) do not then go all at once.
    let pacer = Pacer(interval: interval ?? .zero)
    var results = [RobustnessOutcome?](repeating: nil, count: plan.count)
    var unavailable: InspectorUnavailable?
    var done = 0
    await withTaskGroup(of: (Int, Result<TurnInsight, InspectorUnavailable>?).self) { group in
      var next = 0
      func startNext() -> Bool {
        guard next < plan.count, unavailable == nil, !Task.isCancelled else { return false }
        let index = next
        next += 1
        group.addTask {
          if interval != nil { try? await Task.sleep(until: pacer.nextSlot(), clock: clock) }
          guard !Task.isCancelled else { return (index, nil) }
          return (index, await parse(plan[index].variant.text))
        }
        return true
      }
      for _ in 0..<max(jobs, 1) where !startNext() { break }
      while let (index, answer) = await group.next() {
        switch answer {
        case .success(let insight)?:
          results[index] = RobustnessOutcome(
            example: plan[index].example, variant: plan[index].variant,
            understood: insight.intent?.name, confidence: insight.intent?.confidence)
        case .failure(let reason)?:
          if unavailable == nil { unavailable = reason }
        case nil:
          break
        }
        done += 1
        progress?(done, plan.count)
        _ = startNext()
      }
    }
    return Measured(outcomes: results.compactMap { $0 }, unavailable: unavailable)
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
