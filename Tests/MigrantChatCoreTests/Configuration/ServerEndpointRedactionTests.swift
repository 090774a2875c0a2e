import Testing

@testable import MigrantChatCore

/// A password in the bot's address is shown as `***` wherever the address is shown,
/// also as typed without `http://` (the line saying `http://` is assumed quoted it).
@Suite struct ServerEndpointRedactionTests {
  @Test(arguments: [
    ("http://ana:s3cret@host:5005", "http://ana:***@host:5005"),
    ("https://ana:s3cret@host/path?x=1", "https://ana:***@host/path?x=1"),
    ("ana:s3cret@127.0.0.1:5005", "ana:***@127.0.0.1:5005"),
    ("  ana:s3cret@localhost  ", "ana:***@localhost"),
    ("ana:s:e@c@host", "ana:***@host"),
    ("Cannot reach http://ana:s3cret@host now", "Cannot reach http://ana:***@host now"),
    ("mail ana:s3cret@host please", "mail ana:s3cret@host please"),
    ("ana@host", "ana@host"),
    ("http://host:5005", "http://host:5005"),
  ])
  func redacted(typed: String, shown: String) {
    #expect(ServerEndpoint.redacted(typed) == shown)
  }

  @Test func anAddressWithoutASchemeKeepsItsPasswordForTheRequest() throws {
    let assumed = try #require(ServerEndpoint.assumingHTTP("ana:s3cret@127.0.0.1:5005"))
    let endpoint = try ServerEndpoint(baseURL: assumed)
    #expect(endpoint.baseURL == "http://ana:***@127.0.0.1:5005")
    #expect(endpoint.requestBaseURL == "http://ana:s3cret@127.0.0.1:5005")
  }
}
