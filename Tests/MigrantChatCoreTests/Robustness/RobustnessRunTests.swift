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
    #expect(plan.count == 10, "four schemes and chat Latin of two Cyrillic examples")
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
      plan, jobs: 4, rate: nil, ask: RobustnessRun.asking(Self.cyrillicOnly))
    #expect(measured.stop == nil)
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
    let parse: RobustnessRun.Parse = { text in
      let count = asked.withLock { count in
        count += 1
        return count
      }
      return count > 3 ? .failure(.notEnabled(server: "http://bot")) : await Self.cyrillicOnly(text)
    }
    let measured = await RobustnessRun.measure(
      plan, jobs: 1, rate: nil, ask: RobustnessRun.asking(parse))
    #expect(measured.stop == .inspector(.notEnabled(server: "http://bot")))
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
    _ = await RobustnessRun.measure(
      plan, jobs: 6, rate: 20,
      ask: RobustnessRun.asking { text in
        times.withLock { $0.append(ContinuousClock.now) }
        return await Self.cyrillicOnly(text)
      })
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
      await RobustnessRun.measure(
        plan, jobs: 1, rate: nil,
        ask: RobustnessRun.asking { text in
          let count = asked.withLock { count in
            count += 1
            return count
          }
          // The fourth question hangs until the run is stopped.
          if count == 4 { try? await Task.sleep(for: .seconds(60)) }
          return await Self.cyrillicOnly(text)
        })
    }
    while asked.withLock({ $0 }) < 4 { try await Task.sleep(for: .milliseconds(10)) }
    task.cancel()
    let measured = await task.value
    #expect((3...4).contains(measured.outcomes.count) && plan.count > 10)
    #expect(asked.withLock { $0 } == 4)
  }

  /// Transcripts' user turns: what the bot understands each as written is the
  /// intent its variants must keep; a turn it does not understand is left out.
  @Test func transcriptTurnsTakeTheIntentTheBotUnderstands() async {
    let location = SourceLocation(file: "t.yaml", line: 1)
    var clicked = Transcript.Step(user: "Жильё", bot: nil, location: location)
    clicked.clicked = true
    let transcript = Transcript(
      name: "Russian", start: "/start",
      steps: [
        Transcript.Step(user: "вид на жительство", bot: nil, location: location),
        clicked, Transcript.Step(user: "2", bot: nil, location: location),
        Transcript.Step(user: "/lang uk", bot: nil, location: location),
        Transcript.Step(user: "непонятное", bot: nil, location: location),
        Transcript.Step(user: " вид на жительство ", bot: nil, location: location),
      ], location: location)
    let turns = RobustnessExample.turns(of: [transcript])
    #expect(turns.map(\.text) == ["вид на жительство", "непонятное"])
    #expect(turns.allSatisfy { $0.intent == nil && $0.origin == "Russian" })
    let parse: RobustnessRun.Parse = { text in
      let intent = ["вид на жительство": "residence", "hello": "greet", "hi": "greet"][text]
      return .success(
        TurnInsight(
          parse: .object([
            "intent": .object([
              "name": .string(intent ?? "nlu_fallback"),
              "confidence": .number(intent == nil ? 0.3 : 0.9),
            ])
          ]), text: text))
    }
    // A training example is asked too: one the bot takes for another intent is left out.
    let references = await RobustnessRun.references(
      turns + [
        RobustnessExample(intent: "greet", text: "hello"),
        RobustnessExample(intent: "goodbye", text: "hi"),
      ], blackBox: false, jobs: 2, rate: nil, ask: RobustnessRun.asking(parse))
    #expect(references.examples.map(\.intent) == ["residence", "greet"])
    #expect(references.examples.first?.confidence == 0.9)
    #expect(references.skipped.map(\.example.text) == ["непонятное", "hi"])
    #expect(references.skipped.first?.reason == .notUnderstood(0.3))
    #expect(
      references.skipped.last?.reason == .understoodOtherwise(intent: "greet", confidence: 0.9))
    let threshold = RobustnessRun.fallbackThreshold(
      [
        TurnInsight(
          parse: .object([
            "intent": .object(["name": .string("nlu_fallback"), "confidence": .number(0.3)])
          ]), text: nil)
      ])
    #expect(threshold == 0.3)
  }

  /// `--black-box`: each example is asked twice; one whose answer changes by
  /// itself is left out, the others are the answers their variants must get.
  @Test func blackBoxReferencesAreStableAnswers() async {
    let asked = Mutex<[String: Int]>([:])
    let ask: RobustnessRun.Ask = { text, _ in
      let count = asked.withLock { counts in
        counts[text, default: 0] += 1
        return counts[text]!
      }
      let said = text == "random" ? "Hi \(count)" : "About \(text)"
      return .success(.answer(RobustnessAnswer(messages: [BotMessage(text: said)])))
    }
    let references = await RobustnessRun.references(
      [
        RobustnessExample(intent: "greet", text: "random"),
        RobustnessExample(intent: nil, text: "housing", origin: "A transcript"),
      ], blackBox: true, jobs: 3, rate: nil, ask: ask)
    #expect(references.examples.map(\.text) == ["housing"])
    #expect(references.examples.first?.answer?.summary == "“About housing”")
    #expect(references.skipped.map(\.reason) == [.answerChanges])
    #expect(asked.withLock { $0 } == ["random": 2, "housing": 2])
    // A variant is kept when its answer reads the same (case and spaces aside).
    let example = references.examples[0]
    let variant = UtteranceVariant(.typo, "one-edit", "housng")
    let same = RobustnessOutcome(
      example: example, variant: variant,
      reply: .answer(RobustnessAnswer(messages: [BotMessage(text: "about  HOUSING")])))
    let other = RobustnessOutcome(
      example: example, variant: variant,
      reply: .answer(RobustnessAnswer(messages: [BotMessage(text: "Sorry?")])))
    #expect(same.isKept(minConfidence: 0.99) && !other.isKept(minConfidence: 0))
    #expect(other.understood == "“Sorry?”")
  }

  /// Ukrainian written without і ї є ґ is told from Russian by its words.
  @Test(arguments: [
    ("де жити", Language.uk), ("медичне страхування", .uk), ("до побачення", .uk),
    ("бувай", .uk), ("добрий день", .uk), ("житло", .uk), ("м'ясо", .uk),
    ("где жить", .ru), ("медицинское страхование", .ru), ("до свидания", .ru),
    ("пока", .ru), ("добрый день", .ru), ("жильё", .ru), ("Брно", .ru), ("zaměstnanecká", .en),
  ])
  func languageOfAnExample(text: String, language: Language) {
    #expect(RobustnessExample(intent: "x", text: text).language == language)
  }
}
