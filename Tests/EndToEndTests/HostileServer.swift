import Foundation
import TestSupport

/// One row of the hostile-server table of docs/reliability.md: what a server does, and
/// what the user must get for it.
///
/// The table names every row by its `id` in backticks;
/// `HostileServerEndToEndTests.theReadmeHasARowForEveryScenario` keeps the two in step.
struct HostileRow: Sendable, CustomStringConvertible {
  var id: String
  var answer: ScriptedResponse
  /// Exit status in a pipe.
  var status: Int32
  /// What the user reads (stdout and stderr), in English and in Ukrainian.
  var en: [String]
  var uk: [String]
  /// What must not appear anywhere in the output.
  var never: [String] = []
  var description: String { id }
}

/// Bytes that must never reach a terminal from a server: C0 controls other
/// than newline, DEL, C1 controls, and bidi embeddings, overrides and isolates.
func terminalControls(in text: String) -> [String] {
  text.unicodeScalars.filter { scalar in
    let value = scalar.value
    return (value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(value)
      || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
  }.map { String(format: "U+%04X", $0.value) }
}

/// A JSON body with every kind of dangerous character in every string a bot can send.
let hostileCharacters =
  #"\u001b]0;owned\u0007\u001b[2J\u009b31m\u202e\u2066\u0000\u001bP+q\u001b\\\u0085\u007f"#

private func raw(_ head: String, _ body: String) -> ScriptedResponse {
  .raw(Data((head.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n").utf8) + Data(body.utf8))
}

/// Answers of the chatbot, one per message.
enum HostileBot {
  static let rows: [HostileRow] = [
    HostileRow(
      id: "slow", answer: .delayed(seconds: 4, then: ResponseBox(.json(#"[{"text":"late"}]"#))),
      status: 1, en: ["did not answer within 1 seconds", "--timeout"], uk: ["не відповів за 1 с"]),
    HostileRow(
      id: "cut-body",
      answer: raw(
        "HTTP/1.1 200 OK\nContent-Type: application/json\nContent-Length: 400\n",
        #"[{"text":"the first half of an answer"#),
      status: 1, en: ["broke off before its end", "Try again"], uk: ["обірвалася"],
      never: ["first half"]),
    HostileRow(
      id: "reset", answer: .reset, status: 1,
      en: ["closed the connection without answering", "was not sent again"],
      uk: ["закрив з'єднання, не відповівши"]),
    HostileRow(
      id: "500-html",
      answer: .http(
        status: 500, headers: ["Content-Type": "text/html"],
        body: Data(
          "<!DOCTYPE html><html><head><title>Oops \u{1B}[31m500</title></head><body><pre>Traceback</pre></body></html>"
            .utf8)),
      status: 1, en: ["failed with HTTP status 500 (Oops 500)", "try again later"],
      uk: ["видав помилку, HTTP-статус 500"], never: ["Traceback", "<html"]),
    HostileRow(
      id: "404", answer: .http(status: 404, body: Data("Not Found".utf8)), status: 1,
      en: ["has no webhook at this address (HTTP 404)", "--webhook-path"],
      uk: ["немає вебхука за цією адресою"]),
    HostileRow(
      id: "429", answer: .http(status: 429, headers: ["Retry-After": "7"]), status: 1,
      en: ["is busy (HTTP 429) and asks you to wait 7 seconds", "was not sent again"],
      uk: ["перевантажений (HTTP 429) і просить зачекати 7 с"]),
    HostileRow(
      id: "not-json",
      answer: .http(
        status: 200, headers: ["Content-Type": "text/html"], body: Data("<html>hi</html>".utf8)),
      status: 1, en: ["did not answer with JSON", "--webhook-path"], uk: ["не у форматі JSON"]),
    HostileRow(
      id: "object", answer: .json(#"{"text":"not a list"}"#), status: 1,
      en: ["JSON object instead of a list of messages"], uk: ["JSON-object замість списку"]),
    HostileRow(
      id: "wrong-types",
      answer: .json(
        #"[{"text":"typed","buttons":"nope"},{"text":"numbers","buttons":[{"title":42,"payload":7}]},{"custom":{"contacts":[138503.0,1.5,"x"]}},{"text":["a"]}]"#
      ),
      status: 0,
      en: [
        "[1] 42", "Centre for Foreigners", "could not be shown",
        "'buttons' should be array, got string",
      ],
      uk: ["[1] 42", "не вдалося показати"]),
    HostileRow(
      id: "too-large",
      answer: .http(status: 200, body: Data(repeating: UInt8(ascii: " "), count: 9 * 1024 * 1024)),
      status: 1, en: ["larger than 8 MiB; it was not shown"], uk: ["більшу за 8 МіБ"]),
    HostileRow(
      id: "announced-too-large",
      answer: raw("HTTP/1.1 200 OK\nContent-Length: 1000000000\n", "[{"),
      status: 1, en: ["larger than 8 MiB; it was not shown"], uk: ["більшу за 8 МіБ"]),
    HostileRow(
      id: "invalid-utf8",
      answer: .http(
        status: 200, headers: ["Content-Type": "application/json"],
        body: Data(#"[{"text":"caf"#.utf8) + Data([0xFF, 0xC3, 0x28]) + Data(#" ok"}]"#.utf8)),
      status: 0, en: ["caf\u{FFFD}\u{FFFD}( ok"], uk: ["caf\u{FFFD}\u{FFFD}( ok"]),
    HostileRow(
      id: "deep-json",
      answer: .json(
        String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)),
      status: 1, en: ["did not answer with JSON"], uk: ["не у форматі JSON"]),
    HostileRow(
      id: "deep-custom",
      answer: .json(
        #"[{"text":"shallow","custom":"# + String(repeating: #"{"a":"#, count: 100_000) + "1"
          + String(repeating: "}", count: 100_000) + "}]"),
      status: 1, en: ["did not answer with JSON"], uk: ["не у форматі JSON"]),
    HostileRow(
      id: "control-characters",
      answer: .json(
        #"[{"text":"a\#(hostileCharacters)b","buttons":[{"title":"t\#(hostileCharacters)t","payload":"/p"},{"title":"link","url":"https://x.example/\#(hostileCharacters)"}],"image":"https://x.example/i\#(hostileCharacters).png"},{"custom":{"note":"n\#(hostileCharacters)n","contacts":[138503]}}]"#
      ),
      status: 0, en: ["ab", "[1] tt", "link https://x.example/\n", "Centre for Foreigners"],
      uk: ["ab", "[1] tt"], never: ["owned", "+q"]),
    HostileRow(
      id: "redirect-file", answer: .redirect(to: "file:///etc/passwd"), status: 1,
      en: ["not http or https; the redirect was refused"], uk: ["переспрямування відхилено"],
      never: ["root:"]),
    HostileRow(
      id: "redirect-gopher", answer: .redirect(to: "gopher://127.0.0.1:70/1"), status: 1,
      en: ["not http or https; the redirect was refused"], uk: ["переспрямування відхилено"]),
    HostileRow(
      id: "redirect-loop", answer: .redirect(to: "/webhooks/rest/webhook?again"), status: 1,
      en: ["redirected more than 3 times; gave up"], uk: ["понад 3 разів"]),
  ]

  /// A bot that answers `/start` and echoes anything else, except the rows' ids.
  static func make() throws -> LoopbackHTTPServer {
    let answers = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0.answer) })
    return try LoopbackHTTPServer { request in
      // A redirect comes back without a body: it continues the last row asked for.
      if request.target.hasSuffix("?again") { return .redirect(to: "/webhooks/rest/webhook?again") }
      let body = request.bodyJSON ?? [:]
      let message = body["message"] as? String ?? ""
      let language = body["language"] as? String ?? "?"
      if let answer = answers[message] { return answer }
      return .json(#"[{"text":"echo: \#(message) (\#(language))"}]"#)
    }
  }
}

/// A data API whose one table (`/contacts/` or `/faq/items/`) answers a row's
/// scenario while the others answer well.
enum HostileDataAPI {
  enum Table: String, Sendable, CaseIterable, CustomStringConvertible {
    case contacts = "/contacts/"
    case faqItems = "/faq/items/"
    var name: String { self == .contacts ? "contacts" : "faq_items" }
    var description: String { name }
  }

  struct Case: Sendable, CustomStringConvertible {
    var table: Table
    var row: HostileRow
    /// Whether the table is replaced (the row's answer is usable).
    var replaces: Bool { row.status == 0 }
    var description: String { "\(table.name) \(row.id)" }
  }

  /// A good answer for a table, with `item` inside the list.
  private static func items(_ table: Table, _ item: String) -> String {
    switch table {
    case .contacts:
      #"{"items":[\#(keptOffice),{"id":2,"name":"New Office","city":"Brno"},"# + item + "]}"
    case .faqItems:
      #"{"items":[{"id":20,"title":"New guide","tags":[1],"text":"<p>new</p>"},"# + item + "]}"
    }
  }

  /// The favourite's office, in every contacts table.
  static let keptOffice = #"{"id":1,"name":"Kept Office","city":"Brno"}"#

  private static func item(_ table: Table, id: Int, _ fields: String) -> String {
    table == .contacts
      ? #"{"id":\#(id),"city":"Brno",\#(fields)}"# : #"{"id":\#(id),"tags":[1],\#(fields)}"#
  }

  private static func name(_ table: Table) -> String { table == .contacts ? "name" : "title" }

  static func rows(_ table: Table) -> [HostileRow] {
    let kept = "The cached directory was kept."
    let keptUK = "Збережена копія довідника не змінилася."
    let offline = "is offline"
    let offlineUK = "недоступний"
    let key = name(table)
    return [
      HostileRow(
        id: "slow", answer: .delayed(seconds: 3, then: ResponseBox(.json(#"{"items":[]}"#))),
        status: 1, en: [offline, "(no answer within 1 seconds)"],
        uk: ["немає відповіді протягом 1 с"]),
      HostileRow(
        id: "cut-body",
        answer: raw("HTTP/1.1 200 OK\nContent-Length: 4000\n", #"{"items":[{"id":3,"#),
        status: 1, en: [offline, "(the answer broke off before its end)"], uk: ["обірвалася"]),
      HostileRow(
        id: "reset", answer: .reset, status: 1,
        en: [offline, "(the connection closed without an answer)"],
        uk: [offlineUK, "закрилося без відповіді"]),
      HostileRow(
        id: "500-html",
        answer: .http(
          status: 500, headers: ["Content-Type": "text/html"],
          body: Data("<html><head><title>Oops 500</title></head><body>Traceback</body></html>".utf8)
        ),
        status: 1, en: ["answered with HTTP status 500 (Oops 500)", kept],
        uk: ["HTTP-статусом 500 (Oops 500)", keptUK], never: ["Traceback"]),
      HostileRow(
        id: "404", answer: .http(status: 404, body: Data("Not Found".utf8)), status: 1,
        en: ["answered with HTTP status 404 (Not Found)", kept], uk: ["HTTP-статусом 404", keptUK]),
      HostileRow(
        id: "429", answer: .http(status: 429, headers: ["Retry-After": "1"]), status: 1,
        en: ["answered with HTTP status 429", kept], uk: ["HTTP-статусом 429", keptUK]),
      HostileRow(
        id: "not-json", answer: .http(status: 200, body: Data("<html>hi</html>".utf8)), status: 1,
        en: ["sent an unusable '\(table.name)' table: it is not JSON", kept],
        uk: ["непридатну таблицю «\(table.name)»: це не JSON", keptUK]),
      HostileRow(
        id: "array", answer: .json("[" + item(table, id: 3, #""\#(key)":"x""#) + "]"), status: 1,
        en: ["it is a JSON array, not an object with an 'items' list", kept],
        uk: ["це JSON-array, а не об'єкт зі списком «items»", keptUK]),
      HostileRow(
        id: "wrong-types",
        answer: .json(
          items(
            table,
            [
              item(table, id: 3, #""\#(key)":"Float id""#).replacingOccurrences(
                of: #""id":3"#, with: #""id":3.0"#),
              item(table, id: 4, #""\#(key)":42"#),
              item(table, id: 5, #""\#(key)":"Half id""#).replacingOccurrences(
                of: #""id":5"#, with: #""id":5.5"#),
              #""items""#,
            ].joined(separator: ","))),
        status: 0, en: ["3 items were skipped"], uk: ["Пропущено 3 елементи"]),
      HostileRow(
        id: "announced-too-large",
        answer: raw("HTTP/1.1 200 OK\nContent-Length: 1000000000\n", #"{"items":["#),
        status: 1, en: ["sent more than 256 MiB", kept], uk: ["понад 256 МіБ", keptUK]),
      HostileRow(
        id: "invalid-utf8",
        answer: .http(
          status: 200,
          body: Data(#"{"items":[\#(keptOffice),{"id":3,"tags":[1],"\#(key)":"Caf"#.utf8)
            + Data([0xFF, 0xC3, 0x28])
            + Data(#" name"}]}"#.utf8)),
        status: 0, en: ["Directory updated"], uk: ["Довідник оновлено"]),
      HostileRow(
        id: "deep-json",
        answer: .json(
          #"{"items":"# + String(repeating: "[", count: 100_000)
            + String(repeating: "]", count: 100_000) + "}"),
        status: 1, en: ["it is not JSON", kept], uk: ["це не JSON", keptUK]),
      HostileRow(
        id: "control-characters",
        answer: .json(
          items(
            table,
            table == .contacts
              ? #"{"id":3,"name":"Evil\#(hostileCharacters)Office","city":"Br\#(hostileCharacters)no","street":"S\#(hostileCharacters)t","phone":"+420\#(hostileCharacters)1","email":"e\#(hostileCharacters)@x.example","web":"https://x.example/\#(hostileCharacters)","openingHours":"9\#(hostileCharacters)-17"}"#
              : #"{"id":3,"title":"Evil\#(hostileCharacters)Guide","tags":[1],"text":"<p>T\#(hostileCharacters)x</p>","warning":"W\#(hostileCharacters)","contacts":[2]}"#
          )),
        status: 0, en: ["Directory updated"], uk: ["Довідник оновлено"], never: ["owned", "+q"]),
      HostileRow(
        id: "redirect-file", answer: .redirect(to: "file:///etc/passwd"), status: 1,
        en: [offline, "(a redirect that is not allowed)"], uk: ["недопустиме переспрямування"],
        never: ["root:"]),
      HostileRow(
        id: "redirect-gopher", answer: .redirect(to: "gopher://127.0.0.1:70/1"), status: 1,
        en: [offline, "(a redirect that is not allowed)"], uk: ["недопустиме переспрямування"]),
      HostileRow(
        id: "redirect-loop", answer: .redirect(to: table.rawValue), status: 1,
        en: [offline, "(a redirect that is not allowed)"], uk: ["недопустиме переспрямування"]),
    ]
  }

  static let cases: [Case] = Table.allCases.flatMap { table in
    rows(table).map { Case(table: table, row: $0) }
  }

  /// The data API of the first, good sync: one office, one topic, one guide.
  static let keptTables: [String: ScriptedResponse] = [
    "/data-version": .json("[]"),
    "/contacts/": .json(
      #"{"items":[\#(keptOffice),{"id":9,"name":"Old Office","city":"Plzeň"}]}"#),
    "/faq/tags/": .json(#"{"items":[{"id":1,"name":"Kept topic"}]}"#),
    "/faq/items/": .json(
      #"{"items":[{"id":10,"title":"Old guide","tags":[1],"text":"<p>old</p>","contacts":[1]}]}"#),
  ]

  /// A data API where `table` answers `answer` and everything else is well.
  static func make(_ table: Table, _ answer: ScriptedResponse) throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer { request in
      switch request.path {
      case table.rawValue: answer
      case "/data-version": .json(#"["contacts","faq_tags","faq_items"]"#)
      case "/contacts/": .json(items(.contacts, #"{"id":6,"name":"Other Office"}"#))
      case "/faq/tags/": .json(#"{"items":[{"id":1,"name":"New topic"}]}"#)
      case "/faq/items/": .json(items(.faqItems, #"{"id":21,"title":"Other guide","tags":[1]}"#))
      default: .http(status: 404)
      }
    }
  }

  static func makeKept() throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer { request in keptTables[request.path] ?? .http(status: 404) }
  }
}
