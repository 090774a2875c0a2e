// Directory at scale: sync, search and id resolution over generated contacts.
import Foundation
import MigrantChatCore
import MigrantChatIO

/// Serves one generated payload from memory, so the figures are decode + SQLite, not the network.
struct MemoryDataAPI: DataAPI {
  let baseURL = "http://bench.invalid"
  let contacts: Data
  func get(_ path: String) async throws(DataAPIError) -> Data {
    path.hasPrefix("/data-version") ? Data(#"["contacts"]"#.utf8) : contacts
  }
}

let cities = [
  "Praha", "Brno", "Ostrava", "Plzeň", "Liberec", "Olomouc", "České Budějovice", "Hradec Králové",
  "Ústí nad Labem", "Pardubice", "Zlín", "Havířov", "Kladno", "Most", "Opava", "Frýdek-Místek",
  "Karviná", "Jihlava", "Teplice", "Děčín", "Karlovy Vary", "Chomutov", "Jablonec nad Nisou",
  "Mladá Boleslav", "Prostějov", "Přerov", "Česká Lípa", "Třebíč", "Třinec", "Tábor", "Znojmo",
  "Letohrad", "Kolín", "Příbram", "Cheb", "Písek", "Trutnov", "Orlová", "Kroměříž", "Vsetín",
]
let streets = [
  "Mečová", "Polní", "Masarykova", "Husova", "Nádražní", "Školní", "Komenského", "Palackého",
  "Žižkova", "Smetanova", "Jiráskova", "Tyršova", "Havlíčkova", "Riegrova", "Dvořákova",
]
let kinds: [(String, String, String)] = [
  ("Integration Centre", "Интеграционный центр", "Інтеграційний центр"),
  ("Labour Office", "Бюро по труду", "Бюро праці"),
  ("Residence Office", "Отдел пребывания", "Відділ перебування"),
  ("Health Insurance Branch", "Отделение страхования", "Відділення страхування"),
  ("Legal Aid", "Юридическая помощь", "Правова допомога"),
  ("Family Centre", "Семейный центр", "Сімейний центр"),
]

func payload(count: Int) -> Data {
  var items: [String] = []
  items.reserveCapacity(count)
  for id in 1...count {
    let city = cities[id % cities.count]
    let street = streets[(id / 7) % streets.count]
    let kind = kinds[id % kinds.count]
    items.append(
      #"{"id":\#(id),"name":"\#(kind.0) \#(city) \#(id)","address":"\#(street) \#(id % 200 + 1), \#(city)","city":"\#(city)","phone":"+420 500 \#(id)","email":"office\#(id)@example.org","web":"https://office\#(id).example.org","latitude":\#(49 + Double(id % 1000) / 1000),"longitude":\#(14 + Double(id % 3000) / 1000),"openingHours":"Mo-Fr 09:00-16:00","localizedAttributes":{"ru":{"name":"\#(kind.1) \#(id)"},"uk":{"name":"\#(kind.2) \#(id)"}}}"#
    )
  }
  return Data((#"{"items":["# + items.joined(separator: ",") + "]}").utf8)
}

func benchDirectory(count: Int) async throws {
  let directoryPath = FileManager.default.temporaryDirectory.appendingPathComponent(
    "migrant-chat-bench-\(getpid())"
  ).path
  try? FileManager.default.createDirectory(atPath: directoryPath, withIntermediateDirectories: true)
  // MIGRANT_BENCH_KEEP=1 keeps the database, to study queries with sqlite3.
  let keep = ProcessInfo.processInfo.environment["MIGRANT_BENCH_KEEP"] != nil
  defer {
    if keep {
      print("kept: \(directoryPath)/directory.sqlite")
    } else {
      try? FileManager.default.removeItem(atPath: directoryPath)
    }
  }

  let clock = ContinuousClock()
  let body = payload(count: count)
  let store = try SQLiteContactStore.open(path: directoryPath + "/directory.sqlite")
  let favourites = try SQLiteFavouriteStore.open(path: directoryPath + "/user.sqlite")
  let sync = DirectorySync(api: MemoryDataAPI(contacts: body), store: store, policy: .once)
  let directory = ContactDirectory(store: store, favourites: favourites, sync: sync)

  print("Directory benchmark: \(count) contacts, payload \(body.count / 1_000_000) MB")
  // The two JSON steps of a sync, timed on their own.
  var decoded: [Contact] = []
  let decodeTime = try clock.measure { decoded = try ItemsPayloadDecoder.contacts(body).items }
  print(String(format: "decoding the payload alone: %.2f s", milliseconds(decodeTime) / 1000))
  figure("directory.decode_mb_per_s", Double(body.count) / 1e6 / (milliseconds(decodeTime) / 1000))
  // What the store writes for each contact (payload, sort keys, search keys), on one
  // core; a sync makes them on every core while SQLite writes.
  let rowsTime = clock.measure { for contact in decoded { _ = StoredContactRow(contact) } }
  print(
    String(
      format: "making the stored rows alone, on one core: %.2f s", milliseconds(rowsTime) / 1000))
  figure("directory.rows_s", milliseconds(rowsTime) / 1000)
  var syncTimes: [Double] = []
  for _ in 0..<3 {
    var outcome = SyncOutcome.notDue
    let elapsed = await clock.measure { outcome = await directory.syncNow() }
    guard case .updated(let stored, _) = outcome, stored == count else {
      print("sync failed: \(outcome)")
      exit(1)
    }
    syncTimes.append(milliseconds(elapsed) / 1000)
  }
  // The first into an empty cache (a new install), then over a full one (every sync after).
  print(
    String(
      format: "sync (decode + one transaction): into an empty cache %.2f s, over a full one %.2f s",
      syncTimes[0], syncTimes.dropFirst().min() ?? 0))
  figure("directory.first_sync_s", syncTimes[0])
  figure("directory.sync_s", syncTimes.dropFirst().min() ?? 0)

  for id in stride(from: 1, through: count, by: max(count / 20, 1)) {
    _ = try await directory.addFavourite(Int64(id))
  }

  var generator = SystemRandomNumberGenerator()
  var queries: [String] = []
  let words =
    cities + streets + ["centre", "labour", "office", "бюро", "центр", "відділ", "інтегр"]
  for index in 0..<1000 {
    let word = words[Int(generator.next() % UInt64(words.count))]
    let folded = SearchText.fold(word)
    switch index % 4 {
    case 0: queries.append(folded)
    case 1: queries.append(String(folded.prefix(3)))
    case 2: queries.append(folded + " " + String(words[index % words.count].prefix(4)))
    default: queries.append(String(folded.prefix(2)))
    }
  }
  let favouriteIDs = try favourites.favourites()
  /// Times every query; prints and reports p50 and p99 under `name`.
  func timeQueries(_ label: String, _ name: String, _ search: (String) throws -> Void) throws {
    var times: [Double] = []
    var slowest: [(Double, String)] = []
    for query in queries {
      let time = milliseconds(try clock.measure { try search(query) })
      times.append(time)
      slowest.append((time, query))
    }
    times.sort()
    // Where the tail comes from, to study (MIGRANT_BENCH_SLOWEST=1).
    if ProcessInfo.processInfo.environment["MIGRANT_BENCH_SLOWEST"] != nil {
      for (time, query) in slowest.sorted(by: { $0.0 > $1.0 }).prefix(12) {
        print(String(format: "  slowest: %.2f ms  %@", time, query))
      }
    }
    print(
      String(
        format: "%@, 1000 queries, first 20 results + total: p50 %.2f ms, p99 %.2f ms, max %.2f ms",
        label, percentile(times, 0.5), percentile(times, 0.99), times.last ?? 0))
    figure("directory.\(name)_p50_ms", percentile(times, 0.5))
    figure("directory.\(name)_p99_ms", percentile(times, 0.99))
  }
  // FTS5 alone (what the first searches of a process use at this size).
  try timeQueries("search through FTS5 alone", "fts") { query in
    _ = try store.searchFTS(query, language: .en, favourites: favouriteIDs, limit: 20)
  }
  // The in-memory index: built on another thread after the first search.
  var ready: ContactSearchIndex?
  let build = try clock.measure {
    _ = try store.search("warm", language: .en, favourites: favouriteIDs, limit: 20)
    while ready == nil {
      ready = try store.searchIndex()
      if ready == nil { usleep(1000) }
    }
  }
  print(
    String(
      format:
        "search index built (on the first search; in the background above 20,000 contacts): %.0f ms",
      milliseconds(build)))
  figure("directory.index_build_ms", milliseconds(build))
  try timeQueries("search with the index", "search") { query in
    _ = try store.search(query, language: .en, favourites: favouriteIDs, limit: 20)
  }
  // Round two (#34): the wrong keyboard layout both ways (each tries other readings),
  // postcodes, office kinds by acronym and in Russian and Ukrainian, and words found in
  // no layout (the most readings tried).
  let roundTwo = [
    "ghfuf", ",hyj", "иктщ", "щыекфмф", "OAMP", "МВД", "центр занятости", "VZP", "pojišťovna",
    "страхова компанія", "60200", "702 00", "ČSSZ", "úřad práce", "qwqwqw", "ьфыфкянлф",
  ]
  queries = (0..<1000).map { index in
    let query = roundTwo[index % roundTwo.count]
    return index % 3 == 0 ? query + " " + SearchText.fold(cities[index % cities.count]) : query
  }
  try timeQueries("search with the index, round-two queries", "round2") { query in
    _ = try store.search(query, language: .en, favourites: favouriteIDs, limit: 20)
  }

  let ids = (0..<1000).map { _ in String(1 + Int(generator.next() % UInt64(count))) }
  let allAtOnce = await clock.measure { _ = await directory.cards(for: ids) }
  print(String(format: "resolve 1000 ids in one call: %.2f ms", milliseconds(allAtOnce)))
  figure("directory.resolve_1000_ms", milliseconds(allAtOnce))
  var replyTimes: [Double] = []
  for start in stride(from: 0, to: 999, by: 3) {
    let elapsed = await clock.measure {
      _ = await directory.cards(for: Array(ids[start..<start + 3]))
    }
    replyTimes.append(milliseconds(elapsed))
  }
  replyTimes.sort()
  print(
    String(
      format: "resolve 3 ids (one reply), 333 replies: p50 %.3f ms, p99 %.3f ms, total %.1f ms",
      percentile(replyTimes, 0.5), percentile(replyTimes, 0.99), replyTimes.reduce(0, +)))
}

/// Fills `cacheDirectory/directory.sqlite` with `count` generated contacts, synced as from a
/// data API, for bench.py's one-shot `migrant-chat contacts search` row (with XDG_CACHE_HOME
/// set so that `cacheDirectory` is its `migrant-chat` folder).
func fillDirectory(cacheDirectory: String, count: Int) async throws {
  try FileManager.default.createDirectory(
    atPath: cacheDirectory, withIntermediateDirectories: true)
  let store = try SQLiteContactStore.open(path: cacheDirectory + "/directory.sqlite")
  let sync = DirectorySync(
    api: MemoryDataAPI(contacts: payload(count: count)), store: store, policy: .once)
  let outcome = await sync.run()
  guard case .updated(let stored, _) = outcome, stored == count else {
    FileHandle.standardError.write(Data("fill-directory: sync failed: \(outcome)\n".utf8))
    exit(1)
  }
  print("filled \(cacheDirectory)/directory.sqlite with \(stored) contacts")
}
