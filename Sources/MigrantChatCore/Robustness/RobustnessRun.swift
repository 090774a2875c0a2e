import Foundation
import Synchronization

extension RobustnessExample {
  /// The language the example is written in. Cyrillic with a letter only
  /// Ukrainian has (і ї є ґ, or an apostrophe inside a word) is Ukrainian, with
  /// one only Russian has (ы э ъ ё) Russian; Cyrillic with neither ("де жити",
  /// "медичне страхування") goes by its words (`UkrainianCues`). Latin text is
  /// English (a bot's Czech examples among it).
  public var language: Language {
    guard KeyboardLayout.isCyrillic(Substring(text)) else { return .en }
    let lower = text.lowercased()
    let ukrainianLetters = lower.contains { "іїєґ".contains($0) }
    let russianLetters = lower.contains { "ыэъё".contains($0) }
    if ukrainianLetters != russianLetters { return ukrainianLetters ? .uk : .ru }
    let characters = Array(lower)
    let apostrophe = characters.indices.dropFirst().dropLast().contains { index in
      "'’ʼ".contains(characters[index]) && characters[index - 1].isLetter
        && characters[index + 1].isLetter
    }
    if apostrophe && !russianLetters { return .uk }
    let words = lower.split { !$0.isLetter }.map(String.init)
    let score = words.reduce(0) { $0 + UkrainianCues.score($1) }
    return score > 0 ? .uk : .ru
  }
}

/// Words and endings that tell Ukrainian from Russian written without the
/// letters only one of them has: +1 for a Ukrainian sign, -1 for a Russian one.
enum UkrainianCues {
  static let ukrainianWords: Set<String> = [
    "де", "як", "що", "мені", "треба", "потрібно", "потрібна", "потрібен", "житло", "бувай",
    "добрий", "добре", "дякую", "ні", "чи", "та", "або", "коли", "скільки", "який",
    "яка", "яке", "куди", "будь", "ласка", "можна", "шукаю", "робота", "роботу", "роботи",
    "страхування", "побачення", "проживання", "мене", "мою", "мого", "моя", "ваш", "наш",
    "це", "цей", "ця", "ось", "теж", "також", "тому", "щоб", "вже", "ще", "лише", "тільки",
    "зараз", "сьогодні", "вчора", "тиждень", "місто", "лікар", "лікаря",
  ]

  static let russianWords: Set<String> = [
    "где", "как", "что", "мне", "нужно", "нужна", "нужен", "жилье", "пока", "добрый",
    "спасибо", "да", "нет", "или", "когда", "сколько", "какой", "какая", "какое", "куда",
    "пожалуйста", "можно", "ищу", "работа", "работу", "работы", "страховка", "страховку",
    "меня", "это", "этот", "эта", "вот", "тоже", "также", "поэтому", "чтобы", "уже", "еще",
    "только", "сейчас", "сегодня", "вчера", "неделя", "город", "врач", "врача",
    "привет", "здравствуйте", "свидания",
  ]

  static func score(_ word: String) -> Int {
    if ukrainianWords.contains(word) { return 1 }
    if russianWords.contains(word) { return -1 }
    // Nouns in -ння (Russian -ние), infinitives in -ти (Russian -ть, -ться).
    if word.count > 4, word.hasSuffix("ння") { return 1 }
    if word.count > 4, word.hasSuffix("ние") || word.hasSuffix("ться") { return -1 }
    if word.count > 3, word.hasSuffix("ти") { return 1 }
    if word.count > 3, word.hasSuffix("ть") { return -1 }
    return 0
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
  ///
  /// `chosen`: the classes were asked for by name. Otherwise an English example is not
  /// written on a Cyrillic layout (`Pay ьн мшыф`: what few people type to an English
  /// bot, and would swamp its figures). `byIntent`: judged by `/model/parse`, where
  /// a negation's direction can be judged; by answers, it is left out.
  public static func plan(
    _ examples: [RobustnessExample], languages: [Language], classes: [VariantClass],
    seed: UInt64, chosen: Bool = true, byIntent: Bool = true
  ) -> [(example: RobustnessExample, variant: UtteranceVariant)] {
    examples.filter { languages.contains($0.language) }.flatMap { example in
      let language = example.language
      let mine = Self.classes(for: language, from: classes, chosen: chosen)
      var variants = UtteranceVariants.variants(
        of: example.text, language: language, classes: mine, seed: seed)
      if mine.contains(.entitySwap) {
        variants += EntitySwap.variants(of: example, language: language, seed: seed)
      }
      if mine.contains(.negation), byIntent, Negation.applies(toIntent: example.intent),
        let negated = Negation.variant(of: example.text, language: language)
      {
        variants.append(UtteranceVariant(.negation, "negated", negated))
      }
      return variants.map { (example, $0) }
    }
  }

  /// The classes an example in `language` is written in: all `classes` asked for,
  /// but the keyboard layout for English unless `chosen` by name.
  public static func classes(
    for language: Language, from classes: [VariantClass], chosen: Bool
  ) -> [VariantClass] {
    language == .en && !chosen ? classes.filter { $0 != .keyboardLayout } : classes
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
    rate: Double?, ask: @escaping Ask, progress: (@Sendable (Int, Int) -> Void)? = nil,
    throughClient reading: (@Sendable (String, Language) -> String?)? = nil
  ) async -> Measured {
    // `--through-client`: a variant the chat would send read is asked as read too.
    let readings = plan.map { planned in reading?(planned.variant.text, planned.example.language) }
    var questions = plan.map { ($0.variant.text, $0.example.language) }
    var readAt: [Int: Int] = [:]
    for (index, sent) in readings.enumerated() {
      guard let sent else { continue }
      readAt[index] = questions.count
      questions.append((sent, plan[index].example.language))
    }
    let (replies, stop) = await askAll(
      questions, jobs: jobs, rate: rate, ask: ask, progress: progress)
    let outcomes = plan.indices.compactMap { index -> RobustnessOutcome? in
      let planned = plan[index]
      guard
        var outcome = replies[index].map({
          RobustnessOutcome(example: planned.example, variant: planned.variant, reply: $0)
        })
      else { return nil }
      if reading != nil {
        outcome.throughClient = RobustnessOutcome.ThroughClient(
          sent: readings[index], outcome: readAt[index].flatMap { replies[$0] })
      }
      return outcome
    }
    return Measured(outcomes: outcomes, stop: stop)
  }

  /// Each example as written, asked first: with the API, what the bot understands it
  /// as (a transcript's turn takes that intent; a training example the bot does not
  /// understand as its own intent cannot show what its variants lose); with
  /// `--black-box`, its answer (asked twice, in two fresh conversations, so an
  /// answer that changes by itself is not taken for one a variant changed).
  /// Examples that cannot be judged so are left out, with why.
  public struct References: Sendable {
    public var examples: [RobustnessExample]
    public var skipped: [RobustnessSkip]
    public var stop: RobustnessStop?
  }

  public static func references(
    _ examples: [RobustnessExample], blackBox: Bool, jobs: Int, rate: Double?,
    ask: @escaping Ask, progress: (@Sendable (Int, Int) -> Void)? = nil
  ) async -> References {
    let asked = examples
    let times = blackBox ? 2 : 1
    let questions = asked.flatMap { example in
      Array(repeating: (example.text, example.language), count: times)
    }
    let (replies, stop) = await askAll(
      questions, jobs: jobs, rate: rate, ask: ask, progress: progress)
    // By text and intent: the same text may be an example of two intents.
    var found: [RobustnessExample: Result<RobustnessReply, RobustnessSkip.Reason>] = [:]
    for (index, example) in asked.enumerated() {
      let mine = replies[(index * times)..<((index + 1) * times)]
      guard let first = mine.first.flatMap({ $0 }), mine.allSatisfy({ $0 != nil }) else {
        continue
      }
      switch first {
      case .insight(let insight):
        guard let intent = insight.intent, intent.name != fallbackIntent else {
          found[example] = .failure(.notUnderstood(insight.intent?.confidence))
          continue
        }
        if let expected = example.intent, expected != intent.name {
          found[example] = .failure(
            .understoodOtherwise(intent: intent.name, confidence: intent.confidence))
          continue
        }
        found[example] = .success(first)
      case .answer(let answer):
        // An example the bot says nothing to cannot tell a variant's answer from
        // silence: "both silent" is not a variant kept.
        guard answer.normalized().contains(where: { !$0.allSatisfy { $0 == "\u{1}" } }) else {
          found[example] = .failure(.notUnderstood(nil))
          continue
        }
        let same = mine.allSatisfy { reply in
          if case .answer(let other) = reply {
            return other.normalized(echoing: [example.text])
              == answer.normalized(echoing: [example.text])
          }
          return false
        }
        found[example] = same ? .success(first) : .failure(.answerChanges)
      }
    }
    var kept: [RobustnessExample] = []
    var skipped: [RobustnessSkip] = []
    for var example in examples {
      switch found[example] {
      case .success(.insight(let insight))?:
        example.intent = insight.intent?.name
        example.confidence = insight.intent?.confidence
        example.judgeEntities(found: insight.foundEntities)
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
    await askEach(
      questions.count, jobs: jobs, rate: rate, ask: { await ask(questions[$0].0, questions[$0].1) },
      progress: progress)
  }

  /// Asks questions 0..<count, `jobs` at a time, at most `rate` a second (`evaluate`
  /// and `robustness` alike): the replies by index (nil where not asked: a refusal
  /// stops the run, Ctrl-C cancels it), and the refusal.
  public static func askEach<Reply: Sendable>(
    _ count: Int, jobs: Int, rate: Double?,
    ask: @escaping @Sendable (Int) async -> Result<Reply, RobustnessStop>,
    progress: (@Sendable (Int, Int) -> Void)?
  ) async -> ([Reply?], RobustnessStop?) {
    let clock = ContinuousClock()
    let interval = rate.map { Duration.seconds(1 / max($0, 0.001)) }
    // Each ask takes the next free slot, `interval` after the last: asks started
    // late (a loaded machine) do not then go all at once.
    let pacer = Pacer(interval: interval ?? .zero)
    var replies = [Reply?](repeating: nil, count: count)
    var stop: RobustnessStop?
    var done = 0
    await withTaskGroup(of: (Int, Result<Reply, RobustnessStop>?).self) { group in
      var next = 0
      func startNext() -> Bool {
        guard next < count, stop == nil, !Task.isCancelled else { return false }
        let index = next
        next += 1
        group.addTask {
          if interval != nil { try? await Task.sleep(until: pacer.nextSlot(), clock: clock) }
          guard !Task.isCancelled else { return (index, nil) }
          return (index, await ask(index))
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
        progress?(done, count)
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
