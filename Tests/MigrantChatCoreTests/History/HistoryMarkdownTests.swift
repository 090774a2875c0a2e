import Foundation
import Testing

@testable import MigrantChatCore

/// `history export --markdown` for a caseworker's case file (#47): the bot's own Markdown
/// rendered as Markdown, only http(s) links, nothing else from a server taken as markup.
@Suite struct HistoryMarkdownTests {
  let now = Date(timeIntervalSince1970: 1_780_000_000)
  let conversation = HistoryConversation(
    id: 4, startedAt: Date(timeIntervalSince1970: 1_780_000_000),
    updatedAt: Date(timeIntervalSince1970: 1_780_000_000), server: "http://bot.example",
    sender: "s", language: .uk, topic: "страхування", entries: 2)

  func export(_ text: String, contacts: [String: Contact] = [:], ids: [String] = []) -> String {
    let message = BotMessage(
      text: text,
      custom: ids.isEmpty ? nil : .object(["contacts": .array(ids.map { .string($0) })]))
    let entries = [
      HistoryEntry(kind: .user, at: now, language: .uk, text: "страховка"),
      HistoryEntry(kind: .bot, at: now, language: .uk, messages: [message], contacts: contacts),
    ]
    return HistoryExport.markdown(
      conversation, entries: entries, l10n: Localizer(.uk),
      timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
  }

  @Test func theBotsOwnMarkdownStaysMarkdown() {
    let shown = export(
      "**Увага:** див. [Міністерство внутрішніх справ](https://www.mvcr.cz/mvcren/).\n"
        + "Друга лінія\n\nНовий абзац")
    #expect(
      shown.contains(
        "**Бот:** **Увага:** див. [Міністерство внутрішніх справ](https://www.mvcr.cz/mvcren/)."))
    #expect(shown.contains("справ](https://www.mvcr.cz/mvcren/).  \nДруга лінія\n\nНовий абзац\n"))
    #expect(!shown.contains("\\*\\*") && !shown.contains("\\["), "\(shown)")
  }

  @Test(arguments: [
    ("[натисніть](javascript:alert(1))", "натисніть (javascript:alert(1)"),
    ("<script>x</script> <b>жирний</b>", "\\<script\\>x\\</script\\> \\<b\\>жирний\\</b\\>"),
    (
      "[a](https://x.example/a_(b)) `код` *так*",
      "[a](https://x.example/a_%28b)) \\`код\\` \\*так\\*"
    ),
    ("# не заголовок", "\\# не заголовок"),
  ])
  func nothingElseFromTheServerIsMarkup(text: String, expected: String) {
    let shown = export(text)
    #expect(shown.contains(expected), "\(shown)")
    #expect(!shown.contains("](javascript:"))
  }

  @Test func aCardIsLabelledInTheConversationsLanguage() {
    var office = Contact(id: 7109, name: "Health Insurance Branch")
    office.city = "Brno"
    office.address = "Cejl 50, 602 00 Brno"
    office.facebook = "https://facebook.example/branch"
    office.phone = "+420 500 000 006"
    office.localized[.uk] = Contact.LocalizedAttributes(name: "Відділення страхування")
    let shown = export("Ось установа:", contacts: ["7109": office], ids: ["7109"])
    #expect(
      shown.contains(
        """
        - **Відділення страхування**
          - Cejl 50, 602 00 Brno
          - Телефон: +420 500 000 006
          - Facebook: [https://facebook.example/branch](https://facebook.example/branch)
          - Години роботи: невідомі

        """), "\(shown)")
    #expect(!shown.contains("Brno, Brno"))
  }
}
