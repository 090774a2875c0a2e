import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct RendererTests {
  /// A conversation that uses every kind of message part, in the bot's language.
  static func conversation(_ language: Language) -> [ChatEvent] {
    let texts: [Language: (greeting: String, long: String, pick: String, buttons: [String])] = [
      .en: (
        "Hello! I am the **integration centre** assistant. See [our site](https://centre.example).",
        "To get health insurance as a foreign worker you usually need a contract with a Czech insurer before your visa appointment.",
        "What do you need help with?",
        [
          "Residence permit", "Health insurance for foreigners who are not in the public system",
          "Work",
        ]
      ),
      .ru: (
        "Здравствуйте! Я помощник **центра интеграции**. Наш сайт: [centre.example](https://centre.example).",
        "Чтобы получить медицинскую страховку как иностранный работник, обычно нужен договор с чешской страховой компанией до визита за визой.",
        "С чем вам помочь?",
        [
          "Вид на жительство", "Медицинская страховка для иностранцев вне общественной системы",
          "Работа",
        ]
      ),
      .uk: (
        "Вітаю! Я помічник **центру інтеграції**. Наш сайт: [centre.example](https://centre.example).",
        "Щоб отримати медичне страхування як іноземний працівник, зазвичай потрібен договір із чеською страховою компанією до візиту по візу.",
        "З чим вам допомогти?",
        [
          "Посвідка на проживання", "Медичне страхування для іноземців поза державною системою",
          "Робота",
        ]
      ),
    ]
    guard let text = texts[language] else { return [] }
    return [
      .reply(
        BotReply(messages: [
          BotMessage(text: text.greeting),
          BotMessage(text: text.long + "\n\n👍 日本語 OK"),
          BotMessage(
            text: text.pick,
            buttons: text.buttons.enumerated().map { Button(title: $1, payload: "/b\($0)") }),
        ])),
      .reply(
        BotReply(
          messages: [
            BotMessage(
              custom: .object(["contacts": .array([.number(138503), .string("138504")])])),
            BotMessage(image: "https://example.org/insurance-map.png"),
            BotMessage(
              attachment: .object([
                "type": .string("file"),
                "payload": .object(["url": .string("https://f.example/form.pdf")]),
              ])),
            BotMessage(custom: .object(["slot": .string("insurance"), "step": .number(2)])),
            BotMessage(
              text: "Offices",
              elements: [
                CardElement(
                  title: "Centre for Foreigners", subtitle: "Mo-Fr 09:00-16:00",
                  imageURL: "https://i.example/c.png",
                  buttons: [
                    Button(title: "Call", payload: "/call{\"id\":1}"),
                    Button(title: "Website", url: "https://centre.example"),
                  ])
              ]),
          ],
          problems: [
            .notAnObject(index: 6, got: "string"),
            .wrongType(index: 7, field: "buttons", expected: "array", got: "number"),
          ])),
      .noAnswer,
      .failure(.timedOut(server: "http://127.0.0.1:5005", seconds: 30)),
      .failure(
        .httpStatus(
          server: "http://127.0.0.1:5005", status: 500, firstLine: "Internal Server Error")),
      .failure(.connectionRefused(server: "http://127.0.0.1:5005")),
      .inputError(.noSuchChoice(number: 9, count: 3)),
      .notice(.help),
      .notice(.currentLanguage(language)),
      .languageChanged(language),
    ]
  }

  /// `/help` in two aligned columns where it fits, each description under its command
  /// where not; no line wider than the terminal, in every language.
  @Test(arguments: Language.allCases)
  func helpIsAlignedAndFits(language: Language) {
    let wide = Renderer(width: 80, color: false, language: language).render(.notice(.help)).stdout
    let rows = wide.split(separator: "\n").filter { $0.hasPrefix("  /") }
    #expect(rows.count == Renderer.helpRows.count + Renderer.developerHelpRows.count)
    // The developers' commands come after the everyday ones, under their heading.
    let heading = Localizer(language)(.helpDevelopers)
    let split = wide.components(separatedBy: heading)
    #expect(split.count == 2 && !split[0].contains("/inspect") && split[1].contains("/inspect"))
    let starts = Set(
      rows.compactMap { row -> Int? in
        guard let gap = row.dropFirst(2).firstRange(of: "  ") else { return nil }
        let rest = row[gap.upperBound...].prefix { $0 == " " }
        return row.distance(from: row.startIndex, to: gap.upperBound) + rest.count
      })
    #expect(starts.count == 1, "descriptions start in one column: \(wide)")
    #expect(wide.contains("/save"))
    for width in [40, 80] {
      let text = Renderer(width: width, color: false, language: language).render(.notice(.help))
        .stdout
      #expect(text.split(separator: "\n").allSatisfy { DisplayWidth.of($0) <= width }, "\(text)")
    }
    let narrow = Renderer(width: 40, color: false, language: language).render(.notice(.help)).stdout
    #expect(narrow.contains("\n  /restart\n      "), "\(narrow)")
  }

  static func transcript(_ events: [ChatEvent], renderer: Renderer) -> String {
    events.map { event in
      let rendered = renderer.render(event)
      return "--- stdout\n\(rendered.stdout)--- stderr\n\(rendered.stderr)"
    }.joined()
  }

  @Test(arguments: Language.allCases, [40, 80, 120])
  func conversationGolden(language: Language, width: Int) {
    let renderer = Renderer(width: width, color: false, language: language)
    let output = Self.transcript(Self.conversation(language), renderer: renderer)
    expectGolden(output, named: "conversation-\(language.rawValue)-\(width)")
    // Nothing is wider than the screen but a link alone on its line, kept whole to be copied.
    for line in output.split(separator: "\n") {
      let isLoneLink =
        line.trimmingCharacters(in: .whitespaces).contains("://")
        && !line.trimmingCharacters(in: .whitespaces).contains(" ")
      #expect(DisplayWidth.of(line) <= width || isLoneLink, "too wide at \(width): \(line)")
    }
  }

  @Test func colourGolden() {
    let renderer = Renderer(width: 80, color: true, language: .en)
    let output = Self.transcript(Array(Self.conversation(.en).prefix(2)), renderer: renderer)
    expectGolden(
      output.replacingOccurrences(of: "\u{1B}", with: "<ESC>"), named: "conversation-en-80-colour")
  }

  @Test func noColourMeansNoEscapes() {
    let renderer = Renderer(width: 80, color: false, language: .en)
    let output = Self.transcript(Self.conversation(.en), renderer: renderer)
    #expect(!output.contains("\u{1B}"))
  }

  @Test func hostileServerStringsNeverReachTheTerminal() {
    let evil = "x\u{1B}]0;title\u{07}\u{1B}[2J\u{9B}1m\u{202E}\u{0}y"
    let reply = BotReply(messages: [
      BotMessage(
        text: evil, buttons: [Button(title: evil, payload: "/p"), Button(title: evil, url: evil)],
        image: evil, attachment: .string(evil),
        custom: .object([evil: .string(evil), "contacts": .array([.string(evil)])]),
        elements: [
          CardElement(
            title: evil, subtitle: evil, imageURL: evil,
            buttons: [Button(title: evil, payload: "/q")])
        ])
    ])
    for color in [false, true] {
      let output = Renderer(width: 80, color: color, language: .en).render(.reply(reply))
      let scalars = (output.stdout + output.stderr).unicodeScalars
      // With colour, only our own SGR sequences may appear: ESC [ digits m.
      let withoutOwnStyles = String(String.UnicodeScalarView(scalars))
        .replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
      #expect(
        !withoutOwnStyles.unicodeScalars.contains {
          ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
            || (0x202A...0x202E).contains($0.value)
        }, "colour \(color)")
      #expect(!withoutOwnStyles.contains("title"))
    }
  }

  @Test func echoIsOneSanitizedLine() {
    let renderer = Renderer(width: 80, color: false, language: .en)
    #expect(renderer.renderEcho("hello\u{1B}[31m") == "> hello\n")
  }

  /// A missing contact's hint: `/sync` with a data API; how to set one with the sample;
  /// with a synced directory and no API now, never a suggestion to set one.
  @Test func aMissingContactsHintFitsTheDirectory() {
    let sync = Renderer(width: 80, color: false, language: .en, canSync: true)
    #expect(sync.missingContact("5").contains("/sync"))
    let sample = Renderer(width: 80, color: false, language: .en, canSync: false)
    #expect(sample.missingContact("5").contains("--data-api"))
    for language in Language.allCases {
      let synced = Renderer(
        width: 80, color: false, language: language, canSync: false, directorySynced: true)
      #expect(!synced.missingContact("5").contains("--data-api"))
      #expect(!synced.missingContact("5").contains("data_api"))
    }
  }
}
