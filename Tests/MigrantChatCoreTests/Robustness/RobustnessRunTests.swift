import Foundation
import Synchronization
import Testing

@testable import MigrantChatCore

@Suite struct RobustnessRunTests {
  let examples = [
    RobustnessExample(intent: "residence", text: "вид на жительство"),
    RobustnessExample(intent: "residence", text: "посвідка на проживання"),
    RobustnessExample(intent: "greet", text: "hello"),
  ]

  @Test func examplesKnowTheirLanguage() {
    #expect(examples.map(\.language) == [.ru, .uk, .en])
  }

  @Test func thePlanIsTheVariantsOfTheExamplesInTheLanguages() {
    let plan = RobustnessRun.plan(
      examples, languages: [.ru, .uk], classes: [.transliteration], seed: 1)
    #expect(Set(plan.map(\.example.intent)) == ["residence"])
    #expect(plan.count == 8, "four schemes of two Cyrillic examples")
    #expect(plan.contains { $0.variant.text == "vid na zhitelstvo" })
  }

  /// A bot that knows only Cyrillic: transliterations fall to nlu_fallback.
  static let cyrillicOnly: RobustnessRun.Parse = { text in
    let cyrillic = KeyboardLayout.isCyrillic(Substring(text))
    return .success(
      TurnInsight(
        parse: .object([
          "intent": .object([
            "name": .string(cyrillic ? "residence" : "nlu_fallback"),
            "confidence": .number(cyrillic ? 0.9 : 0.35),
          ])
        ]), text: text))
  }

  @Test func outcomesComeInThePlansOrderWhateverTheJobs() async {
    let plan = RobustnessRun.plan(
      examples, languages: [.ru], classes: [.transliteration, .ruUkMix], seed: 1)
    let measured = await RobustnessRun.measure(
      plan, jobs: 4, rate: nil, parse: Self.cyrillicOnly)
    #expect(measured.unavailable == nil)
    #expect(measured.outcomes.map(\.variant) == plan.map(\.variant))
    let report = RobustnessReport(outcomes: measured.outcomes, minConfidence: 0.5)
    #expect(report.classes.first { $0.0 == .transliteration }?.1.kept == 0)
    #expect(report.classes.first { $0.0 == .ruUkMix }?.1.share == 1)
  }

  /// A refusal stops the run: what was measured is kept, the reason said.
  @Test func aRefusalStopsTheRun() async {
    let plan = RobustnessRun.plan(
      examples, languages: [.ru, .uk, .en], classes: VariantClass.allCases, seed: 1)
    let asked = Mutex(0)
    let measured = await RobustnessRun.measure(plan, jobs: 1, rate: nil) { text in
      let count = asked.withLock { count in
        count += 1
        return count
      }
      return count > 3 ? .failure(.notEnabled(server: "http://bot")) : await Self.cyrillicOnly(text)
    }
    #expect(measured.unavailable == .notEnabled(server: "http://bot"))
    #expect(measured.outcomes.count == 3)
    #expect(asked.withLock { $0 } == 4, "nothing asked after the refusal")
  }

  /// At most `rate` a second: the sixth of 6 asks at 20 a second is a quarter of a
  /// second or more after the start, however the asks were scheduled.
  @Test func theRateSpacesTheAsks() async {
    let plan = Array(
      RobustnessRun.plan(examples, languages: [.ru], classes: VariantClass.allCases, seed: 1)
        .prefix(6))
    let times = Mutex<[ContinuousClock.Instant]>([])
    let start = ContinuousClock.now
    _ = await RobustnessRun.measure(plan, jobs: 6, rate: 20) { text in
      times.withLock { $0.append(ContinuousClock.now) }
      return await Self.cyrillicOnly(text)
    }
    let sorted = times.withLock { $0.sorted() }
    #expect(sorted.count == 6)
    if let last = sorted.last { #expect(last - start >= .milliseconds(250)) }
  }

  /// Stopped (Ctrl-C cancels the run's task): what was measured is kept, nothing more asked.
  @Test func aCancelledRunKeepsWhatItMeasured() async throws {
    let plan = RobustnessRun.plan(
      examples, languages: [.ru, .uk], classes: VariantClass.allCases, seed: 1)
    let asked = Mutex(0)
    let task = Task {
      await RobustnessRun.measure(plan, jobs: 1, rate: nil) { text in
        let count = asked.withLock { count in
          count += 1
          return count
        }
        // The fourth question hangs until the run is stopped.
        if count == 4 { try? await Task.sleep(for: .seconds(60)) }
        return await Self.cyrillicOnly(text)
      }
    }
    while asked.withLock({ $0 }) < 4 { try await Task.sleep(for: .milliseconds(10)) }
    task.cancel()
    let measured = await task.value
    #expect((3...4).contains(measured.outcomes.count) && plan.count > 10)
    #expect(asked.withLock { $0 } == 4)
  }
}
