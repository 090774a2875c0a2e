import Foundation

/// What `migrant-chat serve` answers, independent of the HTTP server.
///
/// The Rasa REST channel (`/webhooks/rest/webhook`, `/webhooks/myrest/webhook`,
/// health checks, `/version`) answered by the offline assistant, and the data
/// API (`/contacts/`, `/faq/tags/`, `/faq/items/`, `/data-version`,
/// `POST /faq/reports/`) answered from the cache. Paths match with or without
/// a trailing slash; errors are JSON objects with an `error` string.
public struct AssistantService: Sendable {
  public struct Response: Sendable, Hashable {
    public var status: Int
    public var contentType: String
    public var body: Data
    /// `Retry-After` seconds (a 429).
    public var retryAfter: Int? = nil
    /// `Allow` (a 405).
    public var allow: String? = nil

    public static func json(_ value: JSONValue, status: Int = 200) -> Response {
      Response(
        status: status, contentType: "application/json",
        body: Data(utf8Of: value.compactText + "\n"))
    }

    public static func error(_ status: Int, _ message: String) -> Response {
      json(.object(["error": .string(message)]), status: status)
    }
  }

  public let assistant: OfflineAssistant
  public let contacts: any ContactStore
  /// The guidance as loaded at start: what the assistant walks and `/faq/*` publish.
  public let tree: GuidanceTree
  public let guidanceStore: (any GuidanceStore)?
  public let reports: any ReportSink
  public let version: String
  /// Reports a client may send: a burst, then one every few seconds.
  let reportLimit: RateLimit
  /// `/contacts/`'s answer, rebuilt only when the directory changes.
  let contactsPayload = ContactsPayloadCache()

  public init(
    tree: GuidanceTree, contacts: any ContactStore, guidanceStore: (any GuidanceStore)?,
    reports: any ReportSink, version: String, stemmer: any WordStemmer,
    maxConversations: Int = OfflineAssistant.defaultMaxConversations,
    reportBurst: Int = 20, reportInterval: Double = 3,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.tree = tree
    self.assistant = OfflineAssistant(
      tree: tree, stemmer: stemmer, maxConversations: maxConversations)
    self.contacts = contacts
    self.guidanceStore = guidanceStore
    self.reports = reports
    self.version = version
    self.reportLimit = RateLimit(burst: reportBurst, every: reportInterval, now: now)
  }

  public static let webhookChannels = ["rest", "myrest"]

  /// `contentType`: the request's `Content-Type`; `client`: its address (for the
  /// reports' rate limit).
  ///
  /// `HEAD` is answered wherever `GET` is, with `GET`'s answer (RFC 9110 §9.3.2):
  /// the HTTP layer sends its headers without the body.
  public func handle(
    method: String, path: String, query: [String: String], body: Data,
    contentType: String? = nil, client: String? = nil
  ) async -> Response {
    var route = path
    while route.count > 1 && route.hasSuffix("/") { route.removeLast() }
    let parts = route.split(separator: "/").map(String.init)
    let method = method == "HEAD" && !Self.takesPostOnly(parts) ? "GET" : method
    switch (method, parts) {
    case ("POST", let parts)
    where parts.count == 3 && parts[0] == "webhooks" && parts[2] == "webhook"
      && Self.webhookChannels.contains(parts[1]):
      return await webhook(body: body, stream: query["stream"]?.lowercased() == "true")
    case ("GET", let parts)
    where parts.count == 2 && parts[0] == "webhooks" && Self.webhookChannels.contains(parts[1]):
      return .json(.object(["status": .string("ok")]))
    case ("GET", ["version"]):
      return .json(
        .object([
          "version": .string(version), "minimum_compatible_version": .string(version),
          "server": .string("migrant-chat"),
        ]))
    case ("GET", ["contacts"]):
      do {
        return Response(
          status: 200, contentType: "application/json",
          body: try await contactsPayload.body(of: contacts))
      } catch {
        return .error(500, "the contact cache cannot be read")
      }
    case ("GET", ["faq", "tags"]):
      return Response(
        status: 200, contentType: "application/json", body: DataAPIPayload.faqTags(tree.tags))
    case ("GET", ["faq", "items"]):
      let items = tree.items.values.sorted { $0.id < $1.id }
      return Response(
        status: 200, contentType: "application/json", body: DataAPIPayload.faqItems(items))
    case ("GET", ["data-version"]):
      return dataVersion(since: query["fromTimestamp"].flatMap(Double.init))
    case ("POST", ["faq", "reports"]):
      return await report(body, contentType: contentType, client: client)
    case (_, let parts) where knownPath(parts):
      var refused = Response.error(405, "method \(method) is not allowed here")
      refused.allow = Self.allowed(parts)
      return refused
    case (let method, _) where !Self.knownMethods.contains(method):
      var refused = Response.error(405, "method \(method) is not allowed here")
      refused.allow = "GET, HEAD, POST"
      return refused
    default:
      return .error(404, "no such endpoint")
    }
  }

  static let knownMethods: Set<String> = [
    "GET", "POST", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS",
  ]

  /// The methods a known path takes, for `Allow`.
  static func allowed(_ parts: [String]) -> String {
    takesPostOnly(parts) ? "POST" : "GET, HEAD"
  }

  /// Paths that are posted to; every other known path is read with `GET` (or `HEAD`).
  static func takesPostOnly(_ parts: [String]) -> Bool {
    parts == ["faq", "reports"] || (parts.first == "webhooks" && parts.last == "webhook")
  }

  private func knownPath(_ parts: [String]) -> Bool {
    [
      ["version"], ["contacts"], ["faq", "tags"], ["faq", "items"], ["data-version"],
      ["faq", "reports"],
    ]
    .contains(parts) || parts.first == "webhooks"
  }

  private func webhook(body: Data, stream: Bool) async -> Response {
    let request: WebhookRequest
    do {
      request = try WebhookRequest(body: body)
    } catch {
      return .error(400, error.reason)
    }
    let messages = await assistant.respond(
      sender: request.sender, message: request.message, language: request.language)
    guard stream else { return .json(.array(messages)) }
    // Rasa's `?stream=true`: one message a line, as they are produced.
    let lines = messages.map { $0.compactText + "\n" }.joined()
    return Response(status: 200, contentType: "text/event-stream", body: Data(utf8Of: lines))
  }

  /// Tables changed after `since`: the sample counts as older than any sync.
  private func dataVersion(since: Double?) -> Response {
    func time(_ source: DirectorySource?) -> Double {
      if case .dataAPI(_, let syncedAt)? = source { return syncedAt.timeIntervalSince1970 }
      return 0
    }
    var times = ["contacts": time(try? contacts.status().source)]
    for table in DirectorySync.guidanceTables {
      times[table] = time(try? guidanceStore?.guidanceSource(table))
    }
    let changed = times.filter { since == nil || $0.value > since ?? 0 }.keys.sorted()
    return .json(.array(changed.map { .string($0) }))
  }

  /// The longest description `POST /faq/reports/` takes, in UTF-8 bytes.
  public static let maxReportBytes = 4096

  private func report(_ body: Data, contentType: String?, client: String?) async -> Response {
    // JSON only: a web page can send a "simple" cross-site POST (text/plain, a form)
    // without asking first, never `application/json`.
    let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
    guard type?.lowercased() == "application/json" else {
      return .error(415, "reports are JSON: send Content-Type: application/json")
    }
    if let wait = reportLimit.wait(client: client ?? "?") {
      var refused = Response.error(429, "too many reports from this address; try again later")
      refused.retryAfter = wait
      return refused
    }
    guard case .object(let fields)? = try? BotReplyDecoder.parse(body),
      let itemID = ItemsPayloadDecoder.id(fields["itemId"]),
      case .string(let description)? = fields["description"],
      !description.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    else {
      return .error(400, "expected {\"itemId\": <id>, \"description\": \"<what is wrong>\"}")
    }
    guard description.utf8.count <= Self.maxReportBytes else {
      return .error(413, "the description is longer than \(Self.maxReportBytes) bytes")
    }
    guard tree.items[itemID] != nil else { return .error(404, "no guide \(itemID)") }
    do {
      let id = try await reports.record(itemID: itemID, description: description)
      return .json(
        .object([
          "id": .number(Double(id)), "itemId": .number(Double(itemID)),
          "description": .string(description),
        ]), status: 201)
    } catch {
      return .error(500, "the report could not be saved")
    }
  }
}

/// Where `POST /faq/reports/` keeps what users report.
public protocol ReportSink: Sendable {
  /// Stores a report; returns its number.
  ///
  /// An implementation that can block (a file lock, a database another process
  /// holds) does so on a thread of its own, never on the caller's executor: the
  /// caller is a request handler sharing its threads with every other request.
  func record(itemID: Int64, description: String) async throws -> Int
}
