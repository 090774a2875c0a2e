import Testing

@testable import MigrantChatCore

@Suite struct ServerEndpointTests {
  @Test func normalizesTheBaseAndPath() throws {
    let endpoint = try ServerEndpoint(
      baseURL: "http://localhost:5005/", webhookPath: "webhooks/myrest/webhook")
    #expect(endpoint.baseURL == "http://localhost:5005")
    #expect(endpoint.webhookURL == "http://localhost:5005/webhooks/myrest/webhook")
    #expect(endpoint.host == "localhost")
    #expect(
      try ServerEndpoint(baseURL: "https://bot.example/rasa").webhookURL
        == "https://bot.example/rasa/webhooks/rest/webhook")
  }

  @Test(arguments: [
    "file:///etc/passwd", "gopher://x", "localhost:5005", "", "http://", "ftp://bot.example",
  ])
  func rejectsNonHTTP(url: String) {
    #expect(throws: ServerEndpoint.Invalid.self) { try ServerEndpoint(baseURL: url) }
  }

  @Test func firstGivenSkipsMissingAndEmpty() {
    #expect(firstGiven(nil, "", "b", "c") == "b")
    #expect(firstGiven(nil, nil) == nil)
  }
}

@Suite struct ColorChoiceTests {
  @Test func autoFollowsTheTerminalTermAndNoColor() {
    #expect(ColorChoice.auto.enabled(isTerminal: true, environment: ["TERM": "xterm"]))
    #expect(!ColorChoice.auto.enabled(isTerminal: false, environment: ["TERM": "xterm"]))
    #expect(!ColorChoice.auto.enabled(isTerminal: true, environment: ["TERM": "dumb"]))
    #expect(!ColorChoice.auto.enabled(isTerminal: true, environment: ["NO_COLOR": "1"]))
    #expect(ColorChoice.auto.enabled(isTerminal: true, environment: ["NO_COLOR": ""]))
    #expect(ColorChoice.always.enabled(isTerminal: false, environment: ["NO_COLOR": "1"]))
    #expect(!ColorChoice.never.enabled(isTerminal: true, environment: [:]))
  }
}

@Suite struct TimeoutTests {
  /// Russian and Ukrainian show the range as "0,1"; a value typed with a decimal comma is read.
  @Test(arguments: [("2.5", 2.5), ("2,5", 2.5), (" 20 ", 20), ("0,1", 0.1), ("1e1", 10)])
  func readsWhatPeopleType(text: String, seconds: Double) {
    #expect(Timeout(parsing: text)?.seconds == seconds)
  }

  @Test(arguments: ["1,000.5", "1,2,3", "0,0004", "abc", "", "inf", "3601"])
  func refusesTheRest(text: String) {
    #expect(Timeout(parsing: text) == nil)
  }

  @Test func theRangeInEachLanguage() {
    #expect(Timeout.allowedText(Localizer(.en)) == ("0.1", "3600"))
    #expect(Timeout.allowedText(Localizer(.ru)) == ("0,1", "3600"))
    #expect(Localizer(.uk).number(0.5, fractionDigits: 2) == "0,50")
    #expect(Localizer(.en).number(12.25) == "12.25")
  }
}
