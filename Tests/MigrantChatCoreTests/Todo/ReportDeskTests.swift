import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct ReportDeskTests {
  let queue = MemoryReportQueue()

  @Test func a201RemovesTheReportFromTheQueue() async throws {
    let api = ScriptedReportAPI([.status(201)])
    let outcome = await ReportDesk(queue: queue, api: api).submit(itemID: 30, text: "Wrong fee")
    #expect(outcome == .sent(itemID: 30))
    #expect(try queue.pending().isEmpty)
    let body = try #require(api.posted.withLock { $0.first })
    let json = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
    #expect(json?["itemId"] as? Int == 30)
    #expect(json?["description"] as? String == "Wrong fee")
  }

  @Test func anAPIThatIsDownOrFailingKeepsTheReportForTheNextFlush() async throws {
    let api = ScriptedReportAPI([.down, .status(500), .status(201)])
    let desk = ReportDesk(queue: queue, api: api)
    guard case .queued(30, .failed(.unreachable)) = await desk.submit(itemID: 30, text: "A") else {
      Issue.record("not queued")
      return
    }
    #expect(try queue.pending().map(\.text) == ["A"])
    // 500: still waiting, with the reason kept; then 201: gone.
    #expect(
      await desk.flush().map(\.1) == [
        .queued(
          itemID: 30,
          reason: .failed(
            .httpStatus(server: api.baseURL, status: 500, firstLine: "bad request", retryAfter: nil)
          ))
      ])
    #expect(try queue.pending().first?.lastError?.contains("500") == true)
    #expect(try queue.pending().first?.refused == false)
    #expect(await desk.flush().map(\.1) == [.sent(itemID: 30)])
    #expect(try queue.pending().isEmpty)
  }

  @Test func a400IsKeptAsRefusedAndOnlyRetriedWhenAsked() async throws {
    let api = ScriptedReportAPI([.status(400), .status(201)])
    let desk = ReportDesk(queue: queue, api: api)
    #expect(
      await desk.submit(itemID: 7, text: "x")
        == .refused(itemID: 7, status: 400, body: "bad request"))
    #expect(try queue.pending().first?.refused == true)
    // Not sent again by itself: the same report would be refused again.
    #expect(await desk.flush().isEmpty)
    #expect(api.posted.withLock { $0.count } == 1)
    #expect(await desk.flush(includingRefused: true).map(\.1) == [.sent(itemID: 7)])
    #expect(try queue.pending().isEmpty)
  }

  @Test func aFlushStopsAtTheFirstNetworkFailure() async throws {
    let desk = ReportDesk(queue: queue, api: ScriptedReportAPI([.down]))
    for number in 1...3 { _ = try queue.enqueue(itemID: Int64(number), text: "r", now: Date()) }
    #expect(await desk.flush().count == 1)
    #expect(try queue.pending().count == 3)
  }

  /// A chat's background flush beside a report being sent: the new report is
  /// claimed as it is stored, so the flush does not post it a second time.
  @Test func aFlushBesideASubmitLeavesTheNewReportAlone() async throws {
    let api = ScriptedReportAPI([.status(201)], delay: .milliseconds(50))
    let desk = ReportDesk(queue: queue, api: api)
    async let submitted = desk.submit(itemID: 5, text: "new")
    try await Task.sleep(for: .milliseconds(10))
    let flushed = await desk.flush()
    #expect(await submitted == .sent(itemID: 5))
    #expect(flushed.isEmpty)
    #expect(api.posted.withLock { $0.count } == 1)
  }

  @Test func withoutADataAPIReportsWait() async throws {
    let outcome = await ReportDesk(queue: queue, api: nil).submit(itemID: 1, text: "t")
    #expect(outcome == .queued(itemID: 1, reason: .noDataAPI))
    #expect(try queue.pending().count == 1)
  }

  /// A full disk: not stored; sent when the API answers, else the text is given back.
  @Test func aReportThatCannotBeStoredIsSentOrGivenBack() async throws {
    queue.failure.withLock { $0 = .storage(detail: "database or disk is full") }
    let sent = await ReportDesk(queue: queue, api: ScriptedReportAPI([.status(201)]))
      .submit(itemID: 1, text: "kept")
    #expect(sent == .sent(itemID: 1))
    let lost = await ReportDesk(queue: queue, api: ScriptedReportAPI([.down]))
      .submit(itemID: 1, text: "kept")
    #expect(lost == .notSaved(itemID: 1, text: "kept", detail: "database or disk is full"))
    let rendered = Renderer(width: 80, color: false, language: .uk).render(
      .report(.outcome(lost, guideTitle: "Житло")))
    #expect(rendered.stderr.contains("kept"))
    #expect(rendered.stderr.contains("database or disk is full"))
  }
}
