import Foundation

/// One example of what people say to a bot: a training example (its intent
/// given), or a user turn of a transcript (its intent what the bot understands it
/// as, or with `--black-box` the bot's answer to it).
public struct RobustnessExample: Sendable, Hashable {
  /// The intent it must be understood as; nil until asked (a transcript's turn).
  public var intent: String?
  public var text: String
  /// The transcript it was taken from.
  public var origin: String?
  /// How sure the bot was of `intent` for this text as written, when asked.
  public var confidence: Double?
  /// `--black-box`: the bot's answer to this text in a fresh conversation.
  public var answer: RobustnessAnswer?
  /// The entities Rasa's training data marks in it, in order.
  public var entities: [EntityMark] = []
  /// The entities the bot found in it as written (`label=value`, the value after its
  /// synonyms), when asked by `/model/parse`.
  public var foundEntities: [String]?
  /// What each variant must find (`label=value`): the marked entities the bot found
  /// in it as written (`judgeEntities`).
  public var expectedEntities: [String]?
  /// The marked entities the bot did not find even as written.
  public var entitiesMissedAsWritten: [String] = []

  /// An entity marked in a training example: where it is in the plain text (in
  /// characters) and its mark as written after the brackets (`(city)`,
  /// `{"entity": "city", "value": "Praha"}`).
  public struct EntityMark: Sendable, Hashable {
    public var start: Int
    public var length: Int
    public var mark: String
  }

  public init(intent: String?, text: String, origin: String? = nil) {
    self.intent = intent
    self.text = text
    self.origin = origin
  }

  /// An example as Rasa's NLU training data writes it: the plain text, and its entities.
  public init(intent: String, annotated: String) {
    let (text, entities) = Self.parse(annotated)
    self.init(intent: intent, text: text)
    self.entities = entities
  }

  /// What the report groups it under: its intent, else its transcript.
  public var group: String { intent ?? origin ?? text }

  /// The user turns of transcripts people type (not a button clicked, a button
  /// number, a `/command` or a line without letters), each text once.
  public static func turns(of transcripts: [Transcript]) -> [RobustnessExample] {
    var seen = Set<String>()
    var examples: [RobustnessExample] = []
    for transcript in transcripts {
      let lines =
        [transcript.start].compactMap { $0 }
        + transcript.steps.filter { !$0.clicked }.map(\.user)
      for line in lines {
        let text = line.trimmingWhitespace()
        guard !text.hasPrefix("/"), text.contains(where: \.isLetter),
          seen.insert(text).inserted
        else { continue }
        examples.append(RobustnessExample(intent: nil, text: text, origin: transcript.name))
      }
    }
    return examples
  }

  /// An example as Rasa's NLU training data writes it, entities marked
  /// (`[Brno](city)`, `[Brno](city:Brno)`, `[Brno]{"entity": "city"}`): the
  /// text a person would type, the marks taken out.
  public static func plainText(_ annotated: String) -> String { parse(annotated).text }

  static func parse(_ annotated: String) -> (text: String, entities: [EntityMark]) {
    var output = ""
    var count = 0
    var entities: [EntityMark] = []
    var rest = Substring(annotated)
    func append<S: StringProtocol>(_ part: S) {
      output += part
      count += part.count
    }
    while let open = rest.firstIndex(of: "[") {
      append(rest[..<open])
      let afterOpen = rest.index(after: open)
      guard let close = rest[afterOpen...].firstIndex(of: "]") else {
        append(rest[open...])
        return (output, entities)
      }
      let inner = rest[afterOpen..<close]
      let next = rest.index(after: close)
      let pairs: [Character: Character] = ["(": ")", "{": "}"]
      if next < rest.endIndex, let ending = pairs[rest[next]],
        let end = rest[next...].firstIndex(of: ending)
      {
        entities.append(
          EntityMark(start: count, length: inner.count, mark: String(rest[next...end])))
        append(inner)
        rest = rest[rest.index(after: end)...]
      } else {
        append(rest[open..<next])
        rest = rest[next...]
      }
    }
    append(rest)
    return (output, entities)
  }

  /// `variant` with this example's entities marked where they fall in it, as Rasa's
  /// training data writes them; nil when they cannot be placed. Every variant but
  /// a typo keeps the words (spaces stay spaces), so an entity is the same words of
  /// the variant, less the punctuation its first word had before it and its last
  /// word after it (and what the variant added there: `Брно??`). The mark gets the
  /// example's value when the variant spells it otherwise (`[Brno]{"entity":
  /// "city", "value": "Брно"}`), so the slot is still filled right. A variant with
  /// brackets or braces of its own (х and ъ on QWERTY) is nil: Rasa would read
  /// them as marks.
  public func annotated(_ variant: String) -> String? {
    guard !entities.isEmpty else { return variant }
    guard !variant.contains(where: { "[]{}".contains($0) }) else { return nil }
    let characters = Array(text)
    let words = text.split(separator: " ", omittingEmptySubsequences: false)
    var variantWords = variant.split(separator: " ", omittingEmptySubsequences: false)
      .map(String.init)
    guard words.count == variantWords.count else { return nil }
    var starts: [Int] = []
    var offset = 0
    for word in words {
      starts.append(offset)
      offset += word.count + 1
    }
    func isWordCharacter(_ character: Character) -> Bool {
      character.isLetter || character.isNumber
    }
    for entity in entities.sorted(by: { $0.start > $1.start }) {
      let end = entity.start + entity.length
      guard let first = starts.lastIndex(where: { $0 <= entity.start }),
        let last = starts.lastIndex(where: { $0 < end }), last >= first
      else { return nil }
      let before = entity.start - starts[first]
      let after = starts[last] + words[last].count - end
      guard after >= 0,
        characters[starts[first]..<entity.start].allSatisfy({ !isWordCharacter($0) }),
        characters[end..<(starts[last] + words[last].count)].allSatisfy({ !isWordCharacter($0) })
      else { return nil }
      // What the variant has around the words: as many signs as the example had,
      // and those it added at the end.
      var lastWord = variantWords[last]
      let added = max(0, lastWord.count - words[last].count)
      var tail = ""
      while tail.count < after + added, let character = lastWord.last, !isWordCharacter(character) {
        tail = String(character) + tail
        lastWord.removeLast()
      }
      variantWords[last] = lastWord
      var firstWord = variantWords[first]
      var head = ""
      while head.count < before, let character = firstWord.first, !isWordCharacter(character) {
        head.append(character)
        firstWord.removeFirst()
      }
      guard head.count == before else { return nil }
      variantWords[first] = firstWord
      let inner = variantWords[first...last].joined(separator: " ")
      guard !inner.isEmpty else { return nil }
      let original = String(characters[entity.start..<end])
      variantWords.replaceSubrange(
        first...last,
        with: [
          head + "[" + inner + "]"
            + Self.mark(entity.mark, value: inner == original ? nil : original) + tail
        ])
    }
    return variantWords.joined(separator: " ")
  }

  /// An entity's mark with `value` added where it has none: `(city)` becomes
  /// `{"entity": "city", "value": "Брно"}`; `(city:Brno)` and a `{…}` with a
  /// value stay as they are.
  static func mark(_ mark: String, value: String?) -> String {
    guard let value else { return mark }
    if mark.hasPrefix("("), !mark.contains(":") {
      let name = String(mark.dropFirst().dropLast())
      return JSONValue.object(["entity": .string(name), "value": .string(value)]).compactText
    }
    if mark.hasPrefix("{"), case .object(var members)? = try? JSONParser.parse(mark),
      members["value"] == nil
    {
      members["value"] = .string(value)
      return JSONValue.object(members).compactText
    }
    return mark
  }
}

/// The bot's answer in a fresh conversation, as `--black-box` compares answers.
public struct RobustnessAnswer: Sendable, Hashable {
  public var messages: [BotMessage]

  public init(messages: [BotMessage]) { self.messages = messages }

  /// Text, buttons (title and payload), contacts and image of each message, in
  /// lowercase with runs of white space as one space, and each of `echoes` (the
  /// example and its variant) where the text quotes it as one mark: answers that
  /// read the same but for the words they echo ("Guides that match 'helth'") are
  /// the same.
  public func normalized(echoing echoes: [String] = []) -> [String] {
    func fold(_ text: String?) -> String {
      (text ?? "").lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
    let marks = echoes.map(fold).filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    func unquoted(_ text: String?) -> String {
      marks.reduce(fold(text)) { $0.replacingOccurrences(of: $1, with: "\u{2}") }
    }
    return messages.map { message in
      ([unquoted(message.text)] + message.buttons.map { fold($0.title) + "→" + fold($0.payload) }
        + [message.contactIDs.joined(separator: ","), message.image ?? ""])
        .joined(separator: "\u{1}")
    }
  }

  /// One line to show it by, quoted and at most 60 characters.
  public var summary: String {
    "“" + (firstLine.count > 60 ? firstLine.prefix(59) + "…" : firstLine) + "”"
  }

  /// The first line of its first text, else its first button or contact.
  public var firstLine: String {
    let first =
      messages.lazy.compactMap(\.text).first { !$0.isEmpty }
      ?? messages.lazy.flatMap(\.buttons).first.map { "[\($0.title)]" }
      ?? messages.lazy.flatMap(\.contactIDs).first.map { "#\($0)" } ?? ""
    return first.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
  }
}

/// An example that could not be measured, and why.
public struct RobustnessSkip: Sendable, Hashable {
  public enum Reason: Error, Sendable, Hashable {
    /// The bot does not understand the text as written (`nlu_fallback`, or no intent).
    case notUnderstood(Double?)
    /// The bot understands the training example as written as another intent.
    case understoodOtherwise(intent: String, confidence: Double?)
    /// Two fresh conversations got two different answers to it (`--black-box`).
    case answerChanges
  }

  public var example: RobustnessExample
  public var reason: Reason

  public init(example: RobustnessExample, reason: Reason) {
    self.example = example
    self.reason = reason
  }
}

/// What the bot made of one variant, and whether that keeps the example's intent
/// (or, `--black-box`, its answer).
public struct RobustnessOutcome: Sendable, Hashable {
  public var example: RobustnessExample
  public var variant: UtteranceVariant
  /// The intent the bot found (nil when it found none), or its answer's first line.
  public var understood: String?
  public var confidence: Double?
  /// `--black-box`: the answer to the variant.
  public var answer: RobustnessAnswer?
  /// The entities the bot found in the variant (`label=value`), by `/model/parse`.
  public var foundEntities: [String]?
  /// `--through-client`: the variant as the chat sends it (read first, #48), and what
  /// the bot made of that; nil when not measured so.
  public var throughClient: ThroughClient?

  /// What the chat sends for a variant: its reading (nil: the variant as typed, then
  /// judged as the variant is), and the bot's answer to it.
  public struct ThroughClient: Sendable, Hashable {
    public var sent: String?
    public var outcome: RobustnessReply?

    public init(sent: String?, outcome: RobustnessReply?) {
      self.sent = sent
      self.outcome = outcome
    }
  }

  /// Kept as the chat sends it: the reading's outcome judged as a variant's is.
  public func isKeptThroughClient(minConfidence: Double) -> Bool {
    guard let through = throughClient, through.sent != nil else {
      return isKept(minConfidence: minConfidence)
    }
    guard let reply = through.outcome else { return false }
    var read = RobustnessOutcome(example: example, variant: variant, reply: reply)
    if let sent = through.sent { read.variant.text = sent }
    return read.isKept(minConfidence: minConfidence)
  }

  public init(
    example: RobustnessExample, variant: UtteranceVariant, understood: String?,
    confidence: Double?
  ) {
    self.example = example
    self.variant = variant
    self.understood = understood
    self.confidence = confidence
  }

  public init(example: RobustnessExample, variant: UtteranceVariant, reply: RobustnessReply) {
    switch reply {
    case .insight(let insight):
      self.init(
        example: example, variant: variant, understood: insight.intent?.name,
        confidence: insight.intent?.confidence)
      foundEntities = insight.foundEntities
    case .answer(let answer):
      self.init(example: example, variant: variant, understood: answer.summary, confidence: nil)
      self.answer = answer
    }
  }

  /// Kept when the bot finds the example's intent at `minConfidence` or more; with
  /// `--black-box`, when it answers as it answered the example.
  public func isKept(minConfidence: Double) -> Bool {
    if let expected = example.answer {
      let echoes = [example.text, variant.text]
      return answer?.normalized(echoing: echoes) == expected.normalized(echoing: echoes)
    }
    return keepsIntent(minConfidence: minConfidence) && keepsEntities
  }

  /// The example's intent found, at `minConfidence` or more.
  public func keepsIntent(minConfidence: Double) -> Bool {
    understood != nil && understood == example.intent && (confidence ?? 0) >= minConfidence
  }

  /// The intent kept, but an entity lost or changed: a failure of its own kind.
  public func losesEntity(minConfidence: Double) -> Bool {
    keepsIntent(minConfidence: minConfidence) && !keepsEntities
  }

}

/// Variants and kept variants by class and by intent, and the failures, as the
/// command prints them and `--report` writes them.
public struct RobustnessReport: Sendable {
  public struct Count: Sendable, Hashable {
    public var variants = 0
    public var kept = 0
    /// `--through-client`: kept as the chat sends them; nil when not measured.
    public var keptThroughClient: Int?

    public var share: Double { variants == 0 ? 1 : Double(kept) / Double(variants) }
  }

  public var outcomes: [RobustnessOutcome]
  public var minConfidence: Double
  /// `minConfidence` is the bot's own fallback threshold (its `nlu_fallback` said it).
  public var confidenceFromBot = false
  /// Examples left out, and why.
  public var skipped: [RobustnessSkip] = []
  /// Judged by the bot's answers (`--black-box`), not by `/model/parse`.
  public var blackBox = false
  /// `--templates`: each filled template's outcome, reported apart from the variants.
  public var templates: [TemplateOutcome] = []
  /// The variants there were to ask; more than `outcomes` when the run stopped early.
  public var planned: Int?

  public init(outcomes: [RobustnessOutcome], minConfidence: Double) {
    self.outcomes = outcomes
    self.minConfidence = minConfidence
  }

  /// The outcomes judged kept or not: all but the directional tests (negation).
  public var judged: [RobustnessOutcome] {
    outcomes.filter { !$0.variant.variantClass.isDirectional }
  }

  /// Negated examples: reported apart, never counted as kept.
  public var negations: [RobustnessOutcome] {
    outcomes.filter { $0.variant.variantClass == .negation }
  }

  /// Counts per class, in `VariantClass` order.
  public var classes: [(VariantClass, Count)] {
    VariantClass.allCases.compactMap { variantClass in
      let ofClass = judged.filter { $0.variant.variantClass == variantClass }
      guard !ofClass.isEmpty else { return nil }
      return (variantClass, count(ofClass))
    }
  }

  /// Counts per intent (or transcript, `RobustnessExample.group`) and class, by name.
  public var intents: [(String, [(VariantClass, Count)])] {
    Dictionary(grouping: judged, by: \.example.group).sorted { $0.key < $1.key }.map {
      intent, outcomes in
      let byClass = VariantClass.allCases.compactMap { variantClass -> (VariantClass, Count)? in
        let ofClass = outcomes.filter { $0.variant.variantClass == variantClass }
        return ofClass.isEmpty ? nil : (variantClass, count(ofClass))
      }
      return (intent, byClass)
    }
  }

  public var failures: [RobustnessOutcome] {
    judged.filter { !$0.isKept(minConfidence: minConfidence) }
  }

  /// The variants that kept the intent but lost or changed an entity.
  public var entityLosses: [RobustnessOutcome] {
    judged.filter { $0.losesEntity(minConfidence: minConfidence) }
  }

  /// The share of all variants kept.
  public var kept: Double { count(judged).share }

  private func count(_ outcomes: [RobustnessOutcome]) -> Count {
    var count = Count(
      variants: outcomes.count, kept: outcomes.count { $0.isKept(minConfidence: minConfidence) })
    if throughClient {
      count.keptThroughClient = outcomes.count {
        $0.isKeptThroughClient(minConfidence: minConfidence)
      }
    }
    return count
  }

  /// Measured as the chat sends each variant too (`--through-client`).
  public var throughClient: Bool { judged.contains { $0.throughClient != nil } }

  /// Counts per language and class (`--through-client` prints them).
  public var languages: [(Language, [(VariantClass, Count)])] {
    Dictionary(grouping: judged, by: \.example.language).sorted {
      $0.key.rawValue < $1.key.rawValue
    }
    .map { language, outcomes in
      let byClass = VariantClass.allCases.compactMap { variantClass -> (VariantClass, Count)? in
        let ofClass = outcomes.filter { $0.variant.variantClass == variantClass }
        return ofClass.isEmpty ? nil : (variantClass, count(ofClass))
      }
      return (language, byClass)
    }
  }

  /// `--report`: `classes: {NAME: {variants, kept}}`, `intents`, `failures`.
  public var json: JSONValue {
    func counts(_ list: [(VariantClass, Count)]) -> JSONValue {
      .object(
        Dictionary(
          uniqueKeysWithValues: list.map {
            (
              $0.0.rawValue,
              .object(
                [
                  "variants": .number(Double($0.1.variants)), "kept": .number(Double($0.1.kept)),
                ].merging(
                  $0.1.keptThroughClient.map {
                    ["kept_through_client": JSONValue.number(Double($0))]
                  } ?? [:]
                ) { first, _ in first })
            )
          }))
    }
    func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
    return .object([
      "judged_by": .string(blackBox ? "answer" : "intent"),
      "min_confidence": blackBox ? .null : .number(minConfidence),
      "variants": .number(Double(judged.count)),
      "kept": .number(Double(judged.count - failures.count)),
      "lost_entity": .number(Double(entityLosses.count)),
      "planned": .number(Double(max(planned ?? outcomes.count, outcomes.count))),
      "complete": .bool((planned ?? outcomes.count) <= outcomes.count),
      "negation": negationJSON,
      "templates": templatesJSON,
      "entities_missed_as_written": missedAsWrittenJSON,
      "classes": counts(classes),
      "intents": .object(Dictionary(uniqueKeysWithValues: intents.map { ($0.0, counts($0.1)) })),
      "failures": .array(
        failures.map { outcome in
          .object([
            "intent": optional(outcome.example.intent), "example": .string(outcome.example.text),
            "transcript": optional(outcome.example.origin),
            "class": .string(outcome.variant.variantClass.rawValue),
            "scheme": .string(outcome.variant.scheme), "variant": .string(outcome.variant.text),
            "understood": optional(outcome.answer.map(\.firstLine) ?? outcome.understood),
            "confidence": outcome.confidence.map(JSONValue.number) ?? .null,
            "lost_entities": .array(outcome.lostEntities.map(JSONValue.string)),
            "extra_entities": .array(outcome.extraEntities.map(JSONValue.string)),
          ])
        }),
      "skipped": .array(
        skipped.map { skip in
          var fields: [String: JSONValue] = [
            "example": .string(skip.example.text), "transcript": optional(skip.example.origin),
          ]
          switch skip.reason {
          case .notUnderstood(let confidence):
            fields["reason"] = .string("not_understood")
            fields["confidence"] = confidence.map(JSONValue.number) ?? .null
          case .understoodOtherwise(let intent, let confidence):
            fields["reason"] = .string("understood_otherwise")
            fields["intent"] = optional(skip.example.intent)
            fields["understood"] = .string(intent)
            fields["confidence"] = confidence.map(JSONValue.number) ?? .null
          case .answerChanges:
            fields["reason"] = .string("answer_changes")
          }
          return .object(fields)
        }),
    ])
  }

  /// The failing variants as Rasa NLU training data under their example's intent,
  /// to review and add (`--write-nlu`). Examples without a known intent (a
  /// transcript's turn judged `--black-box`) have nowhere to go and are left out.
  public var nluYAML: String {
    var text = "version: \"3.1\"\nnlu:\n"
    var unplaced = 0
    // Each failing variant's line (nil: its entities could not be placed), by intent.
    var lines: [(intent: String, text: String, annotated: String?)] = failures.compactMap {
      outcome in
      guard let intent = outcome.example.intent else { return nil }
      return (
        intent, outcome.variant.text,
        outcome.variant.swap?.annotated ?? outcome.example.annotated(outcome.variant.text)
      )
    }
    // A template's failing sentences, its slots marked, go under its intent too.
    lines += templateFailures.map { failure in
      (failure.filled.template.intent, failure.filled.text, failure.filled.annotated)
    }
    if lines.isEmpty { return text.replacingOccurrences(of: "nlu:\n", with: "nlu: []\n") }
    for (intent, group) in Dictionary(grouping: lines, by: \.intent).sorted(by: { $0.key < $1.key })
    {
      text += "- intent: \(Self.yamlScalar(intent))\n  examples: |\n"
      var seen = Set<String>()
      for line in group where seen.insert(line.text).inserted {
        guard let annotated = line.annotated else {
          unplaced += 1
          continue
        }
        text += "    - \(annotated.replacingOccurrences(of: "\n", with: " "))\n"
      }
    }
    // A variant whose entities could not be placed (a typo joined or split their
    // words) is left out: written unmarked, it would teach that they are none.
    if unplaced > 0 {
      text =
        "# \(unplaced) variant(s) left out: their example's entities could not be marked in them.\n"
        + text
    }
    return text
  }

  /// A YAML plain scalar when the name is one, else double-quoted.
  static func yamlScalar(_ name: String) -> String {
    let plain =
      !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || "_-./".contains($0) }
    return plain ? name : JSONValue.string(name).compactText
  }
}

extension RobustnessReport {
  /// What the command prints: the share kept, a table of classes, each intent's
  /// classes, and the first `failuresShown` failures (`example → variant: intent
  /// confidence`). Bot text is cleaned: intent names come from the server.
  public func text(_ l10n: Localizer, failuresShown: Int = 20) -> String {
    // Only negations or templates asked: their sections, no table of nothing.
    if judged.isEmpty, !negations.isEmpty || !templates.isEmpty {
      let lines = entityAndNegationLines(l10n) + templateLines(l10n)
      let text = lines.drop { $0.isEmpty }.joined(separator: "\n") + "\n"
      return skipped.isEmpty ? text : text + "\n" + skippedText(l10n)
    }
    func percent(_ share: Double) -> String { l10n.number(share * 100, fractionDigits: 0) + "%" }
    func clean(_ text: String) -> String { TerminalSanitizer.clean(text, keepNewlines: false) }
    let summary: MessageKey =
      blackBox
      ? .robustnessSummaryAnswers
      : confidenceFromBot ? .robustnessSummaryFallback : .robustnessSummary
    // Stopped early: said first, so no one takes the figures for the whole run's.
    let partial =
      (planned ?? 0) > outcomes.count
      ? [
        l10n(
          .robustnessPartial,
          ["asked": String(outcomes.count), "planned": String(planned ?? 0)])
      ] : []
    var lines: [String] =
      partial + [
        l10n(
          summary,
          [
            "kept": String(judged.count - failures.count), "variants": String(judged.count),
            "share": percent(kept), "confidence": l10n.number(minConfidence, fractionDigits: 2),
          ]), "",
      ]
    var headers = [
      l10n(.robustnessClassHeader), l10n(.robustnessVariantsHeader), l10n(.robustnessKeptHeader),
    ]
    if throughClient { headers.append(l10n(.robustnessThroughClientHeader)) }
    func throughShare(_ count: Count) -> String {
      percent(
        count.variants == 0 ? 1 : Double(count.keptThroughClient ?? 0) / Double(count.variants))
    }
    func table(_ rows: [[String]]) {
      let widths = headers.indices.map { column in
        ([headers] + rows).map { $0[column].count }.max() ?? 0
      }
      for row in [headers] + rows {
        var line = "  " + row[0].padding(toLength: widths[0], withPad: " ", startingAt: 0)
        for column in 1..<row.count {
          line +=
            "  " + String(repeating: " ", count: widths[column] - row[column].count) + row[column]
        }
        lines.append(line)
      }
    }
    func rows(_ counts: [(VariantClass, Count)]) -> [[String]] {
      counts.map {
        [$0.0.rawValue, String($0.1.variants), percent($0.1.share)]
          + (throughClient ? [throughShare($0.1)] : [])
      }
    }
    table(rows(classes))
    if throughClient {
      for (language, counts) in languages {
        lines += ["", l10n(.robustnessThroughClientLanguage, ["language": language.rawValue])]
        table(rows(counts))
      }
    }
    let byIntent = outcomes.contains { $0.example.intent != nil } || outcomes.isEmpty
    lines += ["", l10n(byIntent ? .robustnessByIntent : .robustnessByTranscript)]
    for (intent, counts) in intents {
      let total = counts.reduce(0) { $0 + $1.1.variants }
      lines.append(
        "  \(clean(intent)) (\(total)): "
          + counts.map { "\($0.0.rawValue) \(percent($0.1.share))" }.joined(separator: ", "))
    }
    // Another intent found, surest first: what a bot team must see before the fallbacks.
    let failing = failures.enumerated().sorted { a, b in
      func rank(_ outcome: RobustnessOutcome) -> Double {
        guard !blackBox, let understood = outcome.understood,
          understood != RobustnessRun.fallbackIntent
        else { return -2 }
        // The right intent, not sure enough, after every wrong one.
        return understood == outcome.example.intent ? -1 : outcome.confidence ?? 0
      }
      let (left, right) = (rank(a.element), rank(b.element))
      return left != right ? left > right : a.offset < b.offset
    }.map(\.element)
    if !failing.isEmpty {
      lines += ["", l10n(blackBox ? .robustnessFailuresAnswers : .robustnessFailures)]
      for outcome in failing.prefix(failuresShown) {
        let understood = outcome.understood.map(clean) ?? "—"
        let confidence = outcome.confidence.map { l10n.number($0, fractionDigits: 2) } ?? ""
        var line =
          "  \(clean(outcome.example.text)) → \(clean(outcome.variant.text)): "
          + "\(understood) \(confidence)".trimmingWhitespace()
        if outcome.losesEntity(minConfidence: minConfidence) {
          line += "; " + entityChange(outcome, l10n)
        }
        lines.append(line)
      }
      if failing.count > failuresShown {
        lines.append(
          "  " + l10n(.robustnessMoreFailures, ["count": String(failing.count - failuresShown)]))
      }
    }
    lines += entityAndNegationLines(l10n)
    lines += templateLines(l10n)
    let text = lines.joined(separator: "\n") + "\n"
    return skipped.isEmpty ? text : text + "\n" + skippedText(l10n)
  }

  /// The examples left out and why, a line for each reason.
  public func skippedText(_ l10n: Localizer) -> String {
    func clean(_ text: String) -> String { TerminalSanitizer.clean(text, keepNewlines: false) }
    var lines: [String] = []
    var notUnderstood: [RobustnessSkip] = []
    var otherwise: [RobustnessSkip] = []
    var changing: [RobustnessSkip] = []
    for skip in skipped {
      switch skip.reason {
      case .notUnderstood: notUnderstood.append(skip)
      case .understoodOtherwise: otherwise.append(skip)
      case .answerChanges: changing.append(skip)
      }
    }
    for (list, key) in [
      (notUnderstood, MessageKey.robustnessSkippedNotUnderstood),
      (otherwise, .robustnessSkippedOtherwise), (changing, .robustnessSkippedAnswerChanges),
    ] where !list.isEmpty {
      let shown = list.prefix(5).map { skip in
        var said = "“" + clean(skip.example.text) + "”"
        if case .understoodOtherwise(let intent, let confidence) = skip.reason {
          said +=
            " (\(clean(skip.example.group)) → \(clean(intent))"
            + (confidence.map { " " + l10n.number($0, fractionDigits: 2) } ?? "") + ")"
        }
        return said
      }.joined(separator: ", ")
      lines.append(
        l10n.plural(key, count: list.count, ["examples": shown + (list.count > 5 ? ", …" : "")]))
    }
    return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
  }
}
