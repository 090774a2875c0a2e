import Foundation
import Testing

@testable import MigrantChatCore

/// The accessible mode (#47): when it is on, and what it writes.
@Suite struct AccessibilityTests {
  // MARK: - When it is on

  @Test(
    arguments: [
      // flag, ACCESSIBLE, config, TERM, expected
      (false, nil, nil, "xterm-256color", false),
      (true, nil, nil, "xterm-256color", true),
      (false, "1", nil, "xterm", true),
      (false, "yes", nil, "xterm", true),
      (false, "0", nil, "dumb", false),
      (false, "false", true, "xterm", false),
      (false, "OFF", nil, "xterm", false),
      (false, "", nil, "xterm", false),
      (false, nil, true, "xterm", true),
      (false, nil, false, "dumb", false),
      (false, nil, nil, "dumb", true),
      (true, "0", false, "xterm", true),
    ] as [(Bool, String?, Bool?, String, Bool)])
  func enabledFollowsTheNearestSetting(
    flag: Bool, variable: String?, config: Bool?, term: String, expected: Bool
  ) {
    var environment = ["TERM": term]
    environment["ACCESSIBLE"] = variable
    #expect(Accessibility.enabled(flag: flag, config: config, environment: environment) == expected)
  }

  @Test func escapesAreNeverAllowedUnderTermDumbNorInTheAccessibleMode() {
    #expect(Accessibility.escapesAllowed(accessible: false, environment: ["TERM": "xterm"]))
    #expect(!Accessibility.escapesAllowed(accessible: true, environment: ["TERM": "xterm"]))
    #expect(!Accessibility.escapesAllowed(accessible: false, environment: ["TERM": "dumb"]))
  }

  // MARK: - Words for glyphs

  @Test(arguments: [
    ("≈2.5 km", "about 2.5 km"),
    ("≈ the office has no coordinates", "about the office has no coordinates"),
    ("passed 3 · failed 0 · p99 2 ms", "passed 3, failed 0, p99 2 ms"),
    ("  • Centre for Foreigners", "  Centre for Foreigners"),
    ("waiting for the bot…", "waiting for the bot."),
    ("— the conversation goes on —", "the conversation goes on"),
    ("Brno — the main office", "Brno, the main office"),
    ("Mon–Fri 9–17", "Mon to Fri 9 to 17"),
    ("choose ★ a topic", "choose a topic"),
    ("Visa → extension", "Visa, extension"),
    ("Price: ~ 1 000 Kč, ~2 km", "Price: about 1 000 Kč, about 2 km"),
    ("https://example.org/~user", "https://example.org/~user"),
    ("map ⠁⠃⣿ here", "map  here"),
    ("line one\n· part\nline three", "line one\npart\nline three"),
    ("plain text, untouched: [1] Brno", "plain text, untouched: [1] Brno"),
  ])
  func glyphsAreWords(text: String, spoken: String) {
    let l10n = Localizer(.en)
    #expect(Accessibility.spoken(text, l10n: l10n) == spoken)
    // Applied twice, nothing more changes (the renderer and the last guard both apply it).
    #expect(Accessibility.spoken(spoken, l10n: l10n) == spoken)
  }

  @Test func hoursAreRangesNotHyphens() {
    let l10n = Localizer(.uk)
    #expect(
      Accessibility.spokenHours("Пн-Чт 09:00-17:00, Пт 9-14", l10n: l10n)
        == "Пн до Чт 09:00 до 17:00, Пт 9 до 14")
    #expect(Accessibility.spokenHours("non-stop", l10n: Localizer(.en)) == "non-stop")
  }

  @Test func glyphWordsAreInTheLanguage() {
    #expect(Accessibility.spoken("≈3 км", l10n: Localizer(.uk)) == "близько 3 км")
    #expect(Accessibility.spoken("9–17", l10n: Localizer(.ru)) == "9 до 17")
  }

  // MARK: - No escape leaves

  @Test(arguments: [
    ("\r\u{1B}[Kwaiting", "waiting"),
    ("\u{1B}[1mbold\u{1B}[0m", "bold"),
    ("a\u{1B}]0;title\u{07}b", "ab"),
    ("a\u{1B}]8;;http://x\u{1B}\\link\u{1B}]8;;\u{1B}\\b", "alinkb"),
    ("a\u{1B}(0b", "ab"),
    ("a\u{1B}=b", "ab"),
    ("a\u{9B}2Kb", "ab"),
    ("csv\r\nrow\r\n", "csv\r\nrow\r\n"),
    ("typo\u{08}\u{08}ed", "typoed"),
    ("cut at the end \u{1B}[", "cut at the end "),
    ("Вітаю, близько 2 км", "Вітаю, близько 2 км"),
  ])
  func escapesAndLoneReturnsAreLeftOut(text: String, expected: String) {
    #expect(Accessibility.withoutEscapes(text) == expected)
  }

  // MARK: - The renderer

  static func renderer(_ language: Language = .en, width: Int = 80) -> Renderer {
    var renderer = Renderer(width: width, color: true, language: language)
    renderer.accessible = true
    return renderer
  }

  @Test func eachMessageStartsWithTheSpeakerAndTheAnswerEndsWithItsButtons() {
    let reply = BotReply(messages: [
      BotMessage(text: "Hello ≈ there", buttons: [.init(title: "Housing", payload: "/h")]),
      BotMessage(buttons: [.init(title: "Work", payload: "/w")]),
    ])
    let shown = Self.renderer().render(.reply(reply, contacts: .unresolved)).stdout
    #expect(
      shown
        == """
        Bot: Hello about there
          1. Housing
        Bot:
          2. Work
        End of the answer, 2 buttons: type a number.

        """)
    let none = Self.renderer(.uk).render(
      .reply(BotReply(messages: [BotMessage(text: "Дякую")]), contacts: .unresolved)
    ).stdout
    #expect(none == "Бот: Дякую\nКінець відповіді.\n")
    // Not in the ordinary mode.
    let ordinary = Renderer(width: 80, color: false, language: .en).render(
      .reply(reply, contacts: .unresolved)
    ).stdout
    #expect(!ordinary.contains("Bot:") && ordinary.contains("[1] Housing"))
  }

  @Test func aListRowReadsNameFirstAndACardSaysUnknownHours() {
    var office = Contact(id: 7109, name: "Office with no hours")
    office.city = "Zlín"
    let list = Self.renderer().listLine(office, favourite: true)
    #expect(list == "Office with no hours (Zlín), id 7109, favourite\n")
    let card = Self.renderer().card(office, favourite: false, full: true)
    #expect(card.contains("Office with no hours, id 7109"))
    #expect(card.contains("Hours: not known"))
    // The short card in an answer stays short: nothing said of hours it does not have.
    #expect(!Self.renderer().card(office, favourite: false, full: false).contains("Hours"))
    // Said in the ordinary mode too.
    let ordinary = Renderer(width: 80, color: false, language: .uk).card(
      office, favourite: false, full: true)
    #expect(ordinary.contains("невідомі"))
  }

  @Test func aTypedLineSaysWhoTypedItAndAHistoryRowIsASentence() {
    #expect(Self.renderer(.uk).renderEcho("2", chose: "Житло") == "Ви: 2 (Житло)\n")
    #expect(Renderer(width: 80, color: false, language: .uk).renderEcho("2") == "> 2\n")
    let conversation = HistoryConversation(
      id: 4, startedAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0),
      server: nil, sender: "s", language: .uk, topic: "Посвідка на проживання", entries: 3,
      label: "Олена")
    let row = HistoryExport.line(
      conversation, l10n: Localizer(.uk), width: 40, accessible: true,
      timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
    #expect(row.hasPrefix("Олена: Посвідка на проживання. Розмова\n4,"), "\(row)")
    #expect(row.split(separator: "\n").allSatisfy { $0.count <= 40 }, "\(row)")
    // Read back, an answer has nothing to choose: no line saying to type a number.
    let entry = HistoryEntry(
      kind: .bot, at: Date(timeIntervalSince1970: 0), language: .uk,
      messages: [BotMessage(text: "Привіт", buttons: [Button(title: "Житло")])])
    let shown = HistoryExport.text(
      conversation, entries: [entry], l10n: Localizer(.uk), width: 80, accessible: true)
    #expect(shown.contains("Бот: Привіт") && !shown.contains("Кінець відповіді"), "\(shown)")
  }

  @Test func aTaskSaysWhetherItIsDoneInWords() {
    let now = Date(timeIntervalSince1970: 1_780_000_000)
    let open = TodoTask(
      id: 2, draft: TodoDraft(title: "Зареєструвати дітей"), createdAt: now, updatedAt: now)
    let done = TodoTask(
      id: 3, draft: TodoDraft(title: "Купити поліс"), completedAt: now, createdAt: now,
      updatedAt: now)
    let renderer = Self.renderer(.uk)
    #expect(renderer.line(open, today: nil) == "  2. Зареєструвати дітей, не виконано\n")
    #expect(renderer.line(done, today: nil).hasPrefix("  3. Купити поліс, виконано "))
    let ordinary = Renderer(width: 80, color: false, language: .uk)
    #expect(ordinary.line(open, today: nil) == "  2. [ ] Зареєструвати дітей\n")
  }

  @Test func noColourNorGlyphLeavesTheRendererInThisMode() {
    let reply = BotReply(messages: [
      BotMessage(text: "**Увага:** — строк 90 днів…", buttons: [.init(title: "Так", payload: "/y")])
    ])
    for language in Language.allCases {
      var renderer = Self.renderer(language, width: 30)
      renderer.color = false  // the caller turns it off; nothing here may depend on it
      let shown = renderer.render(.reply(reply, contacts: .unresolved)).stdout
      #expect(!shown.contains("\u{1B}"))
      #expect(!shown.contains(where: { "≈·•…—–★→".contains($0) }))
      #expect(shown.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= 30 })
    }
  }
}
