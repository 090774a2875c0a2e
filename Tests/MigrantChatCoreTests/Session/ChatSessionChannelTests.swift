import Foundation
import Testing

@testable import MigrantChatCore

/// What a socket.io answer brings beside its messages: late ones, notes, the id the bot
/// keeps the conversation under.
@Suite struct ChatSessionChannelTests {
  func session(_ reply: BotReply) -> ChatSession {
    ChatSession(
      transport: FakeTransport { _ in reply }, store: TransientSessionStore(), language: .en,
      senderID: "s1", startMessage: "")
  }

  @Test func lateMessagesComeFirstAndTheirButtonsAreNotChoices() async {
    var reply = BotReply(messages: [
      BotMessage(text: "Now", buttons: [Button(title: "A", payload: "/a")])
    ])
    reply.late = [BotMessage(text: "Reminder", buttons: [Button(title: "Old", payload: "/old")])]
    reply.notes = [.reconnected, .connectionLost]
    let chat = session(reply)
    let events = await chat.handle("hi")
    #expect(events.count == 4)
    #expect(events[0] == .notice(.channel(.reconnected)))
    #expect(events[1] == .late(BotReply(messages: reply.late), contacts: .unresolved))
    if case .reply(let answer, _) = events[2] {
      #expect(answer.messages == reply.messages)
    } else {
      Issue.record("no reply: \(events)")
    }
    #expect(events[3] == .notice(.channel(.connectionLost)))
    #expect(await chat.choices == [Button(title: "A", payload: "/a")])
    // An answer cut by a closed connection is not recorded as the bot's answer...
    #expect(await chat.log.isEmpty)
    // ...and a late message is never recorded as the step's.
    reply.notes = [.reconnected]
    let whole = session(reply)
    _ = await whole.handle("hi")
    #expect(await whole.log.first?.messages == reply.messages)
    // The rendered late messages carry no numbers.
    let rendered = Renderer(width: 80, color: false, language: .en).render(events[1]).stdout
    #expect(rendered.contains("Reminder") && !rendered.contains("[1]"))
  }

  @Test func theTrackerIsAskedUnderTheChannelsConversationID() async {
    var reply = BotReply(messages: [BotMessage(text: "ok")])
    reply.conversationID = "socket-7"
    let chat = session(reply)
    #expect(await chat.trackerSender == "s1")
    let first = await chat.handle("hi")
    #expect(await chat.trackerSender == "socket-7")
    // The user is told, once, that the bot will not remember this conversation.
    #expect(first.last == .notice(.channel(.conversationNotKept)))
    let second = await chat.handle("again")
    #expect(!second.contains(.notice(.channel(.conversationNotKept))))
    _ = await chat.handle("/new")
    #expect(await chat.conversationID == nil)
  }

  @Test func aSilentSessionIsAFailedTurnUnlessTheEmptyAnswerWasExpected() async {
    var reply = BotReply(messages: [])
    reply.notes = [.silentSession]
    let chat = session(reply)
    let events = await chat.handle("hello")
    #expect(events == [.noAnswer, .notice(.channel(.silentSession))])
    #expect(await chat.failedTurns == 1)
    // /restart's empty answer is quiet, and no failure.
    _ = await chat.handle("/restart")
    #expect(await chat.failedTurns == 1)
  }
}
