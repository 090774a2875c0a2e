import Foundation
import Synchronization
import Testing

@testable import MigrantChatCore

final class MemoryReports: ReportSink {
  let stored = Mutex<[(Int64, String)]>([])
  func record(itemID: Int64, description: String) throws -> Int {
    stored.withLock {
      $0.append((itemID, description))
      return $0.count
    }
  }
}

@Suite struct AssistantServiceTests {
  let store = MemoryContactStore()
  let reports = MemoryReports()

  func service() throws -> AssistantService {
    try store.replaceContacts(SampleDirectory.contacts(), source: .sample)
    return AssistantService(
      tree: SampleGuidance.tree(), contacts: store, guidanceStore: nil, reports: reports,
      version: "0.1.0", stemmer: LightStemmer(), maxConversations: 10)
  }

  func json(_ response: AssistantService.Response) -> Any? {
    try? JSONSerialization.jsonObject(with: response.body)
  }

  @Test func webhookAnswersWithRasasShape() async throws {
    let service = try service()
    for channel in ["rest", "myrest"] {
      let response = await service.handle(
        method: "POST", path: "/webhooks/\(channel)/webhook", query: [:],
        body: Data(#"{"sender":"u1","message":"/start","metadata":{"language":"ru"}}"#.utf8))
      #expect(response.status == 200)
      #expect(response.contentType == "application/json")
      let messages = try #require(json(response) as? [[String: Any]])
      #expect(messages.count == 2)
      for message in messages {
        #expect(Set(message.keys).isSubset(of: ["recipient_id", "text", "buttons", "custom"]))
        #expect(message["recipient_id"] as? String == "u1")
      }
      let buttons = try #require(messages[1]["buttons"] as? [[String: String]])
      #expect(buttons[0] == ["title": "Вид на жительство", "payload": #"/faq_tag{"id":1}"#])
    }
  }

  @Test func languageFromMetadataThenTopLevelThenEnglish() async throws {
    let service = try service()
    func greeting(_ body: String) async -> String? {
      let response = await service.handle(
        method: "POST", path: "/webhooks/rest/webhook", query: [:], body: Data(body.utf8))
      return ((json(response) as? [[String: Any]])?.last?["text"]) as? String
    }
    #expect(await greeting(#"{"message":"/start","language":"uk"}"#) == "З чим вам допомогти?")
    #expect(
      await greeting(#"{"message":"/start","language":"uk","metadata":{"language":"ru"}}"#)
        == "С чем вам помочь?")
    #expect(
      await greeting(#"{"message":"/start","language":"xx"}"#) == "What do you need help with?")
  }

  @Test func streamIsOneMessageALine() async throws {
    let response = try await service().handle(
      method: "POST", path: "/webhooks/rest/webhook/", query: ["stream": "true"],
      body: Data(#"{"sender":"s","message":"/start"}"#.utf8))
    let lines = String(decoding: response.body, as: UTF8.self).split(separator: "\n")
    #expect(lines.count == 2)
    #expect(
      lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) is [String: Any] }
    )
  }

  @Test(arguments: [
    ("not json", "the body is not JSON"),
    ("[1]", "the body is not a JSON object"),
    (#"{"sender":"x"}"#, "'message' must be a string"),
    (#"{"message":5}"#, "'message' must be a string"),
  ])
  func badWebhookBodiesGet400WithAJSONError(body: String, reason: String) async throws {
    let response = try await service().handle(
      method: "POST", path: "/webhooks/rest/webhook", query: [:], body: Data(body.utf8))
    #expect(response.status == 400)
    #expect((json(response) as? [String: String]) == ["error": reason])
  }

  @Test func healthVersionAndUnknownPaths() async throws {
    let service = try service()
    let health = await service.handle(
      method: "GET", path: "/webhooks/rest/", query: [:], body: Data())
    #expect((json(health) as? [String: String]) == ["status": "ok"])
    let version = await service.handle(method: "GET", path: "/version", query: [:], body: Data())
    #expect((json(version) as? [String: String])?["version"] == "0.1.0")
    #expect(
      await service.handle(method: "GET", path: "/nope", query: [:], body: Data()).status == 404)
    #expect(
      await service.handle(method: "DELETE", path: "/contacts/", query: [:], body: Data()).status
        == 405)
    #expect(
      await service.handle(method: "GET", path: "/webhooks/rest/webhook", query: [:], body: Data())
        .status == 405)
  }

  @Test func dataAPITablesRoundTripThroughTheClientDecoder() async throws {
    let service = try service()
    let contacts = await service.handle(method: "GET", path: "/contacts/", query: [:], body: Data())
    let decoded = try ItemsPayloadDecoder.contacts(contacts.body)
    #expect(decoded.skipped == 0)
    #expect(Set(decoded.items) == Set(SampleDirectory.contacts()))
    let items = await service.handle(
      method: "GET", path: "/faq/items/", query: ["nested": "0"], body: Data())
    let faq = try ItemsPayloadDecoder.faqItems(items.body)
    #expect(faq.skipped == 0)
    #expect(Set(faq.items) == Set(SampleGuidance.tree().items.values))
    let tags = await service.handle(method: "GET", path: "/faq/tags", query: [:], body: Data())
    #expect(try ItemsPayloadDecoder.faqTags(tags.body).items == SampleGuidance.tree().tags)
  }

  @Test func dataVersionListsTablesNewerThanTheTimestamp() async throws {
    let service = try service()
    let all = await service.handle(method: "GET", path: "/data-version", query: [:], body: Data())
    #expect((json(all) as? [String]) == ["contacts", "faq_items", "faq_tags"])
    let none = await service.handle(
      method: "GET", path: "/data-version", query: ["fromTimestamp": "1"], body: Data())
    #expect((json(none) as? [String]) == [])
    try store.replaceContacts(
      [], source: .dataAPI(url: "http://up", syncedAt: Date(timeIntervalSince1970: 100)))
    let changed = await service.handle(
      method: "GET", path: "/data-version", query: ["fromTimestamp": "50"], body: Data())
    #expect((json(changed) as? [String]) == ["contacts"])
  }

  func report(
    _ service: AssistantService, _ body: String, type: String? = "application/json",
    client: String = "10.0.0.1"
  ) async -> AssistantService.Response {
    await service.handle(
      method: "POST", path: "/faq/reports/", query: [:], body: Data(body.utf8),
      contentType: type, client: client)
  }

  @Test func reports() async throws {
    let service = try service()
    let created = await report(service, #"{"itemId":"10","description":"The fee changed."}"#)
    #expect(created.status == 201)
    #expect(reports.stored.withLock { $0.map(\.0) } == [10])
    for body in [
      #"{"itemId":10}"#, #"{"description":"x"}"#, "junk", #"{"itemId":10,"description":"  "}"#,
    ] {
      #expect(await report(service, body).status == 400, "\(body)")
    }
    let unknown = await report(service, #"{"itemId":999,"description":"x"}"#)
    #expect(unknown.status == 404)
    #expect(reports.stored.withLock { $0.count } == 1)
  }

  /// What a web page could send without asking (text/plain, a form, no type) is
  /// refused; so is a description past 4 KiB.
  @Test func reportsAreJSONOfAFewKilobytes() async throws {
    let service = try service()
    let body = #"{"itemId":10,"description":"x"}"#
    for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", nil] {
      #expect(await report(service, body, type: type).status == 415, "\(type ?? "none")")
    }
    #expect(await report(service, body, type: "application/json; charset=utf-8").status == 201)
    let long = String(repeating: "ж", count: 2049)  // 4098 bytes
    let tooLong = await report(service, #"{"itemId":10,"description":"\#(long)"}"#)
    #expect(tooLong.status == 413)
    #expect(reports.stored.withLock { $0.count } == 1)
  }

  /// A client gets a burst, then 429 with Retry-After; another client is not held up,
  /// and time gives the first its turn back.
  @Test func reportsAreLimitedPerClient() async throws {
    let clock = Mutex(Date(timeIntervalSince1970: 1_000))
    let service = AssistantService(
      tree: SampleGuidance.tree(), contacts: store, guidanceStore: nil,
      reports: reports, version: "t", stemmer: LightStemmer(), reportBurst: 3,
      reportInterval: 10, now: { clock.withLock { $0 } })
    let body = #"{"itemId":10,"description":"x"}"#
    for _ in 0..<3 { #expect(await report(service, body).status == 201) }
    let limited = await report(service, body)
    #expect(limited.status == 429 && limited.retryAfter == 10)
    #expect(await report(service, body, client: "10.0.0.2").status == 201)
    clock.withLock { $0 += 10 }
    #expect(await report(service, body).status == 201)
    #expect(await report(service, body).status == 429)
  }

  /// 405 with a JSON body and `Allow`, for a known path and for a method nobody takes.
  @Test func wrongMethodsAre405WithJSON() async throws {
    let service = try service()
    let get = await service.handle(method: "GET", path: "/faq/reports/", query: [:], body: Data())
    #expect(get.status == 405 && get.allow == "POST" && get.contentType == "application/json")
    let odd = await service.handle(method: "BREW", path: "/nothing", query: [:], body: Data())
    #expect(odd.status == 405 && odd.allow == "GET, HEAD, POST")
  }
}
