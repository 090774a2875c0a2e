import Foundation
import GRDB
import MigrantChatCore
import Synchronization

/// The contact directory cache: one SQLite file, WAL mode, FTS5 search, and
/// an in-memory `ContactSearchIndex` built on the first search.
///
/// Contacts are stored as JSON with per-language sort keys; both indexes
/// hold the search keys (`SearchText.keys`) of the names in every language,
/// the addresses and the city, so "mecova" finds "Mečová" and "брно" finds
/// "Brno". Queries go through `SearchQuery` (other city names, small words,
/// stems); the in-memory index adds typos and ranking, FTS5 (while a large
/// index is built) matches keys and stems as prefixes. Replacing the table is one
/// IMMEDIATE transaction: another process waits for it (busy timeout)
/// rather than seeing "database is locked", and a crash leaves the old table.
public final class SQLiteContactStore: ContactStore {
  let database: any DatabaseWriter

  /// The in-memory search index, for the table generation it was built from.
  private struct IndexState {
    var generation = ""
    var index: ContactSearchIndex?
    var building = false
    /// Up to this many contacts the index is built on the first search (a few
    /// milliseconds); above, the first searches use FTS5 while it is built
    /// on another thread.
    var synchronousLimit = 20_000
    /// The generation whose build failed: searched with FTS5, not built again
    /// on every search; the next generation (a sync) tries again.
    var failedGeneration: String?
    /// How many builds were started, for tests.
    var builds = 0
    /// Decoded contacts of search results, and the generation they are of.
    var rowCache = RowCache()
    var rowCacheGeneration = ""
    /// The cities and name words for suggestions, and the generation they are of.
    var suggestionWords: SuggestionWords?
    var suggestionGeneration: String?
    /// For tests: stands in for reading the rows (to make a build fail).
    var rowSource: (@Sendable () throws(DirectoryError) -> [ContactSearchIndex.Row])?
  }
  private let indexState = Mutex(IndexState())

  /// For tests: build the index in the background above `limit` contacts.
  func buildIndexInBackground(above limit: Int) {
    indexState.withLock { $0.synchronousLimit = limit }
  }

  /// For tests: read the index's rows with `source` instead of the database.
  func readIndexRows(
    with source: @escaping @Sendable () throws(DirectoryError) -> [ContactSearchIndex.Row]
  ) {
    indexState.withLock { $0.rowSource = source }
  }

  /// For tests: how many index builds were started.
  var indexBuilds: Int { indexState.withLock { $0.builds } }

  private init(database: any DatabaseWriter) throws(DirectoryError) {
    self.database = database
    do {
      try SQLiteSettings.migrate(Self.migrator, database)
      // Touch the data: a damaged file often opens fine and fails on the first read.
      try SQLiteSettings.touch("meta", in: database)
    } catch {
      throw SQLiteSettings.directoryError(error)
    }
  }

  /// Opens (creating it if needed) the cache at `path`.
  public static func open(path: String) throws(DirectoryError) -> SQLiteContactStore {
    try SQLiteSettings.open(path: path) { try SQLiteContactStore(database: $0) }
  }

  /// A store in memory, when the cache directory cannot be written.
  public static func inMemory() throws(DirectoryError) -> SQLiteContactStore {
    try SQLiteSettings.open(path: nil) { try SQLiteContactStore(database: $0) }
  }

  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.execute(
        sql: """
          CREATE TABLE contact (
            id INTEGER PRIMARY KEY,
            payload TEXT NOT NULL,
            sort_en TEXT NOT NULL,
            sort_ru TEXT NOT NULL,
            sort_uk TEXT NOT NULL
          );
          CREATE VIRTUAL TABLE contact_search USING fts5(
            names, address, city, tokenize = 'unicode61 remove_diacritics 2'
          );
          CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
          """)
    }
    // Prefix indexes make short prefixes ("br", "cen") cheap. The cache is
    // rebuildable, so a schema change empties it: the sample and a sync refill it.
    migrator.registerMigration("v2-prefix-index") { db in
      try db.execute(
        sql: """
          DROP TABLE contact_search;
          DELETE FROM contact;
          DELETE FROM meta;
          CREATE VIRTUAL TABLE contact_search USING fts5(
            names, address, city, tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3'
          );
          CREATE INDEX contact_sort_en ON contact (sort_en);
          CREATE INDEX contact_sort_ru ON contact (sort_ru);
          CREATE INDEX contact_sort_uk ON contact (sort_uk);
          """)
    }
    migrator.registerMigration("v3-guidance") { db in
      try db.execute(
        sql: """
          CREATE TABLE faq_tag (id INTEGER PRIMARY KEY, payload TEXT NOT NULL);
          CREATE TABLE faq_item (id INTEGER PRIMARY KEY, payload TEXT NOT NULL);
          """)
    }
    // Russian and Ukrainian names sort by their own alphabets (`SortKey`): the keys of
    // a cache written before are made again, and every process rebuilds its index.
    migrator.registerMigration("v4-alphabet-sort") { db in
      let rows = try Row.fetchAll(db, sql: "SELECT id, payload FROM contact")
      let update = try db.makeStatement(
        sql: "UPDATE contact SET sort_en = ?, sort_ru = ?, sort_uk = ? WHERE id = ?")
      for row in rows {
        guard let contact = decode(row[1]) else { continue }
        try update.execute(arguments: [
          SortKey.make(contact.name(in: .en), language: .en),
          SortKey.make(contact.name(in: .ru), language: .ru),
          SortKey.make(contact.name(in: .uk), language: .uk), contact.id,
        ])
      }
      try setMeta(db, "contacts.generation", UUID().uuidString)
    }
    // Search keys instead of folded text (#15): "Брно" and "Brno" are one key. The
    // FTS5 table is made again from the stored contacts, which are stored again in the
    // data API's shape; every process rebuilds its index.
    migrator.registerMigration("v5-search-keys") { db in
      try db.execute(
        sql: """
          DROP TABLE contact_search;
          CREATE VIRTUAL TABLE contact_search USING fts5(
            names, address, city, tokenize = 'unicode61 remove_diacritics 0', prefix = '1 2 3'
          );
          """)
      let index = try db.makeStatement(
        sql: "INSERT INTO contact_search (rowid, names, address, city) VALUES (?, ?, ?, ?)")
      let rewrite = try db.makeStatement(sql: "UPDATE contact SET payload = ? WHERE id = ?")
      for payload in try String.fetchAll(db, sql: "SELECT payload FROM contact") {
        guard let contact = decode(payload) else { continue }
        let row = StoredContactRow(contact)
        try index.execute(arguments: [row.id, row.names, row.addresses, row.city])
        // Stored in the data API's shape from now on (`Contact.storedJSON`).
        try rewrite.execute(arguments: [contact.storedJSON, contact.id])
      }
      try setMeta(db, "contacts.generation", UUID().uuidString)
    }
    // The keys are words already, so the tokenizer only splits at spaces: 'ascii'
    // takes every other byte as part of a word ('unicode61' split Thai keys at their
    // vowel signs, into phrases). detail=none (no word positions: queries are words
    // and prefixes, never phrases) and no column sizes (no ranking by FTS5): a
    // smaller index, quicker to write.
    migrator.registerMigration("v6-search-table-of-keys") { db in
      try db.execute(sql: "DROP TABLE contact_search; \(searchTable)")
      let contacts = try String.fetchAll(db, sql: "SELECT payload FROM contact").compactMap(decode)
      let index = try db.makeStatement(sql: insertSearchRow)
      try StoredContactRows(contacts).forEach { row in
        try index.execute(arguments: [row.id, row.names, row.addresses, row.city])
      }
      try setMeta(db, "contacts.generation", UUID().uuidString)
    }
    // Where each guide hangs, beside its payload: a tree is built from these columns
    // and reads the payloads (texts in every language) only when a guide is shown
    // (`GuidanceTree`, #50). Filled from the payloads of a cache written before.
    migrator.registerMigration("v7-guidance-outline") { db in
      try db.execute(
        sql: """
          ALTER TABLE faq_item ADD COLUMN parent_id INTEGER;
          ALTER TABLE faq_item ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
          UPDATE faq_item SET parent_id = json_extract(payload, '$.parentID'),
            tags = coalesce(json_extract(payload, '$.tags'), '[]');
          """)
    }
    return migrator
  }

  /// The FTS5 table of the contacts' search keys (`StoredContactRow`), their
  /// prefixes of one to three bytes indexed too.
  private static let searchTable = """
    CREATE VIRTUAL TABLE contact_search USING fts5(
      names, address, city, tokenize = 'ascii', prefix = '1 2 3', detail = none, columnsize = 0
    )
    """

  private static let insertSearchRow =
    "INSERT INTO contact_search (rowid, names, address, city) VALUES (?, ?, ?, ?)"

  // MARK: - Reading

  public func contacts(ids: [Int64]) throws(DirectoryError) -> [Contact] {
    guard !ids.isEmpty else { return [] }
    return try reading { db in
      let payloads = try String.fetchAll(
        db, sql: "SELECT payload FROM contact WHERE id IN (SELECT value FROM json_each(?))",
        arguments: [Self.jsonArray(ids)])
      return payloads.compactMap(Self.decode)
    }
  }

  public func search(
    _ query: String, language: Language, favourites: Set<Int64>, limit: Int
  ) throws(DirectoryError) -> SearchResult {
    let parsed = SearchQuery(query, stemmer: stemmer)
    // Text with no letter or digit in it ("!!!", "😀") finds nothing; only an empty
    // query lists the directory.
    if parsed.isEmpty && !query.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      return SearchResult(contacts: [], total: 0)
    }
    let index = parsed.isEmpty ? nil : try searchIndex()
    func run(_ parsed: SearchQuery) throws(DirectoryError) -> (SearchResult, SearchQuality) {
      if !parsed.isEmpty, let index {
        let found = index.search(
          parsed, language: language, favourites: favourites, limit: max(limit, 0))
        let byID = try decodedResults(found.ids)
        var result = SearchResult(contacts: found.ids.compactMap { byID[$0] }, total: found.total)
        result.leftOut = found.leftOut
        return (result, found.quality)
      }
      let result = try searchFTS(parsed, language: language, favourites: favourites, limit: limit)
      return (result, Self.quality(of: result, parsed))
    }
    var (result, quality) = try run(parsed)
    // Typed with the other keyboard layout on? The reading that matches better wins;
    // one of a word's start alone ("t" of "[t,", хеб) is not sure of anything.
    if !parsed.isEmpty, !(quality.isSure && parsed.isSubstantial) {
      for reading in try layoutReadings(of: query, language: language, index: index) {
        let readQuery = SearchQuery(reading, stemmer: stemmer)
        guard readQuery.isSubstantial else { continue }
        let (other, otherQuality) = try run(readQuery)
        if otherQuality > quality {
          (result, quality) = (other, otherQuality)
          result.readAs = reading
        }
      }
    }
    if result.total == 0 && !parsed.isEmpty {
      result.suggestions = try suggestions(for: parsed)
    }
    return result
  }

  /// `query` as the other keyboard layouts read it (`KeyboardLayout.readings`),
  /// chunk by chunk where that matches the directory's words better.
  private func layoutReadings(
    of query: String, language: Language, index: ContactSearchIndex?
  ) throws(DirectoryError) -> [String] {
    let layout = KeyboardLayout.preferred(for: language)
    if let index {
      return KeyboardLayout.readings(of: query, preferring: layout) {
        index.strength(of: SearchQuery($0, stemmer: stemmer))
      }
    }
    // FTS5 alone (the first search of a large directory): a chunk that finds
    // something, without telling how well.
    var failure: DirectoryError?
    let readings = KeyboardLayout.readings(of: query, preferring: layout) { chunk in
      let parsed = SearchQuery(chunk, stemmer: stemmer)
      guard failure == nil, !parsed.isEmpty else { return nil }
      do throws(DirectoryError) {
        return try searchFTS(parsed, language: .en, favourites: [], limit: 0).total > 0 ? 0 : nil
      } catch {
        failure = error
        return nil
      }
    }
    if let failure { throw failure }
    return readings
  }

  /// What an FTS5 search tells of how well it matched: all its words, or nothing.
  private static func quality(of result: SearchResult, _ query: SearchQuery) -> SearchQuality {
    // Words of one or two letters found are only their start: weaker than a word.
    result.total > 0
      ? SearchQuality(
        matchedUnits: query.unitCount, unmatchedUnits: 0, complete: true,
        bestMatch: query.isSubstantial ? 0 : 1)
      : SearchQuality(
        matchedUnits: 0, unmatchedUnits: query.unitCount, complete: false,
        bestMatch: SearchQuality.noMatch)
  }

  /// The contacts of search results, decoded once per table generation: a long-lived
  /// process (a chat, `serve`) lists the same offices again and again, and a city's
  /// listing decodes up to 100 rows. Only searches use it, with the index of the
  /// same generation; cards read the table.
  private func decodedResults(_ ids: [Int64]) throws(DirectoryError) -> [Int64: Contact] {
    let (generation, hits) = indexState.withLock { state in
      if state.rowCacheGeneration != state.generation {
        state.rowCache = RowCache()
        state.rowCacheGeneration = state.generation
      }
      return (state.generation, ids.compactMap { state.rowCache.take($0) })
    }
    var byID = Dictionary(hits.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let missing = ids.filter { byID[$0] == nil }
    guard !missing.isEmpty else { return byID }
    let read = try contacts(ids: missing)
    for contact in read { byID[contact.id] = contact }
    indexState.withLock { state in
      guard state.rowCacheGeneration == generation else { return }
      for contact in read { state.rowCache.keep(contact) }
    }
    return byID
  }

  /// Decoded contacts, up to `limit`, the recently used kept. Two halves: when the
  /// newer is full it becomes the older and the older is let go, and a contact found
  /// in the older moves to the newer. Emptying it all when full (as before) decoded
  /// a city's hundred offices again every few hundred searches of a large directory.
  struct RowCache {
    static let limit = 10_000
    private var newer: [Int64: Contact] = [:]
    private var older: [Int64: Contact] = [:]

    var count: Int { newer.count + older.count }

    mutating func take(_ id: Int64) -> Contact? {
      if let contact = newer[id] { return contact }
      guard let contact = older.removeValue(forKey: id) else { return nil }
      keep(contact)
      return contact
    }

    mutating func keep(_ contact: Contact) {
      if newer.count >= Self.limit / 2 {
        older = newer
        newer = [:]
      }
      newer[contact.id] = contact
    }
  }

  /// Stems query words for both indexes.
  let stemmer: any WordStemmer = SnowballStemmer.shared

  /// Cities and name words closest to the query's words, as the data writes
  /// them, for "Did you mean ...?". Read from the stored contacts (only when a
  /// search found nothing) and kept for the table's generation.
  private func suggestions(for query: SearchQuery) throws(DirectoryError) -> [String] {
    let generation = try currentGeneration()
    let cached = indexState.withLock { state in
      state.suggestionGeneration == generation ? state.suggestionWords : nil
    }
    let words: SuggestionWords
    if let cached {
      words = cached
    } else {
      // Cities always; the words of names up to the size whose index is built at once
      // (a one-shot search of a large directory would read every contact for them).
      words = try reading { db in
        // Written by each sync; a cache from before has them only in the rows.
        let cities =
          try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'contacts.cities'")
          .flatMap { try? JSONParser.parse($0).arrayValue?.compactMap(\.stringValue) }
          ?? String?.fetchAll(
            db, sql: "SELECT DISTINCT json_extract(payload, '$.city') FROM contact"
          ).compactMap { $0 }
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM contact") ?? 0
        let limit = indexState.withLock { $0.synchronousLimit }
        // The names in every language, as the stored payload has them (`storedJSON`),
        // read by SQLite: decoding every contact cost a one-shot search a third of its time.
        let languages = Language.allCases.map {
          ", json_extract(payload, '$.localizedAttributes.\($0.rawValue).name')"
        }.joined()
        let names =
          count <= limit
          ? try Row.fetchAll(
            db,
            sql:
              "SELECT json_extract(payload, '$.name')\(languages) FROM contact WHERE json_valid(payload)"
          ).flatMap { row in row.databaseValues.compactMap { String.fromDatabaseValue($0) } }
            .filter { !$0.isEmpty } : []
        return SuggestionWords(cities: cities, names: names)
      }
      indexState.withLock { state in
        state.suggestionGeneration = generation
        state.suggestionWords = words
      }
    }
    return words.closest(to: query)
  }

  private func currentGeneration() throws(DirectoryError) -> String {
    try reading { db in
      try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'contacts.generation'") ?? ""
    }
  }

  /// The index for the current table, building it when missing or stale; nil
  /// while a large one is being built.
  public func searchIndex() throws(DirectoryError) -> ContactSearchIndex? {
    let generation = try currentGeneration()
    let (current, failed, limit) = indexState.withLock { state in
      (
        state.generation == generation ? state.index : nil,
        state.failedGeneration == generation, state.synchronousLimit
      )
    }
    if let current { return current }
    if failed { return nil }
    // Counting scans the table: only when the index has to be (re)built.
    let count = try reading { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM contact") ?? 0 }
    if count <= limit {
      indexState.withLock { $0.builds += 1 }
      // On failure FTS5 answers, and reports the problem if the database is really broken.
      let index = try? buildIndex()
      finishBuild(index, generation: generation)
      return index
    }
    let start = indexState.withLock { state -> Bool in
      guard !state.building else { return false }
      state.building = true
      state.builds += 1
      return true
    }
    if start {
      Thread.detachNewThread { [self] in
        finishBuild(try? buildIndex(), generation: generation)
      }
    }
    return nil
  }

  /// Keeps a built index, or remembers that this generation's build failed.
  private func finishBuild(_ index: ContactSearchIndex?, generation: String) {
    indexState.withLock {
      $0.building = false
      if let index {
        $0.generation = generation
        $0.index = index
      } else {
        $0.failedGeneration = generation
      }
    }
  }

  private func buildIndex() throws(DirectoryError) -> ContactSearchIndex {
    let rows =
      if let source = indexState.withLock({ $0.rowSource }) { try source() } else {
        try indexRows()
      }
    return ContactSearchIndex(rows: rows)
  }

  private func indexRows() throws(DirectoryError) -> [ContactSearchIndex.Row] {
    let sortColumns = Language.allCases.map { "c.sort_\($0.rawValue)" }.joined(separator: ", ")
    return try reading { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT c.id, coalesce(s.names, ''), coalesce(s.city, ''), coalesce(s.address, ''), \(sortColumns)
          FROM contact c JOIN contact_search s ON s.rowid = c.id
          """
      ).map { row in
        ContactSearchIndex.Row(
          id: row[0], names: row[1], city: row[2], address: row[3],
          sortKeys: Language.allCases.indices.map { row[$0 + 4] ?? "" })
      }
    }
  }

  /// Search through SQLite's FTS5 index alone: every query word's key, or one
  /// of its stems, starts a word (no typos, no ranking by how it matched).
  public func searchFTS(
    _ query: String, language: Language, favourites: Set<Int64>, limit: Int
  ) throws(DirectoryError) -> SearchResult {
    let parsed = SearchQuery(query, stemmer: stemmer)
    if parsed.isEmpty && !query.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      return SearchResult(contacts: [], total: 0)
    }
    return try searchFTS(parsed, language: language, favourites: favourites, limit: limit)
  }

  /// FTS5 for a query already read (`search` falls back here without reading it again).
  private func searchFTS(
    _ parsed: SearchQuery, language: Language, favourites: Set<Int64>, limit: Int
  ) throws(DirectoryError) -> SearchResult {
    // Keys are letters and digits, quoted: no FTS5 syntax reaches the MATCH. The
    // 'ascii' tokenizer splits at other ASCII bytes, which would make a phrase (an
    // error with detail=none): none can be in a key, and none is let through.
    func quoted(_ key: String, prefix: Bool = true) -> String {
      "\"" + key.filter { !$0.isASCII || $0.isLetter || $0.isNumber } + (prefix ? "\"*" : "\"")
    }
    func term(_ term: SearchQuery.Term) -> String {
      "("
        + ([quoted(term.key, prefix: !term.wholeWord)]
        + (term.wholeWord ? [] : term.stems.map { quoted($0) }))
        .joined(separator: " OR ") + ")"
    }
    // A group: any of its alternatives, each with all of its words.
    let groups = parsed.groups.map { group in
      "("
        + group.alternatives.map { "(" + $0.map(term).joined(separator: " AND ") + ")" }
        .joined(separator: " OR ") + ")"
    }
    let match = (parsed.terms.map(term) + groups).joined(separator: " AND ")
    // The sort column is chosen from an enum, never from input.
    let order =
      "(c.id IN (SELECT value FROM json_each(:favourites))) DESC, c.sort_\(language.rawValue), c.id"
    let arguments: StatementArguments = [
      "favourites": Self.jsonArray(favourites.sorted()), "limit": max(limit, 0),
      "match": match,
    ]
    return try reading { db in
      let total: Int
      let rows: [String]
      if parsed.isEmpty {
        total = try Int.fetchOne(db, sql: "SELECT count(*) FROM contact") ?? 0
        rows = try String.fetchAll(
          db, sql: "SELECT c.payload FROM contact c ORDER BY \(order) LIMIT :limit",
          arguments: arguments)
      } else {
        total =
          try Int.fetchOne(
            db, sql: "SELECT count(*) FROM contact_search WHERE contact_search MATCH :match",
            arguments: arguments) ?? 0
        rows = try String.fetchAll(
          db,
          sql: """
            SELECT c.payload FROM contact_search s JOIN contact c ON c.id = s.rowid
            WHERE contact_search MATCH :match ORDER BY \(order) LIMIT :limit
            """, arguments: arguments)
      }
      return SearchResult(contacts: rows.compactMap(Self.decode), total: total)
    }
  }

  /// One stored contact, whichever: all of a fill are written at once, so one tells
  /// how the cache was filled.
  public func anyContact() throws(DirectoryError) -> Contact? {
    try reading { db in
      try String.fetchOne(db, sql: "SELECT payload FROM contact LIMIT 1").flatMap(Self.decode)
    }
  }

  /// What `DirectoryFiles.loadSampleIfEmpty` looks at every start, in one read: where
  /// the contacts and the guides came from, and whether cached sample contacts lack
  /// their `sample` mark (a cache from before it).
  func sampleCheck() throws(DirectoryError) -> (
    contacts: DirectorySource?, guides: DirectorySource?, unmarkedSample: Bool
  ) {
    try reading { db in
      let meta = try Self.meta(db)
      let contacts = Self.source(of: DirectorySync.table, in: meta)
      var unmarked = false
      if contacts == .sample,
        let payload = try String.fetchOne(db, sql: "SELECT payload FROM contact LIMIT 1")
      {
        unmarked = Self.decode(payload)?.isSample == false
      }
      return (contacts, Self.source(of: "faq_items", in: meta), unmarked)
    }
  }

  public func status() throws(DirectoryError) -> DirectoryStatus {
    try reading { db in
      let meta = try Self.meta(db)
      let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM contact") ?? 0
      let source = Self.source(of: DirectorySync.table, in: meta)
      let attempt = meta["last_attempt"].flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
      return DirectoryStatus(source: source, count: count, lastAttempt: attempt)
    }
  }

  // MARK: - Writing

  public func replaceContacts(
    _ contacts: [Contact], source: DirectorySource
  ) throws(DirectoryError) {
    let table = Table(contacts)
    try writingTable { db in try Self.insert(table, source: source, into: db) }
  }

  /// The rows of a sync: made on other threads from the moment it is read,
  /// while waiting for the write lock and while writing.
  private struct Table {
    var rows: StoredContactRows
    var cities: [String]

    /// The first contact of each id.
    init(_ contacts: [Contact]) {
      var seen = Set<Int64>()
      let unique = contacts.filter { seen.insert($0.id).inserted }
      rows = StoredContactRows(unique)
      cities = Set(unique.compactMap(\.city).filter { !$0.isEmpty }).sorted()
    }
  }

  private static func insert(
    _ table: Table, source: DirectorySource, into db: Database
  ) throws {
    // The sort indexes are made again after the rows are in: one sort instead of
    // an index update per row (a sync of 100,000 contacts). The search table is
    // made again: FTS5 deletes row by row.
    try db.execute(
      sql: """
        DELETE FROM contact; DROP TABLE contact_search;
        DROP INDEX IF EXISTS contact_sort_en; DROP INDEX IF EXISTS contact_sort_ru;
        DROP INDEX IF EXISTS contact_sort_uk;
        \(searchTable);
        """)
    let insert = try db.makeStatement(
      sql:
        "INSERT OR REPLACE INTO contact (id, payload, sort_en, sort_ru, sort_uk) VALUES (?, ?, ?, ?, ?)"
    )
    let index = try db.makeStatement(sql: insertSearchRow)
    try table.rows.forEach { row in
      try insert.execute(arguments: [row.id, row.payload] + StatementArguments(row.sortKeys))
      try index.execute(arguments: [row.id, row.names, row.addresses, row.city])
    }
    try db.execute(
      sql: """
        CREATE INDEX contact_sort_en ON contact (sort_en);
        CREATE INDEX contact_sort_ru ON contact (sort_ru);
        CREATE INDEX contact_sort_uk ON contact (sort_uk);
        """)
    // The cities, for "Did you mean ...?" without reading every row.
    try setMeta(
      db, "contacts.cities", JSONValue.array(table.cities.map(JSONValue.string)).compactText)
    try setSource(source, of: DirectorySync.table, in: db)
    // A new generation: every process's search index is rebuilt on its next search.
    try setMeta(db, "contacts.generation", UUID().uuidString)
  }

  /// Fills the table only if it was never filled: checked and written in one
  /// transaction, so a sync that another process just committed is never overwritten.
  public func fillIfEmpty(_ contacts: [Contact], source: DirectorySource) throws(DirectoryError) {
    let empty = try reading { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM meta WHERE key = 'source'") == 0
    }
    guard empty else { return }
    let table = Table(contacts)
    try writingTable { db in
      guard try Int.fetchOne(db, sql: "SELECT count(*) FROM meta WHERE key = 'source'") == 0
      else { return }
      try Self.insert(table, source: source, into: db)
    }
  }

  public func recordSyncAttempt(at time: Date) throws(DirectoryError) {
    try writing { db in try Self.setMeta(db, "last_attempt", String(time.timeIntervalSince1970)) }
  }

  // MARK: - Helpers

  static func setMeta(_ db: Database, _ key: String, _ value: String) throws {
    try db.execute(
      sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [key, value])
  }

  static func meta(_ db: Database) throws -> [String: String] {
    try Dictionary(
      Row.fetchAll(db, sql: "SELECT key, value FROM meta").map { (row: Row) -> (String, String) in
        (row["key"], row["value"])
      }, uniquingKeysWith: { first, _ in first })
  }

  /// Meta keys per table: `source` and `synced_at` for contacts, `faq_items.source` and so on.
  private static func metaKey(_ table: String, _ field: String) -> String {
    table == DirectorySync.table ? field : table + "." + field
  }

  static func source(of table: String, in meta: [String: String]) -> DirectorySource? {
    switch meta[metaKey(table, "source")] {
    case "sample"?: return .sample
    case let url?:
      let seconds = meta[metaKey(table, "synced_at")].flatMap(Double.init) ?? 0
      return .dataAPI(url: url, syncedAt: Date(timeIntervalSince1970: seconds))
    case nil: return nil
    }
  }

  static func setSource(_ source: DirectorySource, of table: String, in db: Database) throws {
    switch source {
    case .sample:
      try setMeta(db, metaKey(table, "source"), "sample")
      try db.execute(
        sql: "DELETE FROM meta WHERE key = ?", arguments: [metaKey(table, "synced_at")])
    case .dataAPI(let url, let syncedAt):
      try setMeta(db, metaKey(table, "source"), url)
      try setMeta(db, metaKey(table, "synced_at"), String(syncedAt.timeIntervalSince1970))
    }
  }

  static func decode(_ payload: String) -> Contact? {
    Contact.stored(payload)
  }

  private static func jsonArray(_ ids: [Int64]) -> String {
    "[" + ids.map(String.init).joined(separator: ",") + "]"
  }

  func reading<T>(_ body: (Database) throws -> T) throws(DirectoryError) -> T {
    do { return try database.read(body) } catch { throw SQLiteSettings.directoryError(error) }
  }

  func writing(_ body: (Database) throws -> Void) throws(DirectoryError) {
    do { try database.write(body) } catch { throw SQLiteSettings.directoryError(error) }
  }

  /// The transaction of a sync, which writes a whole table. Its pages stay in a
  /// cache large enough for 100,000 contacts until the commit (from SQLite's
  /// default 2 MB, pages spill to the WAL and are written again), given back after.
  /// Freed pages are not zeroed: Debian builds SQLite with SECURE_DELETE, which
  /// wrote every page of the old table again, and the directory is public data.
  private func writingTable(_ body: (Database) throws -> Void) throws(DirectoryError) {
    do {
      try database.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA secure_delete = OFF; PRAGMA cache_size = -131072")
        defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
        try db.inTransaction(.immediate) {
          try body(db)
          return .commit
        }
      }
    } catch {
      throw SQLiteSettings.directoryError(error)
    }
  }

}
