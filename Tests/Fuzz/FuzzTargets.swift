// libFuzzer targets over the core's parsers and renderers, chosen by FUZZ_TARGET:
//   bot-reply  the bot-message decoder, the text and JSON Lines renderers
//   html       the guidance HTML converter, then the renderer
//   locale     the translators' .properties format
//   items      the data API's contact and FAQ tables, parsed whole and in parts
//   transcript the transcript parser (YAML through Yams, then every check)
//   json       JSONParser against Foundation's JSONDecoder (also part of bot-reply)
//   hlog       replay's interval logs: .hlog lines, histograms, the counts line
//   due        due dates as people write them, in each language, then formatted
//   search     search queries: parsed, matched against the guidance and contacts
//   tracker    Rasa tracker events: the inspector's lines and insight, rendered
//   config     config.yaml
//   rasa-e2e   Rasa end-to-end test files (`test_cases:`), through the transcript parser
//   socketio   an Engine.IO polling payload from a server: packets, Socket.IO packets,
//              bot events decoded as the REST channel's and rendered, answers ended
// Built by Tests/Fuzz/run.sh with `swiftc -sanitize=fuzzer,address`; never part of the app.
import Foundation

private let target = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? "bot-reply"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  switch target {
  case "html":
    let text = String(decoding: data, as: UTF8.self)
    let markup = HTMLText.markup(text)
    _ = HTMLText.plain(text)
    let reply = BotReply(messages: [BotMessage(text: markup)])
    checkClean(Renderer(width: 30, color: false, language: .en).render(.reply(reply)).stdout)
  case "transcript":
    _ = try? TranscriptParser.parse(String(decoding: data, as: UTF8.self), file: "fuzz.yaml")
  case "locale":
    _ = try? LocaleTable(parsing: String(decoding: data, as: UTF8.self))
  case "items":
    // A table parsed in parts (large syncs) is the table parsed whole, or not parsed.
    if let split = JSONItemsSplitter.items(of: data, transform: { $0 }) {
      let whole = try? JSONParser.parse(data)
      precondition(split.items == whole?["items"]?.arrayValue, "parsed in parts, not whole")
    }
    _ = try? ItemsPayloadDecoder.contacts(data)
    _ = try? ItemsPayloadDecoder.faqItems(data)
    if let tree = try? ItemsPayloadDecoder.faqItems(data).items {
      _ = GuidanceTree(tags: [], items: tree).search("a b", language: .en)
    }
  case "json":
    checkAgainstFoundation(data)
  case "hlog":
    let text = String(decoding: data, as: UTF8.self)
    if let contents = try? HistogramLog.read(text) {
      // What was read adds up without trapping, and writes back as a counts line.
      let counts = contents.counts ?? LoadCounts()
      _ = HistogramLog.countsLine(counts.adding(counts))
    }
    _ = try? HistogramCodec.decode(text.prefix(4096))
    if let json = try? JSONParser.parse(data) { _ = LoadCounts(json) }
  case "due":
    let text = String(decoding: data, as: UTF8.self)
    for today in fuzzDays {
      if let date = DueDateText.parse(text, today: today) {
        for language in Language.allCases { _ = DueDateText.format(date, language) }
      }
    }
  case "search":
    let text = String(decoding: data, as: UTF8.self)
    let query = SearchQuery(text)
    for language in Language.allCases { _ = fuzzTree.search(text, language: language) }
    // The directory's index (office kinds and postcodes as groups), and the other
    // keyboard layouts' readings of the text, for contacts and for button titles.
    _ = fuzzIndex.search(query, language: .uk, favourites: [2], limit: 5)
    let readings = KeyboardLayout.readings(of: text) { fuzzIndex.strength(of: SearchQuery($0)) }
    for reading in readings {
      precondition(reading != text, "a reading is never the text as typed")
      _ = fuzzIndex.search(SearchQuery(reading), language: .ru, favourites: [], limit: 5)
    }
    _ = UserInput(line: text, choices: fuzzButtons)
  case "tracker":
    guard let json = try? JSONParser.parse(data) else { return 0 }
    let events = json.arrayValue ?? json["events"]?.arrayValue ?? [json]
    let lines = events.map(TrackerLine.init)
    let renderer = Renderer(width: 40, color: false, language: .uk)
    checkClean(renderer.render(.inspect(.tracker(lines))).stderr)
    checkClean(renderer.render(.inspect(.turn(TurnInsight(events: events)))).stderr)
    checkClean(renderer.render(.inspect(.parse(TurnInsight(parse: json)))).stderr)
    _ = JSONLinesRenderer(language: .en).render(.inspect(.tracker(lines)))
    _ = TrackerExpectations().mismatches(events, l10n: Localizer(.ru))
  case "socketio":
    let text = String(decoding: data, as: UTF8.self)
    var payloads: [JSONValue] = []
    var answer = SocketIOAnswer(sentAt: 0, settle: 1, timeout: 30)
    for (index, packet) in EngineIOPacket.decodePayload(text).enumerated() {
      if case .open(let json) = packet { _ = EngineIOHandshake(json) }
      guard case .message(let body) = packet, let socket = SocketIOPacket.decode(body) else {
        continue
      }
      // What decodes encodes, and decodes to the same packet, which encodes the same
      // (numbers are compared as written: the JSON writer's precision is its own).
      let again = SocketIOPacket.decode(socket.encoded)
      precondition(
        again?.kind == socket.kind && again?.namespace == socket.namespace
          && again?.ackID == socket.ackID && again?.attachments == socket.attachments
          && again?.encoded == socket.encoded, "packet does not round-trip")
      if let (_, arguments) = socket.eventArguments {
        payloads.append(arguments.first ?? .null)
        answer.received(arguments.first ?? .null, at: Double(index))
      }
      if socket.kind == .ack { answer.acknowledged(at: Double(index)) }
      _ = answer.state(at: Double(index))
    }
    let reply = SocketIOMessage.reply(payloads)
    checkClean(Renderer(width: 30, color: false, language: .ru).render(.reply(reply)).stdout)
    checkClean(Renderer(width: 30, color: false, language: .ru).render(.late(reply)).stdout)
    _ = JSONLinesRenderer(language: .uk).render(.late(reply))
  case "config":
    _ = try? ConfigFile.parse(String(decoding: data, as: UTF8.self))
  case "rasa-e2e":
    // The input as the body of a `test_cases:` list, so the fuzzer works on that path.
    var text = String(decoding: data, as: UTF8.self)
    if !text.contains("test_cases") { text = "test_cases:\n" + text }
    _ = try? TranscriptParser.parse(text, file: "tests/test_fuzz.yml")
  default:
    checkAgainstFoundation(data)
    guard let reply = try? BotReplyDecoder.decode(data) else { return 0 }
    for width in [12, 80] {
      checkClean(Renderer(width: width, color: false, language: .uk).render(.reply(reply)).stdout)
    }
    _ = JSONLinesRenderer(language: .ru).render(.reply(reply))
  }
  return 0
}

/// Days the due-date target reads against: an ordinary one, a month's and a year's end,
/// a leap day.
private let fuzzDays: [DayDate] = ["2026-11-25", "2027-01-31", "2028-02-29", "2026-12-31"]
  .compactMap { DayDate(iso: $0) }

/// A small guidance tree for the search target.
/// A small directory and buttons for the search target.
private let fuzzIndex = ContactSearchIndex(
  rows: [
    ("Ministerstvo vnitra, odbor azylové a migrační politiky", "Brno", "Cejl 62, 602 00 Brno"),
    ("Úřad práce ČR Бюро по труду", "Praha", "Na Poříčí 24, 140 00 Praha"),
    ("Všeobecná zdravotní pojišťovna", "Ostrava", "Zámecká 20, 70200 Ostrava"),
  ].enumerated().map { index, row in
    ContactSearchIndex.Row(
      id: Int64(index + 1), names: SearchText.keyText([row.0]), city: SearchText.keyText([row.1]),
      address: SearchText.keyText([row.2]), sortKeys: ["a", "b", "c"])
  })
private let fuzzButtons = ["Медицинская страховка", "Finding accommodation", "Житло"].map {
  Button(title: $0)
}

private let fuzzTree = GuidanceTree(
  tags: [],
  items: (try? ItemsPayloadDecoder.faqItems(
    Data(
      #"{"items":[{"id":1,"title":"Residence permit","content":"<p>Visa and stay</p>"},{"id":2,"title":"Медицинское страхование","content":"полис"}]}"#
        .utf8)
  ).items) ?? [])

/// JSONParser accepts whatever Foundation accepts, with the same value; it may
/// accept more (invalid UTF-8 and lone surrogates become U+FFFD). Found by this
/// target: Foundation ignores what follows a NUL byte ("0\0" is 0), which
/// JSONParser refuses on purpose; Foundation keeps the first of repeated keys,
/// takes trailing commas, raw control characters in strings and leading zeros, and
/// never decodes the losing value of a repeated key (so bad escapes or numbers
/// there pass it; JSONParser takes broken escapes as text, but not broken
/// numbers, which JSONSerialization refuses too).
private func checkAgainstFoundation(_ data: Data) {
  guard let foundation = try? JSONDecoder().decode(JSONValue.self, from: data) else { return }
  guard let ours = try? JSONParser.parse(data) else {
    if data.contains(0) { return }
    // JSONDecoder never looks inside the losing value of a repeated key; when
    // JSONSerialization (which reads everything) refuses the text, so may we.
    if (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) == nil { return }
    preconditionFailure("Foundation parsed what JSONParser refused")
  }
  precondition(same(ours, foundation), "JSONParser and Foundation disagree")
}

/// Equal, counting NaN-free numbers equal when they print the same.
private func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
  switch (a, b) {
  case (.number(let x), .number(let y)): return x == y || JSONValue.format(x) == JSONValue.format(y)
  case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(same)
  case (.object(let x), .object(let y)):
    return x.count == y.count
      && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
  default: return a == b
  }
}

/// What reaches the terminal has no control characters but newlines.
private func checkClean(_ text: String) {
  for scalar in text.unicodeScalars where scalar != "\n" {
    precondition(
      scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value),
      "control U+\(String(scalar.value, radix: 16))")
  }
}
