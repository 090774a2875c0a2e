import Foundation
import Testing

@testable import MigrantChatCore

/// The session reads free text before it sends it (#48), on small tables made here.
@Suite struct ChatSessionReadingTests {
  static let tables = WordTables(
    english: WordTable(words: ["hello": 5, "help": 5, "me": 6]),
    czech: WordTable(words: ["na": 7, "kde": 6]),
    russian: WordTable(words: ["привет": 4.5, "помощь": 4.5, "дом": 5, "жилье": 3.5]),
    ukrainian: WordTable(words: ["привіт": 4.5]))

  func makeSession(reply: BotReply = BotReply(messages: [BotMessage(text: "Ок")])) async
    -> (ChatSession, FakeTransport)
  {
    let transport = FakeTransport { _ in reply }
    let session = ChatSession(
      transport: transport, store: TransientSessionStore(), language: .ru, senderID: "s",
      startMessage: "")
    await session.readTypedLines(with: TypedLineReader(tables: Self.tables))
    return (session, transport)
  }

  @Test func aLineOnTheWrongLayoutIsSentReadAndSaidSo() async throws {
    let (session, transport) = await makeSession()
    let events = await session.handle("ghbdtn")
    #expect(transport.messages == ["привет"])
    #expect(
      events.first
        == .notice(.sentAs(LineReading(typed: "ghbdtn", text: "привет", way: .englishLayout))))
    // Typed again right after: as typed, said nothing.
    let again = await session.handle("ghbdtn")
    #expect(transport.messages == ["привет", "ghbdtn"])
    #expect(!again.contains { if case .notice(.sentAs) = $0 { true } else { false } })
    // Once more after that: read again.
    _ = await session.handle("privet")
    #expect(transport.messages.last == "привет")
    // The transcript of the conversation has what was sent.
    #expect(await session.log.map(\.line) == ["привет", "ghbdtn", "привет"])
  }

  @Test func withoutAReaderLinesGoAsTyped() async {
    let transport = FakeTransport { _ in BotReply(messages: [BotMessage(text: "Ок")]) }
    let session = ChatSession(
      transport: transport, store: TransientSessionStore(), language: .ru, senderID: "s",
      startMessage: "")
    _ = await session.handle("ghbdtn")
    #expect(transport.messages == ["ghbdtn"])
  }

  @Test func aTranscriptsStepIsSentAsWritten() async {
    let (session, transport) = await makeSession()
    _ = await session.handle(step: "ghbdtn", as: .typed)
    _ = await session.handle(step: "privet", as: .verbatim)
    #expect(transport.messages == ["ghbdtn", "privet"])
  }

  @Test func aButtonsTitleOrPayloadIsNeverRead() async {
    let reply = BotReply(messages: [
      BotMessage(
        text: "?",
        buttons: [
          Button(title: "privet", payload: "/greet"), Button(title: "Dom", payload: "ghbdtn"),
        ])
    ])
    let (session, transport) = await makeSession(reply: reply)
    _ = await session.handle("start")
    _ = await session.handle("ghbdtn")
    #expect(transport.messages.last == "ghbdtn", "a payload typed is sent as it is")
  }

  @Test func theBotsOwnWordsCountAsWordsOfTheLanguage() async {
    // "Бюрократия" is not in the table: read once the bot has said it.
    let reply = BotReply(messages: [BotMessage(text: "Это бюрократия.")])
    let (session, transport) = await makeSession(reply: reply)
    _ = await session.handle(",.hjrhfnbz")
    #expect(transport.messages == [",.hjrhfnbz"])
    _ = await session.handle("start")
    _ = await session.handle(",.hjrhfnbz ")
    #expect(transport.messages.last == "бюрократия")
  }
}

extension ChatSessionReadingTests {
  /// A line in Ukrainian in an English chat: `/lang uk` offered once, in both
  /// languages; the chat stays English.
  @Test func aCyrillicLineInAnEnglishChatOffersLang() async {
    let transport = FakeTransport { _ in BotReply(messages: [BotMessage(text: "Ok")]) }
    let session = ChatSession(
      transport: transport, store: TransientSessionStore(), language: .en, senderID: "s",
      startMessage: "")
    await session.readTypedLines(with: TypedLineReader(tables: Self.tables))
    let first = await session.handle("привіт")
    #expect(first.last == .notice(.offerLanguage(.uk)))
    let second = await session.handle("привет")
    #expect(!second.contains(.notice(.offerLanguage(.ru))), "offered once")
    #expect(await session.language == .en)
    let text = Renderer(width: 200, color: false, language: .en).render(
      .notice(.offerLanguage(.uk)))
    #expect((text.stdout + text.stderr).contains("type /lang uk."))
    #expect((text.stdout + text.stderr).contains("наберіть /lang uk."))
  }
}
