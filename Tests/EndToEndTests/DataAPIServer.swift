import Foundation
import Synchronization
import TestSupport

/// A loopback data API whose contacts table and change list the test sets.
final class DataAPIServer: Sendable {
  let server: LoopbackHTTPServer

  fileprivate struct State: Sendable {
    var contacts: ScriptedResponse = .json(#"{"items":[]}"#)
    var changed: [String] = []
    var faqTags: ScriptedResponse = .json(#"{"items":[]}"#)
    var faqItems: ScriptedResponse = .json(#"{"items":[]}"#)
    /// Answers used once each before `contacts`, to script failures.
    var before: [ScriptedResponse] = []
    /// `POST /faq/reports/`: each answer used once, the last one kept.
    var reports: [ScriptedResponse] = [.json("{}", status: 201)]
  }

  init() throws {
    let box = StateBox()
    server = try LoopbackHTTPServer { request in box.answer(request) }
    self.box = box
  }

  private let box: StateBox

  deinit { server.stop() }

  var baseURL: String { server.baseURL }
  var requests: [RecordedRequest] { server.requests }
  var contactFetches: Int { requests.filter { $0.path == "/contacts/" }.count }

  func setContacts(_ items: [String]) {
    let body = #"{"items":["# + items.joined(separator: ",") + "]}"
    box.state.withLock { $0.contacts = .json(body) }
  }

  func setContacts(_ response: ScriptedResponse) {
    box.state.withLock { $0.contacts = response }
  }

  func setGuidance(tags: String, items: String) {
    box.state.withLock {
      $0.faqTags = .json(tags)
      $0.faqItems = .json(items)
    }
  }

  /// Answers to `POST /faq/reports/`, in order; the last one repeats.
  func setReportAnswers(_ answers: [ScriptedResponse]) {
    box.state.withLock { $0.reports = answers }
  }

  /// The reports posted so far, as JSON objects.
  var postedReports: [[String: Any]] {
    requests.filter { $0.path == "/faq/reports/" && $0.method == "POST" }.compactMap(\.bodyJSON)
  }

  func setChanged(_ tables: [String]) { box.state.withLock { $0.changed = tables } }

  func failFirst(_ responses: [ScriptedResponse]) { box.state.withLock { $0.before = responses } }

}

private final class StateBox: Sendable {
  let state = Mutex(DataAPIServer.State())

  func answer(_ request: RecordedRequest) -> ScriptedResponse {
    state.withLock { state in
      switch request.path {
      case "/data-version":
        return .json("[" + state.changed.map { "\"\($0)\"" }.joined(separator: ",") + "]")
      case "/faq/tags/":
        return state.faqTags
      case "/faq/items/":
        return state.faqItems
      case "/contacts/":
        if !state.before.isEmpty { return state.before.removeFirst() }
        return state.contacts
      case "/faq/reports/":
        return state.reports.count > 1 ? state.reports.removeFirst() : state.reports[0]
      default:
        return .http(status: 404, body: Data("Not Found".utf8))
      }
    }
  }
}

extension DataAPIServer {
  /// A contact object as the data API sends it.
  static func contact(_ id: Int, _ name: String, city: String = "Brno", ru: String? = nil) -> String
  {
    let localized = ru.map { #","localizedAttributes":{"ru":{"name":"\#($0)"}}"# } ?? ""
    return #"{"id":\#(id),"name":"\#(name)","city":"\#(city)","phone":"+420 5\#(id)"\#(localized)}"#
  }
}

/// Runs `migrant-chat contacts ...` in `home`.
func contacts(
  _ arguments: [String], home: TemporaryDirectory, environment: [String: String] = [:]
) throws -> ProcessResult {
  try ProcessRunner.run(
    ProcessRunner.binaryPath, ["contacts"] + arguments, environment: home.environment(environment))
}
