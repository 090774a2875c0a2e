import Testing

@testable import MigrantChatCore

@Suite struct TerminalSanitizerTests {
  @Test(arguments: [
    ("plain text", "plain text"),
    ("line one\nline two", "line one\nline two"),
    ("a\tb", "a    b"),
    ("red \u{1B}[31mtext\u{1B}[0m", "red text"),
    ("title \u{1B}]0;pwned\u{07}after", "title after"),
    ("osc8 \u{1B}]8;;http://evil\u{1B}\\link\u{1B}]8;;\u{1B}\\", "osc8 link"),
    ("dcs \u{1B}Pq#0;2;0;0;0\u{1B}\\done", "dcs done"),
    ("reset\u{1B}c!", "reset!"),
    ("charset\u{1B}(Bok", "charsetok"),
    ("c1 \u{9B}31mcsi", "c1 csi"),
    ("c1 osc \u{9D}0;x\u{9C}end", "c1 osc end"),
    ("nul\u{0}byte", "nulbyte"),
    ("bell\u{07} back\u{08} cr\r del\u{7F}", "bell back cr del"),
    ("bidi \u{202E}txt\u{202C} \u{2066}iso\u{2069}", "bidi txt iso"),
    ("unterminated \u{1B}]0;title", "unterminated "),
    ("trailing esc \u{1B}", "trailing esc "),
    ("line\u{2028}sep", "line\nsep"),
    ("кирилиця і emoji 👍🏽", "кирилиця і emoji 👍🏽"),
  ])
  func cleans(input: String, expected: String) {
    #expect(TerminalSanitizer.clean(input) == expected)
  }

  @Test func removesNewlinesWhenAsked() {
    #expect(TerminalSanitizer.clean("a\nb", keepNewlines: false) == "a b")
  }

  @Test func noControlCharacterSurvivesAnyMix() {
    // Every C0 and C1 control, ESC-led or not, in one string.
    var hostile = ""
    for value in UInt32(0)...0x9F where value < 0x20 || value >= 0x7F {
      if let scalar = Unicode.Scalar(value) { hostile.unicodeScalars.append(scalar) }
      hostile += "x"
    }
    let cleaned = TerminalSanitizer.clean(hostile)
    #expect(
      !cleaned.unicodeScalars.contains {
        ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
      })
  }
}
