// The conversation history: what keeping a turn costs the chat, and `history search`
// over many conversations.
import Foundation
import MigrantChatCore
import MigrantChatIO

private let russian = [
  "страховку", "медицинская", "вид", "на", "жительство", "квартира", "аренда", "договор",
  "работа", "разрешение", "школа", "ребёнка", "врач", "полиция", "Брно", "Прага", "Остраве",
  "документы", "виза", "продление", "пособие", "налоги", "офис", "адрес",
]
private let english = [
  "insurance", "health", "residence", "permit", "flat", "rental", "contract", "landlord", "job",
  "employer", "school", "child", "doctor", "police", "Brno", "Prague", "Ostrava", "documents",
  "visa", "extension", "benefit", "taxes", "office", "address",
]

func benchHistory(count: Int) throws {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "migrant-bench-history-\(ProcessInfo.processInfo.processIdentifier)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let store = try HistoryStore.open(path: directory.appendingPathComponent("c.sqlite").path)
  var generator = SplitMix(seed: 11)
  // Everyday words around the topic words: 3,000 made of syllables, so a topic word is
  // in some conversations, not all (24 words alone would put each in every one).
  let syllables = ["ka", "lo", "mi", "ne", "po", "ru", "sa", "ti", "vo", "za", "bre", "dny"]
  var everyday: [String] = []
  while everyday.count < 3_000 {
    let word = (0..<(2 + generator.next(3))).map { _ in syllables[generator.next(syllables.count)] }
      .joined()
    if !everyday.contains(word) { everyday.append(word) }
  }
  func sentence(_ words: [String], _ length: Int, topical: Int = 20) -> String {
    (0..<length).map { _ in
      generator.next(100) < topical
        ? words[generator.next(words.count)] : everyday[generator.next(everyday.count)]
    }.joined(separator: " ")
  }
  let clock = ContinuousClock()
  let start = Date(timeIntervalSince1970: 1_790_000_000)
  let fill = try clock.measure {
    for index in 0..<count {
      let words = index % 2 == 0 ? russian : english
      let language: Language = index % 2 == 0 ? .ru : .en
      let at = start.addingTimeInterval(Double(index) * 60)
      let id = try store.begin(server: nil, sender: "s\(index)", language: language, at: at)
      var entries: [HistoryEntry] = []
      for _ in 0..<6 {
        entries.append(
          HistoryEntry(
            kind: .user, at: at, language: language, text: sentence(words, 3, topical: 60)))
        entries.append(
          HistoryEntry(
            kind: .bot, at: at, language: language,
            messages: [
              BotMessage(
                text: sentence(words, 25),
                buttons: [Button(title: sentence(words, 2), payload: "/a")])
            ]))
      }
      try store.appendAll(entries, to: id)
    }
  }
  print(
    String(
      format: "history of %d conversations (12 entries each) filled in %.1f s", count,
      milliseconds(fill) / 1000))

  // A turn as the chat keeps it: the line, then the answer, each its own transaction.
  let live = try store.begin(server: "http://bot", sender: "live", language: .ru)
  var turns: [Double] = []
  for _ in 0..<300 {
    let line = HistoryEntry(kind: .user, at: Date(), language: .ru, text: sentence(russian, 3))
    let answer = HistoryEntry(
      kind: .bot, at: Date(), language: .ru,
      messages: [
        BotMessage(text: sentence(russian, 30), buttons: [Button(title: "Назад", payload: "/b")])
      ])
    let elapsed = try clock.measure {
      try store.append(line, to: live)
      try store.append(answer, to: live)
    }
    turns.append(milliseconds(elapsed))
  }
  turns.sort()
  print(
    String(
      format: "keeping a turn (a line and its answer, 2 transactions): p50 %.3f ms, p99 %.3f ms",
      percentile(turns, 0.5), percentile(turns, 0.99)))
  figure("history.turn_p50_ms", percentile(turns, 0.5))
  figure("history.turn_p99_ms", percentile(turns, 0.99))

  // Searches as people type them: one or two words, some in the other script, inflected or
  // with a typo.
  let queries = [
    "страховку", "strakhovku", "strahovka", "договор аренды", "dogovor", "insurance",
    "insurence", "residence permit", "Brno", "Брно", "rental contract", "врач", "doctr",
    "zhitelstvo", "виза продление", "school child",
  ]
  var times: [Double] = []
  var found = 0
  for round in 0..<20 {
    for query in queries {
      var hits = 0
      let elapsed = try clock.measure { hits = try store.search(query).count }
      if round == 0 { found += hits > 0 ? 1 : 0 }
      times.append(milliseconds(elapsed))
    }
  }
  times.sort()
  print(
    String(
      format:
        "history search over %d conversations, %d queries: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d of %d queries found something)",
      count, times.count, percentile(times, 0.5), percentile(times, 0.99), times.last ?? 0,
      found, queries.count))
  figure("history.search_p50_ms", percentile(times, 0.5))
  figure("history.search_p99_ms", percentile(times, 0.99))
}
