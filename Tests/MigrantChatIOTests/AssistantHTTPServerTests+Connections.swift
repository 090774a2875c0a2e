import Foundation
import MigrantChatCore
import MigrantChatIO
import Synchronization
import TestSupport
import Testing

/// What a connection gets: HEAD, the header line limit, requests behind a closing
/// answer, and `/version` while reports wait for a held database.
extension AssistantHTTPServerTests {
  static let version = "GET /version HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"

  static func reportRequest(_ description: String, close: Bool = true) -> String {
    let body = #"{"itemId":10,"description":"\#(description)"}"#
    return "POST /faq/reports/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(body.utf8.count)\r\n\(close ? "Connection: close\r\n" : "")\r\n\(body)"
  }

  /// Reports that wait for a database another connection holds (a second `serve`, a
  /// slow disk) wait on the store's own queue: `/version` and the webhook are answered
  /// meanwhile. They waited inside the request handlers before, more of them than
  /// Swift's pool has threads held it all, and `/version` waited for SQLite's 30 s
  /// busy timeout (`flock` had no timeout at all).
  @Test func versionAnswersWhileReportsWaitForAHeldDatabase() async throws {
    let directory = TemporaryDirectory()
    let store = ReceivedReportStore(path: directory.path + "/reports.sqlite")
    #expect(try await store.record(itemID: 10, description: "first") == 1)
    let reports = SignallingReports(store)
    let server = try await startServer(reports: reports)
    defer { Task { await server.stop() } }
    let port = try #require(await server.port)
    let holder = try DatabaseLockHolder(path: store.path)
    let count = ProcessInfo.processInfo.activeProcessorCount + 2
    let answered = AnswerCount()
    let posts = (0..<count).map { index in
      Task {
        let answer = try await Self.exchange(port, Self.reportRequest("waiting \(index)"))
        answered.value.add(1, ordering: .sequentiallyConsistent)
        return answer
      }
    }
    await reports.waitForCalls(count)
    let version = try await exchange(port, Self.version)
    #expect(version.hasPrefix("HTTP/1.1 200"), "\(version)")
    let body = #"{"sender":"t","message":"/start"}"#
    let webhook = try await exchange(
      port,
      "POST /webhooks/rest/webhook HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    )
    #expect(webhook.hasPrefix("HTTP/1.1 200"), "\(webhook)")
    #expect(
      answered.value.load(ordering: .sequentiallyConsistent) == 0,
      "/version was answered only after the reports")
    try holder.release()
    for post in posts {
      let answer = try await post.value
      #expect(answer.hasPrefix("HTTP/1.1 201"), "\(answer)")
    }
    #expect(try store.all().map(\.id) == Array(1...Int64(count + 1)))
  }

  /// HEAD is answered wherever GET is (RFC 9110 §9.3.2): GET's status and headers,
  /// its Content-Length too, and no body; the connection goes on (it was 405).
  @Test func headAnswersWithGetsHeadersAndNoBody() async throws {
    let server = try await startServer()
    defer { Task { await server.stop() } }
    let port = try #require(await server.port)
    let answer = try await exchange(
      port, "HEAD /faq/tags/ HTTP/1.1\r\nHost: localhost\r\n\r\n" + Self.version)
    let answers = answer.components(separatedBy: "HTTP/1.1 ").dropFirst()
    #expect(answers.count == 2, "\(answer)")
    let head = try #require(answers.first)
    #expect(head.hasPrefix("200") && head.hasSuffix("\r\n\r\n"), "\(head)")
    let get = try await exchange(
      port, "GET /faq/tags/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    let body = try #require(get.components(separatedBy: "\r\n\r\n").last)
    #expect(head.lowercased().contains("content-length: \(body.utf8.count)\r\n"), "\(head)")
    #expect(head.lowercased().contains("content-type: application/json"))
  }

  /// A header line is counted whole: a name of 8,000 bytes and a value of 8,000 (each
  /// under the parser's own limit) are refused, as the docs say (it was 200).
  @Test func aHeaderLineOver8KiBIsRefused() async throws {
    let server = try await startServer()
    defer { Task { await server.stop() } }
    let port = try #require(await server.port)
    func line(_ name: Int, _ value: Int) -> String {
      "X-" + String(repeating: "n", count: name - 2) + ": " + String(repeating: "v", count: value)
    }
    let long = try await exchange(
      port, "GET /version HTTP/1.1\r\nHost: localhost\r\n\(line(8000, 8000))\r\n\r\n")
    #expect(long.hasPrefix("HTTP/1.1 400"), "\(long.prefix(200))")
    #expect(long.contains("longer than 8192 bytes"))
    // 8,192 bytes in all, with the colon and space: answered.
    let fits = try await exchange(
      port,
      "GET /version HTTP/1.1\r\nHost: localhost\r\n\(line(4095, 4095))\r\nConnection: close\r\n\r\n"
    )
    #expect(fits.hasPrefix("HTTP/1.1 200"), "\(fits.prefix(200))")
    let longTarget = try await exchange(
      port,
      "GET /version?q=\(String(repeating: "a", count: 8200)) HTTP/1.1\r\nHost: localhost\r\n\r\n")
    #expect(longTarget.hasPrefix("HTTP/1.1 400"), "\(longTarget.prefix(200))")
  }

  /// Requests sent together are answered one after another, in order; one read behind
  /// an answer that closes the connection is never run, whatever closed it.
  @Test func aRequestBehindAClosingAnswerIsNeverRun() async throws {
    let reports = SignallingReports(NoReports())
    let server = try await startServer(reports: reports)
    defer { Task { await server.stop() } }
    let port = try #require(await server.port)
    let hidden = Self.reportRequest("hidden", close: false)
    let closing = [
      "POST /webhooks/rest/webhook HTTP/1.1\r\nHost: localhost\r\n"
        + "Transfer-Encoding: identity, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
      "GET /version HTTP/1.1\r\nHost: evil.example\r\n\r\n",
      "POST /webhooks/rest/webhook HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5000\r\n\r\n",
      "GET /version HTTP/1.1\r\nHost: localhost\r\nX: \(String(repeating: "v", count: 9000))\r\n\r\n",
    ]
    for first in closing {
      for _ in 0..<10 {
        let answer = try await exchange(port, first + hidden + hidden)
        #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "\(answer.prefix(300))")
        #expect(answer.contains("connection: close") || answer.contains("Connection: close"))
      }
    }
    #expect(reports.calls == 0)
    let answer = try await exchange(
      port,
      "GET /faq/tags/ HTTP/1.1\r\nHost: localhost\r\n\r\n"
        + Self.reportRequest("seen", close: false)
        + Self.version)
    let statuses = answer.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
    #expect(statuses == ["200", "201", "200"], "\(answer.prefix(300))")
    #expect(reports.calls == 1)
  }
}

final class AnswerCount: Sendable {
  let value = Atomic<Int>(0)
}

/// A report sink that says when it is called, then stores through `store`.
final class SignallingReports: ReportSink {
  let store: any ReportSink
  private let called = AsyncStream<Void>.makeStream()
  private let count = Atomic<Int>(0)

  init(_ store: any ReportSink) { self.store = store }

  var calls: Int { count.load(ordering: .sequentiallyConsistent) }

  func record(itemID: Int64, description: String) async throws -> Int {
    count.add(1, ordering: .sequentiallyConsistent)
    called.continuation.yield()
    return try await store.record(itemID: itemID, description: description)
  }

  /// Returns once `record` was called `calls` times.
  func waitForCalls(_ calls: Int) async {
    var signs = called.stream.makeAsyncIterator()
    for _ in 0..<calls { _ = await signs.next() }
  }
}
