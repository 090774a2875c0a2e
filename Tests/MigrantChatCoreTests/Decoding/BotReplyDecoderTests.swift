import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct BotReplyDecoderTests {
  func decode(_ json: String) throws -> BotReply {
    try BotReplyDecoder.decode(Data(json.utf8))
  }

  @Test func contractButtonsExample() throws {
    let reply = try decode(
      """
      [
        {"recipient_id": "132232234", "text": "Thanks for this feedback"},
        {"recipient_id": "132232234", "text": "Any other problem or task?",
         "buttons": [{"title": "Yes", "payload": "/affirm"}, {"title": "No", "payload": "/deny"}]}
      ]
      """)
    #expect(reply.problems.isEmpty)
    #expect(reply.messages.count == 2)
    #expect(reply.messages[0].text == "Thanks for this feedback")
    #expect(
      reply.messages[1].buttons == [
        Button(title: "Yes", payload: "/affirm"), Button(title: "No", payload: "/deny"),
      ])
  }

  @Test func contractContactsExampleKeepsImageAndCustomAlone() throws {
    let reply = try decode(
      """
      [
        {"recipient_id": "5f0c", "text": "These offices can help you with health insurance:"},
        {"recipient_id": "5f0c", "custom": {"contacts": [138503, "138504"]}},
        {"recipient_id": "5f0c", "image": "https://example.org/insurance-map.png"}
      ]
      """)
    #expect(reply.messages.count == 3)
    #expect(reply.messages[1].text == nil)
    #expect(reply.messages[1].contactIDs == ["138503", "138504"])
    #expect(reply.messages[2].image == "https://example.org/insurance-map.png")
  }

  @Test func textSplitIntoSeveralMessagesStaysInOrder() throws {
    let reply = try decode(#"[{"text":"First paragraph."},{"text":"Second."},{"text":"Third."}]"#)
    #expect(reply.messages.map(\.text) == ["First paragraph.", "Second.", "Third."])
  }

  @Test func emptyArrayIsANormalAnswer() throws {
    let reply = try decode("[]")
    #expect(reply.messages.isEmpty && reply.problems.isEmpty)
  }

  @Test func unknownKeysAndRecipientOnlyMessagesAreIgnored() throws {
    let reply = try decode(#"[{"recipient_id":"x"},{"text":"hi","future_key":{"a":1}}]"#)
    #expect(reply.messages == [BotMessage(text: "hi")])
    #expect(reply.problems.isEmpty)
  }

  @Test func notJSONAndNotAnArrayAreFailures() {
    #expect(throws: ReplyDecodingFailure.notJSON) { try decode("<html>oops</html>") }
    #expect(throws: ReplyDecodingFailure.notJSON) { try decode("[{\"text\": \"cut") }
    #expect(throws: ReplyDecodingFailure.notAnArray(got: "object")) {
      try decode(#"{"text":"hi"}"#)
    }
    #expect(throws: ReplyDecodingFailure.notAnArray(got: "string")) { try decode(#""hi""#) }
  }

  @Test func wrongShapesAreReportedAndTheRestKept() throws {
    let reply = try decode(
      #"""
      [
        "just a string",
        {"text": "ok", "buttons": "not a list"},
        {"text": {"nested": true}},
        {"buttons": [{"title": "Good", "payload": "/good"}, {"nothing": 1}]},
        {"image": 42}
      ]
      """#)
    #expect(reply.messages.count == 2)
    #expect(reply.messages[0].text == "ok")
    #expect(reply.messages[1].buttons == [Button(title: "Good", payload: "/good")])
    #expect(
      reply.problems == [
        .notAnObject(index: 1, got: "string"),
        .wrongType(index: 2, field: "buttons", expected: "array", got: "string"),
        .wrongType(index: 3, field: "text", expected: "string", got: "object"),
        .wrongType(
          index: 4, field: "buttons[2]", expected: "object with title and payload", got: "object"),
        .wrongType(index: 5, field: "image", expected: "string", got: "number"),
      ])
  }

  @Test func numbersWhereTextBelongsAreAccepted() throws {
    let reply = try decode(#"[{"text": 12, "buttons": [{"title": 1, "payload": 2.5}]}]"#)
    #expect(reply.messages[0].text == "12")
    #expect(reply.messages[0].buttons == [Button(title: "1", payload: "2.5")])
  }

  @Test func buttonWithoutTitleUsesItsPayload() throws {
    let reply = try decode(#"[{"buttons": [{"payload": "/greet"}]}]"#)
    #expect(reply.messages[0].buttons == [Button(title: "/greet", payload: "/greet")])
  }

  @Test func invalidUTF8IsRepairedNotRejected() throws {
    var bytes = Data(#"[{"text":"caf"#.utf8)
    bytes.append(0xFF)
    bytes.append(contentsOf: Data(#"e"}]"#.utf8))
    let reply = try BotReplyDecoder.decode(bytes)
    #expect(reply.messages[0].text == "caf\u{FFFD}e")
  }

  @Test func quickRepliesAndElements() throws {
    let reply = try decode(
      #"""
      [{"text": "Pick", "quick_replies": [{"content_type": "text", "title": "A", "payload": "/a"}],
        "elements": [{"title": "Card", "subtitle": "Sub", "image_url": "https://i.example/x.png",
                      "buttons": [{"title": "Go", "payload": "/go"},
                                  {"type": "web_url", "title": "Site", "url": "https://s.example"}]}]}]
      """#)
    let message = reply.messages[0]
    #expect(message.buttons == [Button(title: "A", payload: "/a")])
    #expect(message.elements.count == 1)
    #expect(message.elements[0].subtitle == "Sub")
    #expect(message.choices.map(\.title) == ["A", "Go"])
  }

  @Test func attachmentAsStringOrObjectIsKept() throws {
    let reply = try decode(
      #"[{"attachment": "https://f.example/a.pdf"}, {"attachment": {"type": "video", "payload": {"src": "https://v.example"}}}]"#
    )
    #expect(reply.messages[0].attachment == .string("https://f.example/a.pdf"))
    #expect(reply.messages[1].attachment?["payload"]?["src"] == .string("https://v.example"))
  }

  @Test func contactIDsAsNumbersStringsAndFloats() throws {
    let reply = try decode(#"[{"custom": {"contacts": [1, "2", 3.0, 4.5, null, {"x":1}]}}]"#)
    #expect(reply.messages[0].contactIDs == ["1", "2", "3", "4.5"])
  }

  @Test func deepNestingIsRejectedNotACrash() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(throws: ReplyDecodingFailure.self) { try decode(deep) }
  }

  /// An error body is said as people read it: a JSON error's message, an HTML page's
  /// title; never raw JSON.
  @Test func errorBodiesAreSaidAsMessages() {
    #expect(ChatError.firstLine(of: Data(#"{"error":"no guide 99999"}"#.utf8)) == "no guide 99999")
    #expect(ChatError.firstLine(of: Data(#"{"detail":"Not found","x":1}"#.utf8)) == "Not found")
    #expect(ChatError.firstLine(of: Data(#"{"code":5}"#.utf8)) == #"{"code":5}"#)
    #expect(
      ChatError.firstLine(of: Data("<html><title>502 Bad Gateway</title>".utf8))
        == "502 Bad Gateway")
    #expect(
      ChatError.firstLine(of: Data(#"{"error":"a\u001b[2Jb"}"#.utf8)) == "ab",
      "the escape sequence is dropped whole")
  }
}
