import Foundation
import Synchronization
import Testing

@testable import MigrantChatCore

/// A bot with one planted defect per button, answering by language and payload.
struct PlantedBot: ChatTransport {
  static let titles: [Language: [String]] = [
    .en: ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta"],
    .ru: ["Альфа", "Бета", "Гамма", "Дельта", "Эпсилон", "Дзета", "Эта"],
    .uk: ["Альфа", "Бета", "Гамма", "Дельта", "Епсилон", "Дзета", "Ета"],
  ]
  static let welcome: [Language: String] = [
    .en: "Welcome, choose a topic", .ru: "Здравствуйте, выберите тему",
    .uk: "Вітаємо, оберіть тему",
  ]
  static let sorry: [Language: String] = [
    .en: "Sorry, I did not understand", .ru: "Извините, я не понял", .uk: "Вибачте, я не зрозумів",
  ]
  static let done: [Language: String] = [.en: "Done here", .ru: "Готово", .uk: "Готово тут"]

  func send(_ request: ChatRequest) async throws(ChatError) -> BotReply {
    let language = request.language
    func text(_ text: String, buttons: [Button] = [], contacts: [Int] = []) -> BotReply {
      var message = BotMessage(text: text, buttons: buttons)
      if !contacts.isEmpty {
        message.custom = .object(["contacts": .array(contacts.map { .number(Double($0)) })])
      }
      return BotReply(messages: [message])
    }
    let done = Self.done[language] ?? ""
    switch request.message {
    case "/start":
      let titles = Self.titles[language] ?? []
      let payloads = ["/a", "/b", "/c", "/d", "/e", "/f", "/g"]
      return text(
        Self.welcome[language] ?? "",
        buttons: zip(titles, payloads).map { Button(title: $0, payload: $1) })
    // A: the Ukrainian branch names other offices.
    case "/a": return text(done, contacts: language == .uk ? [2] : [1])
    // B: the Russian branch lands on the fallback.
    case "/b": return text(language == .ru ? Self.sorry[.ru] ?? "" : done)
    // C: the English answer is in Russian.
    case "/c": return text(language == .en ? "Привет, это ответ" : done)
    // D: an office the directory lacks, in every language.
    case "/d": return text(done, contacts: [999])
    // E: back to the start (a loop, not a failure).
    case "/e":
      return text(
        done, buttons: [Button(title: language == .en ? "Back" : "Назад", payload: "/start")])
    // F: the English server fails.
    case "/f":
      if language == .en { throw .httpStatus(server: "planted", status: 500, firstLine: "boom") }
      return text(done)
    // G: nothing at all in Ukrainian.
    case "/g": return language == .uk ? BotReply(messages: []) : text(done)
    default: return text(Self.sorry[language] ?? "")
    }
  }
}

@Suite struct BotExplorerTests {
  /// A bot that wants `hello`, explored from `/start`: said, quoting the bot (listed, not
  /// a failure: a bot that answers everything alike looks the same).
  @Test func aStartTheBotDoesNotUnderstandIsAFinding() async {
    let explorer = BotExplorer(
      options: BotExplorer.Options(
        languages: [.en], start: "/start", depth: 3, maxTurns: 100, jobs: 2),
      makeTransport: { StartlessBot() }, missingContacts: { _ in [] })
    let (walks, _) = await explorer.run()
    let findings = walks.flatMap(\.findings).filter { $0.kind == .startFallback }
    #expect(findings.count == 1, "\(walks.flatMap(\.findings))")
    let text = findings.first?.detail.text(Localizer(.en)) ?? ""
    #expect(text.contains("“/start”") && text.contains("Sorry, what?"), "\(text)")
  }

  @Test func answerTimesAreTheBotsNotTheQueues() async {
    let explorer = BotExplorer(
      options: BotExplorer.Options(
        languages: [.en], start: "/start", depth: 3, maxTurns: 100, jobs: 4),
      makeTransport: { TimedBot() }, missingContacts: { _ in [] })
    let (walks, _) = await explorer.run()
    let latencies = walks.flatMap(\.latencies)
    #expect(!latencies.isEmpty && latencies.allSatisfy { $0 == 0.007 }, "\(latencies)")
  }

  static func explore(
    _ bot: any ChatTransport, languages: [Language] = Language.allCases, depth: Int = 8,
    maxTurns: Int = 2_000, skipButtons: [String] = []
  ) async -> ExploreReport {
    var options = BotExplorer.Options(
      languages: languages, start: "/start", depth: depth, maxTurns: maxTurns, jobs: 3)
    options.skipButtons = skipButtons
    let explorer = BotExplorer(
      options: options,
      makeTransport: { bot },
      missingContacts: { ids in ids.filter { !["1", "2"].contains($0) } })
    let (walks, mismatches) = await explorer.run()
    return ExploreReport(walks: walks, mismatches: mismatches)
  }

  /// Every planted defect is found, in the language it was planted in, and nothing else.
  @Test func findsExactlyThePlantedDefects() async {
    let report = await Self.explore(PlantedBot())
    let failures = Set(
      report.findings.filter(\.kind.isFailure).map {
        "\($0.kind.rawValue) \($0.language?.rawValue ?? "*") \($0.path.first ?? "")"
      })
    #expect(
      failures == [
        "fallback ru Бета", "wrong-language en Gamma", "missing-contact en Delta",
        "missing-contact ru Дельта", "missing-contact uk Дельта", "error en Zeta",
        "no-answer uk Ета", "language-mismatch en Alpha", "language-mismatch en Eta",
      ])
    #expect(report.failed)
    let loops = report.findings.filter { $0.kind == .loop }.map(\.path)
    #expect(loops.count == 3 && loops.contains(["Epsilon", "Back"]))
    // The mismatches say what differs.
    let l10n = Localizer(.en)
    let alpha = report.findings.first { $0.kind == .languageMismatch && $0.path == ["Alpha"] }
    #expect(
      alpha?.detail.text(l10n, first: .en) == "contacts 1 in en, 2 in uk (the uk path: Альфа)")
    let eta = report.findings.first { $0.kind == .languageMismatch && $0.path == ["Eta"] }
    #expect(eta?.detail.text(l10n, first: .en) == "1 messages in en, 0 in uk (the uk path: Ета)")
  }

  /// A bot with no defect: only notes, exit 0.
  @Test func aSoundBotHasOnlyNotes() async {
    let report = await Self.explore(PlantedBot(), languages: [.ru])
    #expect(report.findings.filter(\.kind.isFailure).map(\.kind) == [.fallback, .missingContact])
    let sound = await Self.explore(SoundBot())
    #expect(!sound.failed)
    #expect(sound.walks.map(\.nodes.count) == [3, 3, 3])
    #expect(sound.findings.map(\.kind).allSatisfy { $0 == .deadEnd })
  }

  /// A thousand buttons and an endless chain: explore stops at its limits and says so.
  @Test func limitsAreKeptAndNamed() async {
    let wide = await Self.explore(WideBot(), languages: [.en], maxTurns: 60)
    #expect(wide.walks[0].turns <= 60)
    #expect(wide.findings.contains { $0.kind == .limit })
    let deep = await Self.explore(ChainBot(), languages: [.en], depth: 3)
    #expect(deep.walks[0].edges.map(\.path.count).max() == 3)
    #expect(deep.findings.contains { $0.detail == .depthLimit(depth: 3) })
    #expect(!deep.failed)
  }

  /// `--skip-button`: a button named by its title in any case, or by its payload, is
  /// never clicked (its planted defect is not found) and is listed where it is offered.
  @Test func skippedButtonsAreNeverClickedAndAreListed() async {
    let all = await Self.explore(PlantedBot(), languages: [.en])
    #expect(all.findings.contains { $0.detail == .turnFailed(nil) || $0.kind == .error })
    let skipped = await Self.explore(
      PlantedBot(), languages: [.en], skipButtons: [" zeta ", "/c"])
    let clicked = Set(skipped.walks[0].edges.map { $0.click.title })
    #expect(!clicked.contains("Zeta") && !clicked.contains("Gamma"))
    #expect(clicked.contains("Alpha"))
    #expect(!skipped.findings.contains { $0.kind == .error }, "the failing Zeta was clicked")
    #expect(!skipped.findings.contains { $0.kind == .wrongLanguage }, "Gamma was clicked")
    let listed = skipped.findings.filter {
      if case .skippedButton = $0.detail { true } else { false }
    }
    #expect(Set(listed.map(\.detail)) == [.skippedButton("Zeta"), .skippedButton("Gamma")])
    #expect(listed.allSatisfy { $0.kind == .limit && $0.path.isEmpty })
    #expect(
      listed.first?.detail.text(Localizer(.en)) == "Not clicked (--skip-button): “Zeta”."
        || listed.first?.detail.text(Localizer(.en)) == "Not clicked (--skip-button): “Gamma”.")
  }

  @Test func theGraphNamesEveryNodeAndEdge() async throws {
    let report = await Self.explore(PlantedBot(), languages: [.en, .uk])
    let dot = report.graph(.dot)
    #expect(dot.hasPrefix("digraph explore {") && dot.hasSuffix("}\n"))
    #expect(dot.count(where: { $0 == "{" }) == dot.count(where: { $0 == "}" }))
    // Every edge's ends are declared nodes.
    let declared = Set(
      dot.split(separator: "\n").compactMap { line -> String? in
        let parts = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
        return parts.count > 1 && parts[1].hasPrefix("[label") ? String(parts[0]) : nil
      })
    for line in dot.split(separator: "\n") where line.contains(" -> ") {
      let parts = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
      #expect(declared.contains(String(parts[0])) && declared.contains(String(parts[2])), "\(line)")
    }
    #expect(dot.contains("color=red"))
    let mermaid = report.graph(.mermaid)
    #expect(mermaid.hasPrefix("flowchart LR\n"))
    #expect(mermaid.contains("-->|\"Alpha\"|"))
  }

  /// The bot's text reaches the DOT and Mermaid files without ESC, C1 or bidi controls.
  @Test func theGraphCarriesNoControls() async {
    let report = await Self.explore(HostileTitlesBot(), languages: [.en])
    for format in [ExploreReport.GraphFormat.dot, .mermaid] {
      let graph = report.graph(format)
      let controls = graph.unicodeScalars.filter {
        ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
          || (0x202A...0x202E).contains($0.value)
      }
      #expect(controls.isEmpty, "\(format): \(graph.debugDescription)")
      #expect(graph.contains("Pick"))
    }
  }

  @Test func theReportHoldsEveryFinding() async throws {
    let report = await Self.explore(PlantedBot())
    let json = try JSONParser.parse(report.json.compactText)
    #expect(json["findings"]?.arrayValue?.count == report.findings.count)
    #expect(json["failed"] == .bool(true))
    #expect(json["languages"]?.arrayValue?.count == 3)
    let summary = report.summary(Localizer(.uk))
    #expect(summary.contains("не та мова [en] Gamma"))
    #expect(summary.contains("Проблем: 9."))
  }
}

/// A bot that says it took 7 ms while the answer takes 50 ms to arrive (the client's
/// own queueing): explore's answer times are the bot's.
struct TimedBot: ChatTransport {
  func send(_ request: ChatRequest) async throws(ChatError) -> BotReply {
    try? await Task.sleep(for: .milliseconds(50))
    var reply = try await SoundBot().send(request)
    reply.serverSeconds = 0.007
    return reply
  }
}

/// Answers and buttons with terminal controls in them.
struct HostileTitlesBot: ChatTransport {
  func send(_ request: ChatRequest) async throws(ChatError) -> BotReply {
    guard request.message == "/start" else {
      return BotReply(messages: [BotMessage(text: "x\u{1B}]0;pwn\u{07}\u{9B}2J\u{202E}y")])
    }
    return BotReply(messages: [
      BotMessage(
        text: "Pick\u{1B}[31m one\u{85}",
        buttons: [Button(title: "A\u{1B}]52;c;eA==\u{07}\u{202E}", payload: "/a")])
    ])
  }
}

/// Understands `hello` only; anything else gets the fallback.
struct StartlessBot: ChatTransport {
  func send(_ request: ChatRequest) async throws(ChatError) -> BotReply {
    request.message == "hello"
      ? BotReply(messages: [BotMessage(text: "Hi")])
      : BotReply(messages: [BotMessage(text: "Sorry, what?")])
  }
}

/// Start, two topics, each a dead end: nothing broken.
struct SoundBot: ChatTransport {
  func send(_ request: ChatRequest) async throws(ChatError) -> BotReply {
    let words: [Language: [String]] = [
      .en: ["Hello", "One", "Two", "Sorry"], .ru: ["Привет", "Один", "Два", "Простите"],
      .uk: ["Привіт", "Один", "Два", "Вибачте"],
    ]
    let word = words[request.language] ?? []
    switch request.message {
    case "/start":
      return BotReply(messages: [
        BotMessage(
          text: word[0],
          buttons: [
            Button(title: word[1], payload: "/one"), Button(title: word[2], payload: "/two"),
          ])
      ])
    case "/one": return BotReply(messages: [BotMessage(text: word[1])])
    case "/two": return BotReply(messages: [BotMessage(text: word[2])])
    default: return BotReply(messages: [BotMessage(text: word[3])])
    }
  }
}

/// A thousand buttons, each to its own message.
struct WideBot: ChatTransport {
  func send(_ request: ChatRequest) async throws(ChatError) -> BotReply {
    if request.message == "/start" {
      return BotReply(messages: [
        BotMessage(
          text: "Pick", buttons: (0..<1_000).map { Button(title: "B\($0)", payload: "/b\($0)") })
      ])
    }
    return BotReply(messages: [BotMessage(text: "Page \(request.message)")])
  }
}

/// Every message has one button to a new message, forever.
struct ChainBot: ChatTransport {
  func send(_ request: ChatRequest) async throws(ChatError) -> BotReply {
    let next = (Int(request.message.dropFirst(2)) ?? 0) + 1
    return BotReply(messages: [
      BotMessage(text: "Step \(next)", buttons: [Button(title: "Next", payload: "/n\(next)")])
    ])
  }
}

/// The tracker's word on a fallback: the intent, or an action named so.
@Suite struct TrackerFallbackTests {
  static func user(_ intent: String) -> JSONValue {
    .object([
      "event": .string("user"),
      "parse_data": .object(["intent": .object(["name": .string(intent)])]),
    ])
  }
  static func action(_ name: String) -> JSONValue {
    .object(["event": .string("action"), "name": .string(name)])
  }

  @Test func intentOrActionNamedFallback() {
    #expect(
      BotExplorer.fellBack([
        Self.user("greet"), Self.action("action_greet"), Self.user("nlu_fallback"),
      ]))
    #expect(BotExplorer.fellBack([Self.user("visa"), Self.action("action_default_fallback")]))
    #expect(
      !BotExplorer.fellBack([
        Self.user("nlu_fallback"), Self.user("greet"), Self.action("action_greet"),
      ]))
    #expect(!BotExplorer.fellBack([]))
  }

  /// "12 March" typed at a form's question reads as nlu_fallback, yet the form takes it:
  /// its slot is set after the turn. No fallback, unless a fallback action ran.
  @Test func anAnswerAFormTookIsNoFallback() {
    let loop: JSONValue = .object(["event": .string("active_loop"), "name": .string("trip_form")])
    let slot: JSONValue = .object([
      "event": .string("slot"), "name": .string("date"), "value": .string("12 March"),
    ])
    let asked: JSONValue = .object([
      "event": .string("slot"), "name": .string("requested_slot"), "value": .string("seats"),
    ])
    #expect(!BotExplorer.fellBack([loop, Self.user("nlu_fallback"), slot, asked]))
    // Only the form's next question: the answer was not taken.
    #expect(BotExplorer.fellBack([loop, Self.user("nlu_fallback"), asked]))
    // No form: a slot set does not make nonsense understood.
    #expect(BotExplorer.fellBack([Self.user("nlu_fallback"), slot]))
    #expect(
      BotExplorer.fellBack([
        loop, Self.user("nlu_fallback"), slot, Self.action("action_default_fallback"),
      ]))
  }

  /// A probe the bot understood (the tracker says so) is not the fallback's look:
  /// a button to that same answer is not reported.
  @Test func anUnderstoodProbeIsNoFallback() async {
    struct Tracker: TrackerSource {
      func events(sender: String) async -> [JSONValue]? {
        Array(repeating: TrackerFallbackTests.user("greet"), count: 8)
      }
    }
    // The bot answers everything it does not know with its menu, like the start message.
    struct MenuBot: ChatTransport {
      func send(_ request: ChatRequest) async throws(ChatError) -> BotReply {
        let menu = BotMessage(text: "Menu", buttons: [Button(title: "Main menu", payload: "/menu")])
        return BotReply(messages: [menu])
      }
    }
    let explorer = BotExplorer(
      options: BotExplorer.Options(
        languages: [.en], start: "/start", depth: 3, maxTurns: 50, jobs: 1),
      makeTransport: { MenuBot() }, tracker: Tracker(), missingContacts: { _ in [] })
    let (walks, _) = await explorer.run()
    #expect(!walks[0].findings.contains { $0.kind == .fallback })
    let untracked = BotExplorer(
      options: BotExplorer.Options(
        languages: [.en], start: "/start", depth: 3, maxTurns: 50, jobs: 1),
      makeTransport: { MenuBot() }, missingContacts: { _ in [] })
    // Without a tracker the look is all there is: "Main menu" answers like the probe.
    #expect(await untracked.run().walks[0].findings.contains { $0.kind == .fallback })
  }

  /// The probe fell back (the tracker says nlu_fallback) and the model answered it with
  /// what a real intent also gets (moodbot: "Great, carry on!"): a click the tracker says
  /// was understood is no fallback, though its answer looks like the probe's.
  @Test func anAnswerLikeTheProbesIsNoFallbackWhenTheTrackerSaysUnderstood() async {
    // The probe's conversation is read first (one job): it fell back; every other was
    // understood.
    final class Tracker: TrackerSource {
      let reads = Mutex(0)
      func events(sender: String) async -> [JSONValue]? {
        let first = reads.withLock { count in
          count += 1
          return count == 1
        }
        return Array(
          repeating: TrackerFallbackTests.user(first ? "nlu_fallback" : "mood_great"), count: 8)
      }
    }
    struct MoodBot: ChatTransport {
      func send(_ request: ChatRequest) async throws(ChatError) -> BotReply {
        if request.message == "/start" {
          return BotReply(messages: [
            BotMessage(text: "How are you?", buttons: [Button(title: "great", payload: "great")])
          ])
        }
        return BotReply(messages: [BotMessage(text: "Great, carry on!")])
      }
    }
    struct FallbackTracker: TrackerSource {
      func events(sender: String) async -> [JSONValue]? {
        Array(repeating: TrackerFallbackTests.user("nlu_fallback"), count: 8)
      }
    }
    let options = BotExplorer.Options(
      languages: [.en], start: "/start", depth: 3, maxTurns: 50, jobs: 1)
    let understood = BotExplorer(
      options: options, makeTransport: { MoodBot() }, tracker: Tracker(),
      missingContacts: { _ in [] })
    #expect(!(await understood.run().walks[0].findings.contains { $0.kind == .fallback }))
    // The same answer, where the tracker says the click fell back, is one.
    let fellBack = BotExplorer(
      options: options, makeTransport: { MoodBot() }, tracker: FallbackTracker(),
      missingContacts: { _ in [] })
    #expect(await fellBack.run().walks[0].findings.contains { $0.kind == .fallback })
  }
}

/// Over socket.io, Rasa keeps the conversation under its session id: the tracker is
/// read under the id the answers name, so a fallback only the tracker shows is found
/// over socket.io as over REST (#46).
@Suite struct TrackerUnderTheConversationIDTests {
  /// Knows only conversation "sid-1", where the last turn fell back.
  struct Tracker: TrackerSource {
    func events(sender: String) async -> [JSONValue]? {
      sender == "sid-1"
        ? Array(repeating: TrackerFallbackTests.user("greet"), count: 8) + [
          TrackerFallbackTests.action("action_fallback")
        ] : nil
    }
  }

  /// A menu whose one button gets a polite answer unlike the probe's: only the tracker
  /// says it is the fallback. `conversationID` as socket.io's transport sets it.
  struct SessionBot: ChatTransport {
    let conversationID: String?
    func send(_ request: ChatRequest) async throws(ChatError) -> BotReply {
      var reply: BotReply
      switch request.message {
      case "/start":
        reply = BotReply(messages: [
          BotMessage(text: "Menu", buttons: [Button(title: "Employee card", payload: "/card")])
        ])
      case "/card": reply = BotReply(messages: [BotMessage(text: "Could you rephrase that?")])
      default: reply = BotReply(messages: [BotMessage(text: "Sorry?")])
      }
      reply.conversationID = conversationID
      return reply
    }
  }

  func fallbacks(_ bot: SessionBot) async -> [ExploreFinding] {
    let explorer = BotExplorer(
      options: BotExplorer.Options(
        languages: [.en], start: "/start", depth: 2, maxTurns: 50, jobs: 1),
      makeTransport: { bot }, tracker: Tracker(), missingContacts: { _ in [] })
    return await explorer.run().walks[0].findings.filter { $0.kind == .fallback }
  }

  /// The first read of each conversation's tracker ends at the turn before (a fallback),
  /// as socket.io's answer can come before Rasa saves the turn; later reads hold it.
  final class LaggingTracker: TrackerSource, Sendable {
    private let reads = Mutex<[String: Int]>([:])
    func events(sender: String) async -> [JSONValue]? {
      let count = reads.withLock { reads in
        let count = reads[sender, default: 0] + 1
        reads[sender] = count
        return count
      }
      // The start message, read as a fallback; the click's turn comes later.
      let before = [
        TrackerFallbackTests.user("nlu_fallback"),
        TrackerFallbackTests.action("action_default_fallback"),
      ]
      return count == 1 ? before : before + [TrackerFallbackTests.user("card")]
    }
  }

  /// The tracker is asked again until it holds the conversation's last message: the
  /// turn before it, a fallback, is not taken for this turn's.
  @Test func aTrackerBehindTheAnswerIsAskedAgain() async {
    let explorer = BotExplorer(
      options: BotExplorer.Options(
        languages: [.en], start: "/start", depth: 1, maxTurns: 50, jobs: 1),
      makeTransport: { SessionBot(conversationID: nil) }, tracker: LaggingTracker(),
      missingContacts: { _ in [] })
    let findings = await explorer.run().walks[0].findings
    #expect(!findings.contains { $0.kind == .fallback }, "\(findings)")
  }

  @Test func theTrackerIsReadUnderTheSessionID() async {
    #expect(await fallbacks(SessionBot(conversationID: "sid-1")).map(\.path) == [["Employee card"]])
    // Without the id the sender is asked, which this tracker does not know: no finding.
    #expect(await fallbacks(SessionBot(conversationID: nil)).isEmpty)
  }
}

@Suite struct LanguageCheckTests {
  @Test(arguments: [
    ("Welcome to Brno, call +420 123 456 789", Language.en, false),
    ("Привет", .en, true), ("Здравствуйте, офис в Praha, www.example.cz", .ru, false),
    ("Вітаємо у Празі", .ru, true), ("Вы здесь впервые?", .uk, true),
    // Russian without ы э ъ ё reads as Ukrainian: letters alone cannot tell.
    ("Добро пожаловать", .uk, false), ("Ласкаво просимо", .uk, false),
    ("Hello, how are you today", .ru, true), ("Welcome", .uk, true),
    ("Пишите на office@example.org или https://example.org/contact", .ru, false),
  ])
  func scriptsAndLetters(text: String, language: Language, wrong: Bool) {
    #expect((LanguageCheck.problem(in: text, language: language) != nil) == wrong, "\(text)")
  }
}

/// `--domain`: responses no message showed, button intents no click sent.
@Suite struct ExploreCoverageTests {
  @Test func responsesAndButtonIntentsNotReached() async {
    let coverage = ExploreCoverage(
      responses: [
        "utter_welcome": ["Welcome, choose a topic", "Hi {name}, choose a topic"],
        "utter_done": ["Done here"], "utter_bye": ["Goodbye, {name}!"],
      ],
      buttonIntents: ["a", "zeta_not_here"])
    let report = await BotExplorerTests.explore(PlantedBot(), languages: [.en])
    let unreached = coverage.unreached(report.walks).map(\.detail)
    #expect(unreached == [.unreachedResponse("utter_bye"), .unreachedIntent("zeta_not_here")])
    #expect(ExploreCoverage.intent(ofPayload: #"/ask{"city": "Brno"}"#) == "ask")
    #expect(ExploreCoverage.intent(ofPayload: "free text") == "")
  }
}
