import Foundation
import MigrantChatCore
import MigrantChatIO
import Synchronization
import TestSupport
import Testing

@Suite struct CurlChatTransportTests {
  func transport(
    _ server: LoopbackHTTPServer, path: String = "/webhooks/rest/webhook", timeout: Double = 5,
    token: String? = nil
  ) throws -> CurlChatTransport {
    CurlChatTransport(
      endpoint: try ServerEndpoint(baseURL: server.baseURL, webhookPath: path),
      options: HTTPOptions(timeout: timeout), token: token)
  }

  let request = ChatRequest(sender: "s-1", message: "/health", language: .uk)

  @Test func postsTheContractBodyAndDecodesTheReply() async throws {
    let server = try LoopbackHTTPServer { _ in
      .json(#"[{"text":"Hi","buttons":[{"title":"Yes","payload":"/affirm"}]}]"#)
    }
    let reply = try await transport(server, token: "secret-token").send(request)
    #expect(
      reply.messages == [
        BotMessage(text: "Hi", buttons: [Button(title: "Yes", payload: "/affirm")])
      ])
    let received = try #require(server.requests.first)
    #expect(received.method == "POST")
    #expect(received.path == "/webhooks/rest/webhook")
    #expect(received.headers["content-type"] == "application/json")
    #expect(received.headers["authorization"] == "Bearer secret-token")
    let body = try #require(received.bodyJSON)
    #expect(body["sender"] as? String == "s-1")
    #expect(body["message"] as? String == "/health")
    #expect(body["language"] as? String == "uk")
    #expect((body["metadata"] as? [String: Any])?["language"] as? String == "uk")
  }

  /// A token with a line break would inject a header: refused, nothing is sent.
  @Test func aTokenWithALineBreakIsNeverSent() async throws {
    let server = try LoopbackHTTPServer { _ in .json(#"[{"text":"Hi"}]"#) }
    do {
      _ = try await transport(server, token: "secret\r\nX-Injected: yes").send(request)
      Issue.record("sent")
    } catch {
      #expect("\(error)".contains("Authorization"), "\(error)")
    }
    #expect(server.requests.isEmpty)
  }

  /// The bot's time (request sent to first byte back), for explore's answer times: not
  /// the client's own queueing.
  @Test func theBotsTimeIsMeasuredByTheTransport() async throws {
    let server = try LoopbackHTTPServer { _ in
      .delayed(seconds: 0.2, then: ResponseBox(.json(#"[{"text":"ok"}]"#)))
    }
    let reply = try await transport(server).send(
      ChatRequest(sender: "s", message: "hi", language: .en))
    let seconds = try #require(reply.serverSeconds)
    #expect(seconds >= 0.19 && seconds < 5, "\(seconds)")
  }

  @Test func customChannelPath() async throws {
    let server = try LoopbackHTTPServer { request in
      request.path == "/webhooks/myrest/webhook" ? .json("[]") : .http(status: 404)
    }
    let reply = try await transport(server, path: "/webhooks/myrest/webhook").send(request)
    #expect(reply.messages.isEmpty)
  }

  @Test func noTokenNoAuthorizationHeader() async throws {
    let server = try LoopbackHTTPServer { _ in .json("[]") }
    _ = try await transport(server).send(request)
    #expect(server.requests.first?.headers["authorization"] == nil)
  }

  @Test func connectionRefused() async throws {
    let endpoint = try ServerEndpoint(baseURL: "http://127.0.0.1:\(unusedLoopbackPort())")
    let client = CurlChatTransport(endpoint: endpoint, options: HTTPOptions(timeout: 5), token: nil)
    await #expect(throws: ChatError.connectionRefused(server: endpoint.baseURL)) {
      try await client.send(request)
    }
  }

  @Test func hostNotFound() async throws {
    let endpoint = try ServerEndpoint(baseURL: "http://no-such-host.invalid:5005")
    let client = CurlChatTransport(
      endpoint: endpoint, options: HTTPOptions(timeout: 10), token: nil)
    await #expect(
      throws: ChatError.hostNotFound(server: endpoint.baseURL, host: "no-such-host.invalid")
    ) {
      try await client.send(request)
    }
  }

  @Test func timeout() async throws {
    let server = try LoopbackHTTPServer { _ in .delayed(seconds: 3, then: ResponseBox(.json("[]")))
    }
    await #expect(throws: ChatError.timedOut(server: server.baseURL, seconds: 0.5)) {
      try await transport(server, timeout: 0.5).send(request)
    }
  }

  @Test func cancellationAbortsTheRequest() async throws {
    // The server would answer successfully after 60 s, so `.cancelled` can only
    // come from aborting the transfer (no wall-clock assertion: machines are noisy,
    // and on a busy test run the cancel below may come seconds late).
    let server = try LoopbackHTTPServer { _ in
      .delayed(seconds: 60, then: ResponseBox(.json("[]")))
    }
    let client = try transport(server, timeout: 120)
    let task = Task { try await client.send(request) }
    try await Task.sleep(for: .milliseconds(200))
    task.cancel()
    await #expect(throws: ChatError.cancelled) { try await task.value }
  }

  @Test func nonSuccessStatusCarriesTheFirstLineOfTheBody() async throws {
    let server = try LoopbackHTTPServer { _ in
      .http(
        status: 500, body: Data("\n  Internal error: \u{1B}[31mmodel not loaded\nTraceback...".utf8)
      )
    }
    await #expect(
      throws: ChatError.httpStatus(
        server: server.baseURL, status: 500, firstLine: "Internal error: model not loaded")
    ) { try await transport(server).send(request) }
  }

  @Test func htmlErrorPageShowsItsTitle() async throws {
    let html =
      "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad</h1></body></html>"
    let server = try LoopbackHTTPServer { _ in
      .http(status: 502, headers: ["Content-Type": "text/html"], body: Data(html.utf8))
    }
    await #expect(
      throws: ChatError.httpStatus(
        server: server.baseURL, status: 502, firstLine: "502 Bad Gateway")
    ) { try await transport(server).send(request) }
  }

  @Test func bodyOverTheCap() async throws {
    let big = Data(repeating: UInt8(ascii: " "), count: 9 * 1024 * 1024)
    let server = try LoopbackHTTPServer { _ in .http(status: 200, body: big) }
    await #expect(
      throws: ChatError.bodyTooLarge(server: server.baseURL, limitBytes: 8 * 1024 * 1024)
    ) {
      try await transport(server).send(request)
    }
  }

  @Test func bodyNotJSONAndNotAnArray() async throws {
    let server = try LoopbackHTTPServer { request in
      request.bodyJSON?["message"] as? String == "html"
        ? .http(status: 200, body: Data("<html>".utf8)) : .json(#"{"text":"hi"}"#)
    }
    let client = try transport(server)
    await #expect(throws: ChatError.notJSON(server: server.baseURL)) {
      try await client.send(ChatRequest(sender: "s", message: "html", language: .en))
    }
    await #expect(throws: ChatError.notAnArray(server: server.baseURL, got: "object")) {
      try await client.send(request)
    }
  }

  @Test func redirectsToOtherSchemesAreRefused() async throws {
    for target in ["file:///etc/passwd", "gopher://127.0.0.1/x", "ftp://127.0.0.1/x"] {
      let server = try LoopbackHTTPServer { _ in .redirect(to: target) }
      await #expect(throws: ChatError.redirectRefused(server: server.baseURL), "\(target)") {
        try await transport(server).send(request)
      }
    }
  }

  @Test func redirectLoopsStopAfterThree() async throws {
    let server = try LoopbackHTTPServer { request in .redirect(to: request.path) }
    await #expect(throws: ChatError.tooManyRedirects(server: server.baseURL, limit: 3)) {
      try await transport(server).send(request)
    }
    #expect(server.requests.count == 4)
  }

  @Test func httpRedirectsAreFollowedKeepingThePost() async throws {
    let server = try LoopbackHTTPServer { request in
      request.path == "/moved"
        ? .json(#"[{"text":"moved here"}]"#) : .redirect(to: "/moved", status: 301)
    }
    let reply = try await transport(server).send(request)
    #expect(reply.messages.first?.text == "moved here")
    #expect(server.requests.last?.method == "POST")
    #expect(server.requests.last?.bodyJSON?["message"] as? String == "/health")
  }

  @Test func serverClosingWithoutAnAnswerSaysTheMessageWasNotSentAgain() async throws {
    let server = try LoopbackHTTPServer { _ in .close }
    await #expect(throws: ChatError.noAnswer(server: server.baseURL)) {
      try await transport(server).send(request)
    }
  }

  @Test func aMessageIsNeverSentTwice() async throws {
    let server = try LoopbackHTTPServer { _ in .http(status: 503) }
    _ = try? await transport(server).send(request)
    #expect(server.requests.count == 1)
  }

  /// libcurl re-sends a request on a fresh connection when a kept-alive one
  /// gives no answer; for a chat message that would make the bot act twice.
  @Test func aMessageIsNeverSentTwiceOnAReusedConnection() async throws {
    let server = try LoopbackHTTPServer { request in
      request.bodyJSON?["message"] as? String == "first" ? .json(#"[{"text":"ok"}]"#) : .close
    }
    let client = try transport(server)
    _ = try await client.send(ChatRequest(sender: "s-1", message: "first", language: .en))
    // Said as what it is: no answer, and the message not sent again.
    await #expect(throws: ChatError.noAnswer(server: server.baseURL)) {
      try await client.send(ChatRequest(sender: "s-1", message: "second", language: .en))
    }
    #expect(
      server.requests.compactMap { $0.bodyJSON?["message"] as? String } == ["first", "second"])
  }

  @Test func tlsVerificationFailureSuggestsInsecureAndInsecureWorks() async throws {
    let tls = try SelfSignedTLSServer()
    defer { tls.stop() }
    let endpoint = try ServerEndpoint(baseURL: tls.baseURL)
    let strict = CurlChatTransport(
      endpoint: endpoint, options: HTTPOptions(timeout: 10), token: nil)
    await #expect {
      try await strict.send(request)
    } throws: { error in
      guard case ChatError.tlsVerification = error else { return false }
      return (error as? ChatError)?.message(Localizer(.en)).contains("--insecure") == true
    }
    let insecure = CurlChatTransport(
      endpoint: endpoint, options: HTTPOptions(timeout: 10, insecure: true), token: nil)
    let reply = try await insecure.send(request)
    #expect(reply.messages.first?.text == "secure hello")
  }
}

/// Rasa's tracker API: what it says when it cannot add events is in the user's language.
@Suite struct RasaTrackerAPIAppendTests {
  @Test func aServerThatIsDownIsSaidInTheUsersLanguage() async throws {
    let endpoint = try ServerEndpoint(baseURL: "http://127.0.0.1:\(unusedLoopbackPort())")
    let api = RasaTrackerAPI(endpoint: endpoint, timeout: 5, token: nil)
    let failure = try #require(await api.append([], sender: "s"))
    let english = failure.message(Localizer(.en))
    let ukrainian = failure.message(Localizer(.uk))
    #expect(!english.contains("connectionRefused"))
    #expect(
      english == "POST /conversations/{id}/tracker/events: "
        + failure.error!.message(Localizer(.en)))
    #expect(ukrainian != english, "translated: \(ukrainian)")
  }

  @Test func aServerWithoutTheAPIIsNamed() async throws {
    let server = try LoopbackHTTPServer { _ in .http(status: 404) }
    let api = RasaTrackerAPI(
      endpoint: try ServerEndpoint(baseURL: server.baseURL), timeout: 5, token: nil)
    let failure = try #require(await api.append([], sender: "s"))
    #expect(failure.message(Localizer(.en)) == "HTTP 404 (no --enable-api?)")
  }
}
