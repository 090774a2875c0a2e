import Testing

@testable import MigrantChatCore

@Suite struct TextWrapperTests {
  func wrap(_ text: String, width: Int, indent: String = "", hanging: String? = nil) -> [String] {
    TextWrapper(width: width).wrap(StyledText(text), indent: indent, hangingIndent: hanging)
      .map(\.plainText)
  }

  @Test func wrapsAtSpacesWithinWidth() {
    #expect(
      wrap("the quick brown fox jumps over the lazy dog", width: 15) == [
        "the quick brown", "fox jumps over", "the lazy dog",
      ])
  }

  @Test func keepsTheBotsLineBreaksAndBlankLines() {
    #expect(wrap("one\n\ntwo", width: 20) == ["one", "", "two"])
  }

  @Test func splitsWordsLongerThanTheLine() {
    #expect(
      wrap("abcdefghijklmnopqrstuvwxyz", width: 10) == ["abcdefghij", "klmnopqrst", "uvwxyz"])
  }

  @Test func hangingIndentOnContinuationLines() {
    #expect(
      wrap("[1] a long button title here", width: 16, indent: "  ", hanging: "      ") == [
        "  [1] a long", "      button", "      title here",
      ])
  }

  @Test func wideCharactersCountTwoColumns() {
    // Each of these is two columns: 5 fit in 10 columns.
    let lines = wrap("日本語の文章です", width: 10)
    #expect(lines == ["日本語の文", "章です"])
    #expect(lines.allSatisfy { DisplayWidth.of($0) <= 10 })
  }

  @Test func emojiAndClustersAreNeverSplit() {
    let family = "👨‍👩‍👧"
    let lines = wrap(String(repeating: family, count: 7), width: 10)
    #expect(lines.allSatisfy { DisplayWidth.of($0) <= 10 })
    #expect(lines.joined() == String(repeating: family, count: 7))
  }

  @Test func displayWidths() {
    #expect(DisplayWidth.of("abc") == 3)
    #expect(DisplayWidth.of("Привіт") == 6)
    #expect(DisplayWidth.of("e\u{301}") == 1)  // e + combining acute
    #expect(DisplayWidth.of("👍") == 2)
    #expect(DisplayWidth.of("🇨🇿") == 2)
    #expect(DisplayWidth.of("中") == 2)
    #expect(DisplayWidth.of("❤️") == 2)
  }

  /// The fast path for Latin, Greek and Cyrillic gives what the Unicode properties give.
  @Test func theFastPathAgreesWithUnicodeProperties() {
    for value in UInt32(0)..<0x600 {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let character = Character(scalar)
      #expect(
        DisplayWidth.of(character) == DisplayWidth.measured(character),
        "U+\(String(value, radix: 16))")
    }
  }

  @Test func styledRunsSurviveWrapping() {
    var text = StyledText("plain ")
    text.append("bold words here", style: .bold)
    text.append(" and a link", style: .link)
    let lines = TextWrapper(width: 12).wrap(text)
    #expect(lines.map(\.plainText) == ["plain bold", "words here", "and a link"])
    #expect(
      lines[0].runs == [
        StyledText.Run(text: "plain ", style: .plain), StyledText.Run(text: "bold", style: .bold),
      ])
    // Spaces between words keep their style, as on a line that needs no wrapping.
    #expect(lines[1].runs == [StyledText.Run(text: "words here", style: .bold)])
  }

  @Test func keepsLeadingIndentationOfALine() {
    #expect(wrap("  - item one two three", width: 12) == ["  - item one", "  two three"])
  }

  @Test func keepsSpacingBetweenWords() {
    #expect(wrap("/help     this help", width: 40) == ["/help     this help"])
  }

  @Test func cyrillicWrapsByWords() {
    let lines = wrap("Для получения медицинской страховки обратитесь в офис", width: 20)
    #expect(lines == ["Для получения", "медицинской", "страховки обратитесь", "в офис"])
  }
}

/// Words wrap whole, and a link longer than the line stands alone on its line,
/// unbroken, so it can be clicked and copied (#14).
@Suite struct LinkWrappingTests {
  let url = "https://www.openstreetmap.org/?mlat=49.1925&mlon=16.6093"

  @Test func aLongLinkStandsAloneAndWhole() {
    let lines = TextWrapper(width: 40).wrap(
      StyledText("Map: " + url + " and more"), indent: "    ", hangingIndent: "      "
    ).map(\.plainText)
    #expect(lines == ["    Map:", "      " + url, "      and more"])
  }

  @Test func wordsAreNeverCutAndOtherLongWordsStillSplit() {
    let text = "Switched to the offline assistant. To try the server again, restart migrant-chat."
    let lines = TextWrapper(width: 40).wrap(StyledText(text)).map(\.plainText)
    let words = Set(text.split(separator: " ").map(String.init))
    #expect(lines.allSatisfy { $0.split(separator: " ").allSatisfy { words.contains(String($0)) } })
    let long = String(repeating: "x", count: 50)
    #expect(TextWrapper(width: 20).wrap(StyledText(long)).count == 3)
  }

  @Test(arguments: [Language.en, .ru, .uk])
  func aCardsMapLinkIsNeverBroken(language: Language) {
    var contact = Contact(id: 1, name: "Office")
    contact.latitude = 49.1925
    contact.longitude = 16.6093
    let card = Renderer(width: 40, color: false, language: language).card(
      contact, favourite: false, full: false)
    #expect(card.contains("\n      " + (contact.mapURL ?? "-") + "\n"), "\(card)")
  }
}

@Suite struct InlineMarkupTests {
  @Test func boldAndLinks() {
    let text = InlineMarkup.parse("Sign a **written lease**, see [the guide](https://g.example).")
    #expect(text.plainText == "Sign a written lease, see the guide (https://g.example).")
    #expect(text.runs.contains { $0.style == .bold && $0.text == "written lease" })
    #expect(text.runs.contains { $0.style == .link && $0.text == "https://g.example" })
  }

  @Test func linkWhoseTitleIsTheURLShowsOnce() {
    #expect(
      InlineMarkup.parse("[https://a.example](https://a.example)").plainText == "https://a.example")
  }

  @Test func unclosedMarkupStaysLiteral() {
    #expect(InlineMarkup.parse("2 ** 3 and [not a link").plainText == "2 ** 3 and [not a link")
    #expect(InlineMarkup.parse("[a](b c)").plainText == "[a](b c)")
    #expect(InlineMarkup.parse("****").plainText == "****")
  }
}
