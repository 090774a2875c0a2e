import Foundation
import Testing

@testable import MigrantChatCore

/// `replay from-tracker`: a tracker's events as a transcript's turns (#46).
@Suite struct TrackerTranscriptTests {
  static let events: [JSONValue] = {
    let text = #"""
      [{"event":"action","name":"action_session_start"},{"event":"session_started"},
       {"event":"bot","text":"Welcome back","data":{}},
       {"event":"user","text":"hello","metadata":{"language":"uk"}},
       {"event":"action","name":"action_greet"},
       {"event":"bot","text":"What do you need?","data":{"buttons":[
         {"title":"Health insurance","payload":"/insurance"},{"title":"Housing","payload":"/housing"}],
         "image":null}},
       {"event":"user","text":"/insurance"},
       {"event":"bot","text":"These offices can help:","data":{"custom":{"contacts":[138508]}}},
       {"event":"bot","text":null,"data":{"image":"https://example.org/map.png"}},
       {"event":"user","text":"/housing"},
       {"event":"bot","text":"Always sign a written lease.","data":{}}]
      """#
    return (try? JSONParser.parse(text))?.arrayValue ?? []
  }()

  @Test func userEventsAreStepsAndBotEventsTheirAnswers() {
    let (language, turns) = TrackerTranscript.turns(Self.events)
    #expect(language == .uk, "the first message's metadata.language")
    #expect(turns.map(\.line) == ["hello", "/insurance", "/housing"])
    #expect(turns.map(\.button) == [nil, "Health insurance", nil], "only a payload just offered")
    #expect(
      turns[0].messages.map(\.text) == ["What do you need?"], "the greeting before is left out")
    #expect(turns[0].messages.first?.buttons.map(\.title) == ["Health insurance", "Housing"])
    #expect(turns[1].messages.count == 2)
    #expect(turns[1].messages[1].image == "https://example.org/map.png")
    #expect(turns[1].messages[0].custom?["contacts"] != nil)
  }

  @Test func aTrackerWithoutUserMessagesHasNoTurns() {
    #expect(TrackerTranscript.turns(Array(Self.events.prefix(3))).turns.isEmpty)
    #expect(TrackerTranscript.turns([]).language == nil)
  }
}
