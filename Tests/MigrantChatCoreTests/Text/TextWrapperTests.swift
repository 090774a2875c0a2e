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
