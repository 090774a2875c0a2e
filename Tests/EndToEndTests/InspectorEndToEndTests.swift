import Foundation
import TestSupport
import Testing

/// `--inspect` against a loopback Rasa-like bot: its HTTP API on, off, or behind a token.
@Suite struct InspectorEndToEndTests {
  let home = TemporaryDirectory()

  static let tracker = #"""
    {"sender_id":"s","slots":{"city":"Brno","topic":null},"events":[
      {"event":"user","text":"flat in Brno","parse_data":{"intent":{"name":"housing","confidence":0.93},
        "entities":[{"entity":"city","value":"Brno"}],
        "intent_ranking":[{"name":"housing","confidence":0.93},{"name":"greet","confidence":0.04}]}},
      {"event":"slot","name":"city","value":"Brno"},
      {"event":"action","name":"action_housing","policy":"RulePolicy","confidence":1.0},
      {"event":"bot","text":"Always sign a written lease."},
      {"event":"action","name":"action_listen","policy":"RulePolicy","confidence":1.0}]}
    """#

  /// `api`: "on", "off" (404), or a token the API wants (`?token=`, else 401).
  func bot(api: String) throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer { request in
      if request.path.hasPrefix("/conversations/") || request.path == "/model/parse" {
        if api == "off" { return .http(status: 404, body: Data("Not Found".utf8)) }
        if api != "on", !request.target.contains("token=" + api) {
          return .http(status: 401, body: Data(#"{"message":"User is not authenticated."}"#.utf8))
        }
        if request.path == "/model/parse" {
          let text = request.bodyJSON?["text"] as? String ?? ""
          return .json(
            #"{"text":"\#(text)","intent":{"name":"insurance","confidence":0.8},"entities":[]}"#)
        }
        return .json(Self.tracker)
      }
      return .json(#"[{"text":"Always sign a written lease."}]"#)
    }
  }

  @Test func afterEachAnswerWhatTheBotUnderstood() throws {
    let server = try bot(api: "on")
    let result = try chat(
      ["--server", server.baseURL, "--inspect", "--start-message", ""],
      input: "flat in Brno\n/slots\n/parse insurance please\n/inspect off\nagain\n", home: home)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Always sign a written lease."))
    #expect(!result.stdout.contains("intent:"), "the inspector writes to stderr")
    // Two lines at 80 columns.
    #expect(
      result.stderr.hasPrefix(
        "  intent: housing 0.93 (greet 0.04) · entities: city=Brno\n"
          + "  slots: city - -> Brno · actions: action_housing (RulePolicy 1.00)\n"))
    #expect(result.stderr.contains("Slots:\n  city = Brno\n"))
    #expect(
      result.stderr.contains("NLU for \"insurance please\" (not sent):\n  intent: insurance 0.80"))
    #expect(result.stderr.contains("The inspector is off."))
    #expect(result.stderr.components(separatedBy: "intent: housing").count == 2, "once: then off")
    // /parse never reached the conversation.
    let sent = server.requests.compactMap { $0.bodyJSON?["message"] as? String }
    #expect(sent == ["flat in Brno", "again"])
  }

  @Test func withoutTheAPIOneTranslatedLineAndTheChatGoesOn() throws {
    let server = try bot(api: "off")
    let result = try chat(
      ["--server", server.baseURL, "--inspect", "--start-message", "", "--lang", "uk"],
      input: "one\ntwo\n", home: home)
    #expect(result.status == 0)
    #expect(result.stdout.components(separatedBy: "Always sign").count == 3)
    #expect(
      result.messages.contains(
        "Інспекторові потрібен HTTP API Rasa на \(server.baseURL), а він відповів 404"))
    #expect(result.stderr.components(separatedBy: "Інспекторові").count == 2, "said once")
  }

  @Test func theAPITokenIsSentAsRasaTakesIt() throws {
    let server = try bot(api: "s3cret")
    let refused = try chat(
      ["--server", server.baseURL, "--inspect", "--start-message", ""], input: "hi\n", home: home)
    #expect(refused.status == 0)
    #expect(
      refused.messages.contains("refused the inspector (HTTP 401): set MIGRANT_CHAT_API_TOKEN"))
    let result = try chat(
      ["--server", server.baseURL, "--inspect", "--start-message", ""], input: "hi\n", home: home,
      environment: ["MIGRANT_CHAT_TOKEN": "channel", "MIGRANT_CHAT_API_TOKEN": "s3cret"])
    #expect(result.stderr.contains("intent: housing"), "\(result.stderr)")
    let api = server.requests.last { $0.path.hasPrefix("/conversations/") }
    #expect(api?.target.hasSuffix("/tracker?token=s3cret") == true)
    #expect(api?.headers["authorization"] == "Bearer s3cret")
    let webhook = server.requests.last { $0.path == "/webhooks/rest/webhook" }
    #expect(webhook?.headers["authorization"] == "Bearer channel")
  }

  /// With only the chat's token, the inspector sends it as a header, never in the
  /// URL, where access logs would keep it.
  @Test func theChatTokenIsNeverPutInAURL() throws {
    let server = try bot(api: "on")
    let result = try chat(
      ["--server", server.baseURL, "--inspect", "--start-message", ""], input: "hi\n/slots\n",
      home: home, environment: ["MIGRANT_CHAT_TOKEN": "channel-secret"])
    #expect(result.stderr.contains("intent: housing"), "\(result.stderr)")
    let api = server.requests.filter {
      $0.path.hasPrefix("/conversations/") || $0.path == "/model/parse"
    }
    #expect(!api.isEmpty)
    #expect(api.allSatisfy { !$0.target.contains("channel-secret") && !$0.target.contains("?") })
    #expect(api.allSatisfy { $0.headers["authorization"] == "Bearer channel-secret" })
  }

  @Test func theOfflineAssistantAndJSON() throws {
    let offline = try chat(["--offline", "--inspect"], input: "1\n", home: home)
    #expect(offline.messages.contains("The inspector needs a Rasa server"))
    let server = try bot(api: "on")
    let json = try chat(
      ["--server", server.baseURL, "--inspect", "--json", "--start-message", ""],
      input: "flat\n", home: home)
    let objects = json.stdout.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    let inspect = objects.first { $0["type"] as? String == "inspect" }
    #expect((inspect?["intent"] as? [String: Any])?["name"] as? String == "housing")
    #expect((inspect?["slots"] as? [[String: Any]])?.first?["new"] as? String == "Brno")
    #expect((inspect?["entities"] as? [[String: Any]])?.first?["value"] as? String == "Brno")
  }
}
