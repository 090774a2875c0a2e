import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct SocketIOProtocolTests {
  // Engine.IO v4 (https://socket.io/docs/v4/engine-io-protocol/): packets joined by 0x1E.
  @Test func enginePayloadsSplitAtTheRecordSeparator() {
    let payload = "0{\"sid\":\"a\"}\u{1E}2\u{1E}42[\"x\"]\u{1E}bAQI=\u{1E}6\u{1E}9zz"
    #expect(
      EngineIOPacket.decodePayload(payload) == [
        .open("{\"sid\":\"a\"}"), .ping(""), .message("2[\"x\"]"), .binary(Data([1, 2])), .noop,
        .unknown,
      ])
    #expect(EngineIOPacket.encodePayload([.pong(""), .message("40")]) == "3\u{1E}440")
    #expect(EngineIOPacket.decodePayload("") == [])
    #expect(EngineIOPacket.decode("b!!!") == .binary(nil))
  }

  @Test func theHandshakeNeedsASessionID() throws {
    let handshake = try #require(
      EngineIOHandshake(
        #"{"sid":"x1","pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}"#))
    #expect(handshake.sid == "x1")
    #expect(handshake.pingInterval == 25)
    #expect(handshake.pingTimeout == 20)
    #expect(EngineIOHandshake(#"{"pingInterval":1}"#) == nil)
    #expect(EngineIOHandshake(#"{"sid":""}"#) == nil)
    #expect(EngineIOHandshake("not json") == nil)
    // Absent timings: the protocol's defaults.
    #expect(EngineIOHandshake(#"{"sid":"y"}"#)?.pingInterval == 25)
    // A hostile server's numbers stay within bounds (they set a timeout in milliseconds).
    let hostile = try #require(
      EngineIOHandshake(#"{"sid":"z","pingInterval":1e300,"pingTimeout":-5,"maxPayload":1e300}"#))
    #expect(hostile.pingInterval == 300 && hostile.pingTimeout == 0)
    #expect(hostile.maxPayload == 1_000_000_000_000)
  }

  // Socket.IO v5 (https://socket.io/docs/v4/socket-io-protocol/), the spec's own examples.
  @Test func socketPacketsAsTheSpecWritesThem() throws {
    let event = try #require(SocketIOPacket.decode(#"2["foo"]"#))
    #expect(event.kind == .event && event.namespace == "/" && event.ackID == nil)
    #expect(event.eventArguments?.name == "foo")
    let withAck = try #require(SocketIOPacket.decode(#"2/admin,456["project:delete",123]"#))
    #expect(withAck.namespace == "/admin" && withAck.ackID == 456)
    #expect(withAck.eventArguments?.arguments == [.number(123)])
    let ack = try #require(SocketIOPacket.decode("3/admin,456[]"))
    #expect(ack.kind == .ack && ack.ackID == 456 && ack.data == .array([]))
    let binary = try #require(
      SocketIOPacket.decode(#"51-["hello",{"_placeholder":true,"num":0}]"#))
    #expect(binary.kind == .binaryEvent && binary.attachments == 1)
    let connect = try #require(SocketIOPacket.decode(#"0{"sid":"oSO0OpakMV_3jnilAAAA"}"#))
    #expect(connect.kind == .connect && connect.data?["sid"]?.stringValue == "oSO0OpakMV_3jnilAAAA")
    let refused = try #require(SocketIOPacket.decode(#"4{"message":"Not authorized"}"#))
    #expect(refused.kind == .connectError)
    #expect(SocketIOPacket.decode("1")?.kind == .disconnect)
  }

  @Test func malformedSocketPacketsAreRefused() {
    // "25-0" (found by the fuzzer): a number after the ack id would not encode back.
    for text in [
      "", "9", "x[]", "2[broken", "5[\"no count\"]", "2/ns,99999999999999999999[]", "25-0", "3true",
    ] {
      #expect(SocketIOPacket.decode(text) == nil, "\(text)")
    }
    // An event whose first argument is not a name has no event arguments.
    #expect(SocketIOPacket.decode("2[5]")?.eventArguments == nil)
    #expect(SocketIOPacket.decode(#"2{"a":1}"#)?.eventArguments == nil)
  }

  @Test func packetsEncodeAsTheyDecode() {
    let packet = SocketIOPacket.event(
      "user_uttered", [.object(["message": .string("привет")])], namespace: "/bot", ackID: 7)
    #expect(packet.encoded == #"2/bot,7["user_uttered",{"message":"привет"}]"#)
    #expect(SocketIOPacket.decode(packet.encoded) == packet)
    #expect(SocketIOPacket(kind: .connect).encoded == "0")
    #expect(
      SocketIOPacket(kind: .connect, data: .object(["token": .string("t")])).encoded
        == #"0{"token":"t"}"#)
  }

  @Test func theUserMessageAsRasaReadsIt() {
    var settings = SocketIOSettings(path: "bot/sio/")
    #expect(settings.path == "/bot/sio")
    settings.metadataKey = "meta"
    let message = settings.userMessage(ChatRequest(sender: "s1", message: "hi", language: .uk))
    #expect(message["message"] == .string("hi"))
    #expect(message["session_id"] == .string("s1"))
    #expect(message["meta"]?["language"] == .string("uk"))
    #expect(SocketIOSettings(namespace: "bot").namespace == "/bot")
  }

  // Rasa's socketio output channel (rasa/core/channels/socketio.py) against the REST shape.
  @Test func rasaSocketMessagesDecodeAsRESTOnes() {
    let reply = SocketIOMessage.reply([
      .object([
        "text": .string("Choose"),
        "quick_replies": .array([
          .object([
            "content_type": .string("text"), "title": .string("Housing"),
            "payload": .string("/housing"),
          ])
        ]),
      ]),
      .object([
        "attachment": .object([
          "type": .string("image"), "payload": .object(["src": .string("https://x/y.png")]),
        ])
      ]),
      .object(["contacts": .array([.number(138512)])]),
      .string("not a message"),
    ])
    #expect(reply.messages.count == 3)
    #expect(reply.messages[0].buttons == [Button(title: "Housing", payload: "/housing")])
    #expect(reply.messages[1].image == "https://x/y.png" && reply.messages[1].attachment == nil)
    #expect(reply.messages[2].contactIDs == ["138512"])
    #expect(reply.problems == [.notAnObject(index: 4, got: "string")])
    // A non-image attachment (a template) is kept as the attachment it is.
    let template = SocketIOMessage.restShape(
      .object(["attachment": .object(["type": .string("template")])]))
    #expect(template["attachment"]?["type"] == .string("template"))
  }

  @Test func anAnswerEndsAtTheAcknowledgementAfterItsMessages() {
    var answer = SocketIOAnswer(sentAt: 0, settle: 1, timeout: 30)
    #expect(answer.state(at: 0.1) == .waiting(until: 30))
    answer.received(.object(["text": .string("a")]), at: 0.2)
    #expect(answer.state(at: 0.3) == .waiting(until: 1.2))
    answer.acknowledged(at: 0.3)
    #expect(answer.state(at: 0.3) == .whole)
    #expect(answer.endedByAcknowledgement)
    // A message after the acknowledgement: the settle time decides again.
    answer.received(.object(["text": .string("b")]), at: 0.4)
    #expect(answer.state(at: 0.5) == .waiting(until: 1.4))
    #expect(answer.state(at: 1.4) == .whole)
  }

  @Test func anAcknowledgementFirstWaitsForTheMessages() {
    var answer = SocketIOAnswer(sentAt: 0, settle: 1, timeout: 30)
    answer.acknowledged(at: 0.1)
    #expect(answer.state(at: 0.5) == .waiting(until: 1.1))
    answer.received(.object(["text": .string("late")]), at: 0.9)
    #expect(answer.state(at: 1.5) == .waiting(until: 1.9))
    #expect(answer.state(at: 1.9) == .whole)
    var empty = SocketIOAnswer(sentAt: 0, settle: 1, timeout: 30)
    empty.acknowledged(at: 0.1)
    #expect(empty.state(at: 1.1) == .empty)
    // On a connection whose server acknowledges last, the acknowledgement alone is empty.
    var known = SocketIOAnswer(sentAt: 0, settle: 1, timeout: 30, acknowledgesLast: true)
    known.acknowledged(at: 0.1)
    #expect(known.state(at: 0.1) == .empty)
  }

  @Test func nothingAtAllTimesOutAndEndlessTalkEndsAtTheTimeout() {
    let silent = SocketIOAnswer(sentAt: 10, settle: 1, timeout: 5)
    #expect(silent.state(at: 14.9) == .waiting(until: 15))
    #expect(silent.state(at: 15) == .timedOut)
    var chatty = SocketIOAnswer(sentAt: 0, settle: 1, timeout: 5)
    for tick in stride(from: 0.5, through: 5, by: 0.5) {
      chatty.received(.object(["text": .string("more")]), at: tick)
    }
    #expect(chatty.state(at: 5) == .whole)
  }

  @Test func theSessionIDIsEscapedAsAQueryValue() {
    #expect(
      EngineIOHandshake.pollingURL("http://h/socket.io", sid: "")
        == "http://h/socket.io/?EIO=4&transport=polling")
    #expect(
      EngineIOHandshake.pollingURL("http://h/socket.io", sid: "oSO0-Opak_MV.3~")
        == "http://h/socket.io/?EIO=4&transport=polling&sid=oSO0-Opak_MV.3~")
    #expect(
      EngineIOHandshake.pollingURL("http://h/s", sid: "a&b=c#d/e+f g%\u{10}й")
        == "http://h/s/?EIO=4&transport=polling&sid=a%26b%3Dc%23d%2Fe%2Bf%20g%25%10%D0%B9")
  }

  @Test func maxPayloadIsTheServersOrTheDefault() {
    #expect(EngineIOHandshake(#"{"sid":"a","maxPayload":2000}"#)?.maxPayload == 2000)
    for absent in [
      #"{"sid":"a"}"#, #"{"sid":"a","maxPayload":0}"#, #"{"sid":"a","maxPayload":-3}"#,
    ] {
      #expect(EngineIOHandshake(absent)?.maxPayload == 1_000_000, "\(absent)")
    }
  }

  @Test func anAnswerPastItsCapIsTooLargeAndLetsItsMessagesGo() {
    var answer = SocketIOAnswer(sentAt: 0, settle: 1, timeout: 30, limitBytes: 100)
    answer.received(.object(["text": .string("a")]), bytes: 60, at: 0.1)
    #expect(answer.state(at: 0.2) == .waiting(until: 1.1))
    answer.received(.object(["text": .string("b")]), bytes: 60, at: 0.2)
    #expect(answer.state(at: 0.2) == .tooLarge)
    #expect(answer.messages.isEmpty && answer.bytes == 120)
    answer.acknowledged(at: 0.3)
    answer.received(.object(["text": .string("c")]), bytes: 1, at: 0.4)
    #expect(answer.state(at: 99) == .tooLarge && answer.messages.isEmpty)
    // Without a size, a message counts its JSON's bytes.
    var sized = SocketIOAnswer(sentAt: 0, settle: 1, timeout: 30, limitBytes: 12)
    sized.received(.object(["text": .string("abc")]), at: 0.1)
    #expect(sized.bytes == 14 && sized.state(at: 0.1) == .tooLarge)
  }

  @Test func storedMessagesKeepTheNewestWithinACountAndBytes() {
    var store = SocketIOMessages()
    for index in 1...5 { store.append(.number(Double(index)), bytes: index * 10) }
    store.trim(toCount: 4, bytes: 1000)
    #expect(store.messages == [2, 3, 4, 5].map { .number(Double($0)) })
    store.trim(toCount: 4, bytes: 90)
    #expect(store.messages == [4, 5].map { .number(Double($0)) } && store.bytes == 90)
    store.append(.number(9), bytes: 500)
    store.trim(toCount: 4, bytes: 90)
    #expect(store.isEmpty && store.bytes == 0)
    store.append(.number(1), bytes: 1)
    #expect(store.take() == [.number(1)] && store.isEmpty)
  }

  @Test func channelsAsTyped() {
    #expect(BotChannel.list("rest,socketio") == [.rest, .socketio])
    #expect(BotChannel.list("Socket.IO") == [.socketio])
    #expect(BotChannel.list("rest,rest") == [.rest])
    for bad in ["", "grpc", "rest,", ",", "rest;socketio"] {
      #expect(BotChannel.list(bad) == nil, "\(bad)")
    }
  }
}
