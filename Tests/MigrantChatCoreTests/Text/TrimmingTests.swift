import Testing

@testable import MigrantChatCore

@Suite struct TrimmingTests {
  @Test(arguments: [
    ("", ""), ("   ", ""), ("work permit", "work permit"), ("  work permit\t\n", "work permit"),
    ("\u{00A0}Житло\u{2003}", "Житло"), (" a ", "a"), ("x", "x"), ("\r\n", ""),
    (" e\u{301} ", "e\u{301}"), ("\u{3000}日本\u{3000}", "日本"), (" 🇨🇿 ", "🇨🇿"),
  ])
  func whitespaceGoesFromBothEnds(text: String, trimmed: String) {
    #expect(text.trimmingWhitespace() == trimmed)
    #expect(Array(text.trimmingWhitespace().utf8) == Array(trimmed.utf8))
  }
}
