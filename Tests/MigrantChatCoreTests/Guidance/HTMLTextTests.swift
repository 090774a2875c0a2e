import Testing

@testable import MigrantChatCore

@Suite struct HTMLTextTests {
  @Test func paragraphsBreaksAndBold() {
    #expect(
      HTMLText.markup("<p>Always sign a <b>written lease</b>.</p><p>Second<br>line</p>")
        == "Always sign a **written lease**.\n\nSecond\nline")
    #expect(HTMLText.markup("<STRONG>Loud</STRONG> <em>soft</em> <i>it</i>") == "**Loud** soft it")
  }

  @Test func linksKeepTitleAndURL() {
    #expect(
      HTMLText.markup(#"See <a href="https://mvcr.cz/x?a=1&amp;b=2">the ministry</a>."#)
        == "See [the ministry](https://mvcr.cz/x?a=1&b=2).")
    #expect(
      HTMLText.markup("<a href='https://a.example'>https://a.example</a>")
        == "[https://a.example](https://a.example)")
    // A link that is not http(s) or mailto keeps only its text.
    #expect(HTMLText.markup(#"<a href="javascript:alert(1)">click</a>"#) == "click")
    #expect(HTMLText.markup(#"<a HREF=https://b.example>b</a>"#) == "[b](https://b.example)")
  }

  @Test func lists() {
    #expect(
      HTMLText.markup("<p>Bring:</p><ul><li>passport</li><li>contract</li></ul><p>Then</p>")
        == "Bring:\n\n• passport\n• contract\n\nThen")
    #expect(HTMLText.markup("<ol><li>one</li><li>two</li></ol>") == "1. one\n2. two")
    #expect(
      HTMLText.markup("<ul><li>a<ol><li>x</li></ol></li><li>b</li></ul>") == "• a\n1. x\n• b")
  }

  @Test func entities() {
    #expect(
      HTMLText.markup("a &amp; b &lt;c&gt; &quot;d&quot; &#39;e&#39; &#x41;&nbsp;z")
        == "a & b <c> \"d\" 'e' A z")
    #expect(HTMLText.markup("&unknown; & &#0; &#xD800;") == "&unknown; & \u{FFFD} \u{FFFD}")
  }

  @Test func otherTagsAreStrippedAndNeverShownRaw() {
    let hostile = """
      <script>alert('x')</script><style>p{}</style><!-- hidden --><img src=x onerror=alert(1)>\
      <div class="x"><span>kept</span></div><iframe src="evil"></iframe><blink>also</blink>
      """
    let text = HTMLText.markup(hostile)
    #expect(text == "kept\n\nalso")
    #expect(!text.contains("<"))
  }

  @Test func unbalancedAndBrokenMarkup() {
    #expect(HTMLText.markup("<p>open <b>bold") == "open **bold")
    #expect(HTMLText.markup("a < b and c > d") == "a < b and c > d")
    #expect(HTMLText.markup("<a href=\"https://x.example\">never closed") == "never closed")
    #expect(HTMLText.markup("<script>never closed") == "")
    #expect(HTMLText.markup("") == "")
  }

  @Test func escapesInsideTextStayForTheSanitizer() {
    // The converter keeps the characters; the renderer removes them, as for any server text.
    let text = HTMLText.markup("<p>a\u{1B}[2Jb</p>")
    #expect(TerminalSanitizer.clean(text) == "ab")
  }

  @Test func plainDropsMarkup() {
    #expect(
      HTMLText.plain("<p><b>Bold</b> <a href=\"https://x.example\">link</a></p>") == "Bold link")
  }
}
