import Foundation
import GRDB
import MigrantChatCore

/// Every conversation, as it was seen: `$XDG_STATE_HOME/migrant-chat/conversations.sqlite`,
/// mode 0600, a file of its own (forgetting everything removes it; a full disk
/// here never touches the user's favourites or to-do list).
///
/// Each line and each answer is its own transaction, written as it is shown:
/// a `kill -9` loses nothing that was on the screen. Search goes through the
/// same keys as the contact directory (`SearchText.keys`: one Latin spelling
/// for Cyrillic and Latin, no diacritics), held in an FTS5 table, and matches a
/// word's inflections and typos through FTS5's vocabulary. Forgetting leaves no
/// trace: SQLite's `secure_delete` zeroes freed pages, the full-text index is
/// merged so no deleted term stays in its segments, and the file is vacuumed
/// and its write-ahead log truncated.
public final class HistoryStore: Sendable {
  private let database: any DatabaseWriter
  let path: String?

  init(database: any DatabaseWriter, path: String?) throws {
    self.database = database
    self.path = path
    do {
      try SQLiteSettings.migrate(Self.migrator, database)
    } catch let error as DatabaseError where Self.isRace(error) {
      // Two chats opening a new file at once: the other one created the tables
      // between this one's look and its write. Its migration is done; look again.
      // Any other error (a damaged file, a full disk) is said as it is.
      try Self.migrator.migrate(database)
    }
  }

  /// The error a migration raced by another process's meets: its tables are there
  /// already, or the file was locked past the busy timeout.
  static func isRace(_ error: DatabaseError) -> Bool {
    switch error.resultCode {
    case .SQLITE_BUSY, .SQLITE_LOCKED: true
    case .SQLITE_ERROR: error.message?.contains("already exists") ?? false
    default: false
    }
  }

  public static func open(path: String) throws(DirectoryError) -> HistoryStore {
    try SQLiteSettings.open(path: path) {
      try HistoryStore(database: $0, path: path)
    }
  }

  /// The history at `path`; a damaged file (SQLite reads it as corrupt, or as no
  /// database) is moved aside as `conversations.sqlite.damaged-<time>`, with its
  /// write-ahead log (the latest conversations may be only there), and a new one begun,
  /// so the chat keeps a history and `history forget --all` can still erase the old one.
  /// `setAside` names the file moved aside. One process at a time opens and moves (a
  /// lock file beside it): two chats started at once never move each other's new file.
  public static func openSettingAside(path: String, now: Date = Date()) throws(DirectoryError)
    -> (store: HistoryStore, setAside: String?)
  {
    let opened = FileLock.withExclusiveLock(path + ".lock") {
      () -> Result<(store: HistoryStore, setAside: String?), DirectoryError> in
      do throws(DirectoryError) {
        return .success((try Self.open(path: path), nil))
      } catch .corrupt {
        let aside = freeName(path + damagedSuffix + DirectoryFiles.timestamp(now))
        // The log first: a file opened between the two renames must not meet it.
        for suffix in ["-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
          if suffix == "-shm" {
            unlink(path + suffix)
          } else {
            rename(path + suffix, aside + suffix)
          }
        }
        guard rename(path, aside) == 0 else {
          let reason = String(cString: strerror(errno))
          return .failure(.storage(detail: path + ": " + reason))
        }
        // Set aside now: `keep_days` counts from here, not from the last write.
        for file in [aside, aside + "-wal"] { utimes(file, nil) }
        do throws(DirectoryError) {
          return .success((try Self.open(path: path), aside))
        } catch {
          return .failure(error)
        }
      } catch {
        return .failure(error)
      }
    }
    return try opened.get()
  }

  /// `name`, or `name-2`, `name-3`...: the first no file has (two set aside in one second).
  private static func freeName(_ name: String) -> String {
    var candidate = name
    var number = 1
    while access(candidate, F_OK) == 0 {
      number += 1
      candidate = name + "-\(number)"
    }
    return candidate
  }

  /// Deletes the damaged histories set aside beside `path`, with their logs; how many.
  @discardableResult
  public static func deleteDamagedCopies(beside path: String, before: Date? = nil) -> Int {
    var deleted = 0
    for copy in damagedCopies(beside: path) {
      if let before {
        var info = stat()
        guard stat(copy, &info) == 0, Double(info.st_mtim.tv_sec) < before.timeIntervalSince1970
        else { continue }
      }
      if unlink(copy) == 0, !copy.hasSuffix("-wal") { deleted += 1 }
    }
    return deleted
  }

  static let damagedSuffix = ".damaged-"

  /// The damaged histories set aside beside `path`, oldest first.
  public static func damagedCopies(beside path: String) -> [String] {
    let folder = (path as NSString).deletingLastPathComponent
    let prefix = (path as NSString).lastPathComponent + damagedSuffix
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasPrefix(prefix) }.sorted().map { folder + "/" + $0 }
  }

  public static func inMemory() throws(DirectoryError) -> HistoryStore {
    try SQLiteSettings.open(path: nil) { try HistoryStore(database: $0, path: nil) }
  }

  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.execute(
        sql: """
          CREATE TABLE conversation (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            started_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            server TEXT,
            sender TEXT NOT NULL,
            language TEXT NOT NULL,
            topic TEXT NOT NULL DEFAULT '',
            entries INTEGER NOT NULL DEFAULT 0
          );
          CREATE INDEX conversation_updated ON conversation(updated_at);
          CREATE TABLE entry (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            conversation_id INTEGER NOT NULL REFERENCES conversation(id) ON DELETE CASCADE,
            at REAL NOT NULL,
            kind TEXT NOT NULL,
            language TEXT NOT NULL,
            text TEXT NOT NULL DEFAULT '',
            chose TEXT,
            messages TEXT,
            contacts TEXT
          );
          CREATE INDEX entry_conversation ON entry(conversation_id, id);
          CREATE VIRTUAL TABLE entry_search USING fts5(keys, tokenize = 'ascii', detail = none);
          CREATE VIRTUAL TABLE entry_terms USING fts5vocab(entry_search, 'row');
          """)
    }
    // Versions before passwords were left out kept a server's address as given
    // (`http://ana:secret@host`), in the list and in failures' words: shown as `***`
    // now, and their words taken out of the search index too.
    migrator.registerMigration("v2-no-passwords") { db in
      try db.execute(sql: "PRAGMA secure_delete = ON")
      for server in try String.fetchAll(
        db, sql: "SELECT DISTINCT server FROM conversation WHERE server LIKE '%@%'")
      where ServerEndpoint.redacted(server) != server {
        try db.execute(
          sql: "UPDATE conversation SET server = ? WHERE server = ?",
          arguments: [ServerEndpoint.redacted(server), server])
      }
      var touched: Set<Int64> = []
      for row in try Row.fetchAll(
        db, sql: "SELECT id, conversation_id, text FROM entry WHERE text LIKE '%://%@%'")
      {
        let text: String = row["text"]
        guard ServerEndpoint.redacted(text) != text else { continue }
        try db.execute(
          sql: "UPDATE entry SET text = ? WHERE id = ?",
          arguments: [ServerEndpoint.redacted(text), row["id"] as Int64])
        touched.insert(row["conversation_id"])
      }
      for conversation in touched {
        try db.execute(
          sql: "DELETE FROM entry_search WHERE rowid >= ? AND rowid < ?",
          arguments: [conversation << Self.entryBits, (conversation + 1) << Self.entryBits])
        let rows = try Row.fetchAll(
          db, sql: "SELECT * FROM entry WHERE conversation_id = ? ORDER BY id",
          arguments: [conversation])
        for (index, row) in rows.enumerated() {
          let keys = SearchText.keyText([Self.entry(row).searchText])
          guard !keys.isEmpty else { continue }
          try db.execute(
            sql: "INSERT INTO entry_search (rowid, keys) VALUES (?, ?)",
            arguments: [conversation << Self.entryBits | Int64(index), keys])
        }
      }
      if !touched.isEmpty {
        try db.execute(sql: "INSERT INTO entry_search (entry_search) VALUES ('optimize')")
      }
    }
    // A caseworker's label for a conversation (#47).
    migrator.registerMigration("v3-label") { db in
      try db.execute(sql: "ALTER TABLE conversation ADD COLUMN label TEXT")
    }
    // What was sent for a line read before it was sent (#48); `text` keeps it as typed.
    migrator.registerMigration("v4-sent") { db in
      try db.execute(sql: "ALTER TABLE entry ADD COLUMN sent TEXT")
    }
    return migrator
  }

  /// Starts a conversation; its number.
  public func begin(
    server: String?, sender: String, language: Language, at date: Date = Date()
  ) throws(DirectoryError) -> Int64 {
    try write { db in
      try db.execute(
        sql: """
          INSERT INTO conversation (started_at, updated_at, server, sender, language)
          VALUES (?, ?, ?, ?, ?)
          """,
        arguments: [
          date.timeIntervalSince1970, date.timeIntervalSince1970, server, sender,
          language.rawValue,
        ])
      return db.lastInsertedRowID
    }
  }

  /// Adds what was just shown, in one transaction.
  public func append(_ entry: HistoryEntry, to conversation: Int64) throws(DirectoryError) {
    try appendAll([entry], to: conversation)
  }

  /// Entries in one transaction: the chat writes each as it is shown (`append`);
  /// many at once fill a history to measure (`make bench`).
  public func appendAll(_ entries: [HistoryEntry], to conversation: Int64) throws(DirectoryError) {
    // Encoded before the write lock is taken.
    let rows = entries.map { entry in
      (
        entry,
        entry.messages.isEmpty ? nil : HistoryEntry.rasaJSON(entry.messages).compactText,
        entry.contacts.isEmpty
          ? nil
          : (try? JSONEncoder().encode(entry.contacts)).map { String(decoding: $0, as: UTF8.self) },
        SearchText.keyText([entry.searchText]), Self.topic(of: entry)
      )
    }
    try write { db in
      for (entry, messages, contacts, keys, topic) in rows {
        try db.execute(
          sql: """
            INSERT INTO entry
              (conversation_id, at, kind, language, text, chose, messages, contacts, sent)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
          arguments: [
            conversation, entry.at.timeIntervalSince1970, entry.kind.rawValue,
            entry.language.rawValue, entry.text, entry.chose, messages, contacts, entry.sent,
          ])
        if !keys.isEmpty {
          try db.execute(
            sql: "INSERT INTO entry_search (rowid, keys) VALUES (?, ?)",
            arguments: [try Self.searchRow(conversation, db), keys])
        }
        // A line typed names the conversation over the bot's first words (marked `…`).
        try db.execute(
          sql: """
            UPDATE conversation SET updated_at = ?, entries = entries + 1,
              topic = CASE WHEN ? IS NOT NULL AND (topic = '' OR (? AND topic LIKE '…%'))
                THEN ? ELSE topic END
            WHERE id = ?
            """,
          arguments: [
            entry.at.timeIntervalSince1970, topic, entry.kind == .user, topic, conversation,
          ])
      }
    }
  }

  /// The full-text row of the entry about to be added: the conversation's number in
  /// the high bits, the entry's place in it in the low 24. A search then reads the
  /// conversations off the index alone (`rowid >> 24`), never a row of text.
  static let entryBits: Int64 = 24

  static func searchRow(_ conversation: Int64, _ db: Database) throws -> Int64 {
    let entries =
      try Int64.fetchOne(
        db, sql: "SELECT entries FROM conversation WHERE id = ?", arguments: [conversation]) ?? 0
    return conversation << entryBits | (entries & ((1 << entryBits) - 1))
  }

  /// A conversation's topic from an entry: the user's first line (a `/command`
  /// names none), else the bot's first words, marked `…` so a line typed later
  /// takes its place.
  static func topic(of entry: HistoryEntry) -> String? {
    switch entry.kind {
    case .user:
      // A button chosen by its number is named by its title; a line read before it was
      // sent by what was sent (#48).
      let line = (entry.chose ?? entry.sent ?? entry.text).trimmingWhitespace()
      guard !line.isEmpty, !line.hasPrefix("/"), !line.allSatisfy(\.isNumber) else { return nil }
      return String(line.prefix(80))
    case .bot:
      guard let text = entry.messages.lazy.compactMap(\.text).first(where: { !$0.isEmpty })
      else { return nil }
      let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
      return "…" + line.prefix(80)
    default:
      return nil
    }
  }

  /// Conversations, the latest first.
  public func conversations(limit: Int = 50, server: String?? = nil) throws(DirectoryError)
    -> [HistoryConversation]
  {
    try read { db in
      var sql = "SELECT * FROM conversation"
      var arguments: StatementArguments = []
      if let server {
        sql += server == nil ? " WHERE server IS NULL" : " WHERE server = ?"
        if let server { arguments += [server] }
      }
      sql += " ORDER BY updated_at DESC, id DESC LIMIT ?"
      arguments += [limit]
      return try Row.fetchAll(db, sql: sql, arguments: arguments).map(Self.conversation)
    }
  }

  public func conversation(_ id: Int64) throws(DirectoryError) -> HistoryConversation? {
    try read { db in
      try Row.fetchOne(db, sql: "SELECT * FROM conversation WHERE id = ?", arguments: [id])
        .map(Self.conversation)
    }
  }

  public func count() throws(DirectoryError) -> Int {
    try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM conversation") ?? 0 }
  }

  static func conversation(_ row: Row) -> HistoryConversation {
    HistoryConversation(
      id: row["id"], startedAt: Date(timeIntervalSince1970: row["started_at"]),
      updatedAt: Date(timeIntervalSince1970: row["updated_at"]), server: row["server"],
      sender: row["sender"], language: Language(rawValue: row["language"]) ?? .en,
      topic: row["topic"], entries: row["entries"], label: row["label"])
  }

  /// The full-text row of a conversation's label: the last of its rows, which no
  /// entry reaches (an entry's row is its place, counted from 0).
  static func labelRow(_ conversation: Int64) -> Int64 {
    conversation << entryBits | ((1 << entryBits) - 1)
  }

  /// Labels a conversation (nil or empty: no label); its words are searched as its
  /// entries' are.
  public func setLabel(_ label: String?, of conversation: Int64) throws(DirectoryError) {
    let label = label.map { String($0.trimmingWhitespace().prefix(200)) }.flatMap {
      $0.isEmpty ? nil : $0
    }
    let keys = label.map { SearchText.keyText([$0]) } ?? ""
    try write { db in
      try db.execute(
        sql: "UPDATE conversation SET label = ? WHERE id = ?", arguments: [label, conversation])
      try db.execute(
        sql: "DELETE FROM entry_search WHERE rowid = ?", arguments: [Self.labelRow(conversation)])
      if !keys.isEmpty {
        try db.execute(
          sql: "INSERT INTO entry_search (rowid, keys) VALUES (?, ?)",
          arguments: [Self.labelRow(conversation), keys])
      }
    }
  }

  /// A conversation's entries, in order; the last `tail` when given.
  public func entries(of conversation: Int64, tail: Int? = nil) throws(DirectoryError)
    -> [HistoryEntry]
  {
    try read { db in
      let rows: [Row]
      if let tail {
        rows = try Row.fetchAll(
          db,
          sql: """
            SELECT * FROM (SELECT * FROM entry WHERE conversation_id = ? ORDER BY id DESC LIMIT ?)
            ORDER BY id
            """, arguments: [conversation, tail])
      } else {
        rows = try Row.fetchAll(
          db, sql: "SELECT * FROM entry WHERE conversation_id = ? ORDER BY id",
          arguments: [conversation])
      }
      return rows.map(Self.entry)
    }
  }

  static func entry(_ row: Row) -> HistoryEntry {
    var entry = HistoryEntry(
      kind: HistoryEntry.Kind(rawValue: row["kind"]) ?? .user,
      at: Date(timeIntervalSince1970: row["at"]),
      language: Language(rawValue: row["language"]) ?? .en, text: row["text"])
    entry.chose = row["chose"]
    entry.sent = row["sent"]
    if let messages: String = row["messages"],
      let reply = try? BotReplyDecoder.decode(Data(utf8Of: messages))
    {
      entry.messages = reply.messages
    }
    if let contacts: String = row["contacts"],
      let decoded = try? JSONDecoder().decode([String: Contact].self, from: Data(utf8Of: contacts))
    {
      entry.contacts = decoded
    }
    return entry
  }

  /// Every line typed in the conversations kept (those last added to before `before`).
  public func typedLines(before: Date? = nil) throws(DirectoryError) -> Set<String> {
    try read { db in
      guard let before else {
        return try String.fetchSet(db, sql: "SELECT DISTINCT text FROM entry WHERE kind = 'user'")
      }
      return try String.fetchSet(
        db,
        sql: """
          SELECT DISTINCT entry.text FROM entry JOIN conversation ON conversation.id = entry.conversation_id
          WHERE entry.kind = 'user' AND conversation.updated_at < ?
          """, arguments: [before.timeIntervalSince1970])
    }
  }

  /// A conversation found by a search: it, and its entry that matched most words.
  public struct Hit: Sendable, Hashable {
    public var conversation: HistoryConversation
    /// The line of `entry` that has most of the words.
    public var line: String
    public var entry: HistoryEntry
  }

  /// Conversations with every word of `query` (as a key, by a word it starts, by
  /// an inflection, or a typo or two away), the latest first.
  public func search(
    _ query: String, limit: Int = 20, preferring layout: KeyboardLayout = .russian
  ) throws(DirectoryError) -> [Hit] {
    let found = try search(keys: SearchText.keys(query), limit: limit)
    guard found.isEmpty else { return found }
    // Typed with the other keyboard layout on, all of it or some words (`cnhf[jdrf`,
    // `ghjljd;tyyz посвідки`): read as contacts, guides and buttons read a query
    // (`KeyboardLayout.readings`), chunk by chunk against the history's own words.
    let readings = try read { db in
      KeyboardLayout.readings(of: query, preferring: layout) { chunk in
        try? Self.strength(of: chunk, db)
      }
    }
    for reading in readings {
      let read = try search(keys: SearchText.keys(reading), limit: limit)
      if !read.isEmpty { return read }
    }
    return []
  }

  /// How well a chunk's words are in the index (`KeyVocabulary.Match`, the worst of
  /// its words' best matches); nil when a word matches nothing.
  static func strength(of chunk: String, _ db: Database) throws -> Int? {
    let keys = SearchText.keys(chunk).filter { !$0.isEmpty }
    guard !keys.isEmpty else { return nil }
    var worst = KeyVocabulary.Match.exact
    for key in keys {
      let terms = try terms(matching: key, db)
      guard !terms.isEmpty else { return nil }
      let match: KeyVocabulary.Match =
        terms.contains(key) ? .exact : terms.contains { $0.hasPrefix(key) } ? .prefix : .typo
      worst = max(worst, match)
    }
    return worst.rawValue
  }

  private func search(keys: [String], limit: Int) throws(DirectoryError) -> [Hit] {
    let words = Array(Set(keys)).filter { !$0.isEmpty }
    guard !words.isEmpty else { return [] }
    return try read { db in
      // Each word's terms, and the conversations that have any of them: SQLite finds
      // the distinct conversations, one query a word.
      var termSets: [Set<String>] = []
      var conversations: Set<Int64>?
      for typed in words {
        let terms = try Self.terms(matching: typed, db)
        guard !terms.isEmpty else { return [] }
        termSets.append(Set(terms))
        let match = terms.map { "\"\($0)\"" }.joined(separator: " OR ")
        // Rows come in rowid order, so a conversation's are together: no sort to make
        // them distinct.
        var found = Set<Int64>()
        var last: Int64 = -1
        let rows = try Int64.fetchCursor(
          db, sql: "SELECT rowid FROM entry_search WHERE entry_search MATCH ?", arguments: [match])
        while let rowid = try rows.next() {
          let conversation = rowid >> Self.entryBits
          if conversation != last {
            found.insert(conversation)
            last = conversation
          }
        }
        conversations = conversations.map { $0.intersection(found) } ?? found
        if conversations?.isEmpty == true { return [] }
      }
      // One argument however many conversations matched (SQLite limits their number).
      // The latest `candidates` are ranked; the best `limit` are given.
      let ids = JSONValue.array((conversations ?? []).map { .number(Double($0)) }).compactText
      let found = try Row.fetchAll(
        db,
        sql: """
          SELECT * FROM conversation WHERE id IN (SELECT value FROM json_each(?))
          ORDER BY updated_at DESC, id DESC LIMIT ?
          """, arguments: [ids, max(limit, Self.rankedCandidates)])
      let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM conversation") ?? 0
      var shared: [String: Int] = [:]
      // In how many conversations the bot said exactly this (a menu every one starts with).
      func sharedBy(_ messages: String) throws -> Int {
        if let known = shared[messages] { return known }
        let count =
          try Int.fetchOne(
            db, sql: "SELECT COUNT(DISTINCT conversation_id) FROM entry WHERE messages = ?",
            arguments: [messages]) ?? 1
        shared[messages] = count
        return count
      }
      let ranked = try found.map { row -> (hit: Hit, score: Double) in
        let conversation = Self.conversation(row)
        // The entry of it that matches best: most of the words, in what the user typed
        // over what the bot said, and in what the bot said to few conversations over a
        // menu it shows to most (#47: every conversation starts with "Health insurance").
        let entries = try Row.fetchAll(
          db, sql: "SELECT * FROM entry WHERE conversation_id = ? ORDER BY id",
          arguments: [conversation.id])
        var best = entries.first
        var bestCount = 0
        var bestScore = 0.0
        // Each word found as typed counts 1, found otherwise (a start, an inflection, a
        // typo) 0.5: an exact case number or name ranks over a near one.
        for entry in entries {
          // The stored text and messages as they are (their JSON's own words do not
          // match a query's): only the best entry is decoded.
          let raw = [entry["text"], entry["messages"], entry["contacts"]].compactMap {
            $0 as String?
          }
          .joined(separator: " ")
          let keys = Set(SearchText.keys(raw))
          let count = termSets.count { !$0.isDisjoint(with: keys) }
          guard count > 0 else { continue }
          let matched = Self.matched(words: words, termSets: termSets, keys: keys)
          var weight = (entry["kind"] as String?) == HistoryEntry.Kind.user.rawValue ? 3.0 : 1.0
          if let messages = entry["messages"] as String?, total > 2 {
            let share = Double(try sharedBy(messages)) / Double(total)
            if share > 0.5 { weight *= 0.2 }
          }
          let score = matched * weight
          if score > bestScore {
            best = entry
            bestCount = count
            bestScore = score
          }
        }
        var shown =
          best.map(Self.entry)
          ?? HistoryEntry(kind: .user, at: conversation.startedAt, language: conversation.language)
        // Found by its label more than by any entry: the label is the line shown.
        if let label = conversation.label,
          termSets.count(where: { !$0.isDisjoint(with: Set(SearchText.keys(label))) }) > bestCount
        {
          let keys = Set(SearchText.keys(label))
          bestScore = max(bestScore, Self.matched(words: words, termSets: termSets, keys: keys) * 3)
          shown = HistoryEntry(
            kind: .user, at: conversation.startedAt, language: conversation.language, text: label)
        }
        // The line of it with most of the words: an address, not the card's name.
        let lines = shown.searchText.split(whereSeparator: \.isNewline).map(String.init)
        let line =
          lines.max { a, b in
            let (left, right) = (Set(SearchText.keys(a)), Set(SearchText.keys(b)))
            return termSets.count { !$0.isDisjoint(with: left) }
              < termSets.count { !$0.isDisjoint(with: right) }
          } ?? shown.text
        return (Hit(conversation: conversation, line: line, entry: shown), bestScore)
      }
      // The best matches first; among equals, the latest (the order they came in).
      return Array(
        ranked.enumerated().sorted { left, right in
          left.element.score != right.element.score
            ? left.element.score > right.element.score : left.offset < right.offset
        }.prefix(limit).map(\.element.hit))
    }
  }

  /// How well `keys` hold the query's `words`: 1 for each found as typed, 0.5 for
  /// each found through one of its `termSets`' other terms.
  static func matched(words: [String], termSets: [Set<String>], keys: Set<String>) -> Double {
    zip(words, termSets).reduce(0) { total, pair in
      total + (keys.contains(pair.0) ? 1 : pair.1.isDisjoint(with: keys) ? 0 : 0.5)
    }
  }

  /// How many of the latest matching conversations a search ranks.
  static let rankedCandidates = 200

  /// The index's words a query word matches: itself; words it starts (three
  /// letters or more); words that share all of it but its ending (an inflection:
  /// `strachovku`, `strachovka`); words a typo or two away (`strakhovku`).
  static func terms(matching word: String, _ db: Database) throws -> [String] {
    guard let first = word.unicodeScalars.first else { return [] }
    let typos = EditDistance.allowedTypos(letters: word.count)
    let stemLength = word.count >= 5 ? max(4, word.count - 2) : word.count
    let stem = String(word.prefix(stemLength))
    // Terms starting with the word's first letter: typos are not looked for there.
    let start = String(Character(first))
    let end = UnicodeScalar(first.value + 1).map { String(Character($0)) } ?? "\u{10FFFF}"
    let candidates = try String.fetchAll(
      db, sql: "SELECT term FROM entry_terms WHERE term >= ? AND term < ?",
      arguments: [start, end])
    // A number (a case number, an office's id, a date) is itself or a start of one:
    // never a typo away, nor with its last digits as an ending (20261042 is not 20261043).
    if word.allSatisfy(\.isNumber) {
      return candidates.filter { $0 == word || (word.count >= 3 && $0.hasPrefix(word)) }
    }
    return candidates.filter { term in
      if term == word || (word.count >= 3 && term.hasPrefix(word))
        || (stemLength < word.count && term.hasPrefix(stem))
      {
        return true
      }
      guard typos > 0, abs(term.count - word.count) <= typos + 2 else { return false }
      if EditDistance.within(word, term, bound: typos) != nil { return true }
      // An inflected form with a typo: the word against the term's start.
      return term.count > word.count
        && EditDistance.within(word, String(term.prefix(word.count)), bound: typos) != nil
    }
  }

  /// Forgets conversations, leaving no trace in the file; how many.
  public enum Forget: Sendable, Hashable {
    case conversation(Int64)
    case before(Date)
    case all
  }

  @discardableResult
  public func forget(_ what: Forget) throws(DirectoryError) -> Int {
    let removed = try write { db in
      try db.execute(sql: "PRAGMA secure_delete = ON")
      let ids: [Int64]
      switch what {
      case .conversation(let id):
        ids = try Int64.fetchAll(
          db, sql: "SELECT id FROM conversation WHERE id = ?", arguments: [id])
      case .before(let date):
        ids = try Int64.fetchAll(
          db, sql: "SELECT id FROM conversation WHERE updated_at < ?",
          arguments: [date.timeIntervalSince1970])
      case .all:
        ids = try Int64.fetchAll(db, sql: "SELECT id FROM conversation")
      }
      for id in ids {
        try db.execute(
          sql: "DELETE FROM entry_search WHERE rowid >= ? AND rowid < ?",
          arguments: [id << Self.entryBits, (id + 1) << Self.entryBits])
        try db.execute(sql: "DELETE FROM entry WHERE conversation_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM conversation WHERE id = ?", arguments: [id])
      }
      // Deleted terms stay in the full-text index's segments until they are merged.
      if !ids.isEmpty {
        try db.execute(sql: "INSERT INTO entry_search (entry_search) VALUES ('optimize')")
      }
      return ids.count
    }
    // The rows are gone (their pages zeroed by secure_delete). Vacuuming and emptying
    // the log can find another process reading: then the next forget or chat does it.
    if removed > 0 { try? scrub() }
    return removed
  }

  /// The file rewritten without its free pages, and the log emptied: the text of
  /// what was forgotten is nowhere in it.
  func scrub() throws(DirectoryError) {
    do {
      try database.vacuum()
      if path != nil {
        try database.writeWithoutTransaction { db in
          _ = try db.checkpoint(.truncate)
        }
      }
    } catch {
      throw SQLiteSettings.directoryError(error)
    }
  }

  /// `history: {keep_days: N}`: conversations not added to in N days are forgotten.
  @discardableResult
  public func prune(keepDays: Int, now: Date = Date()) throws(DirectoryError) -> Int {
    try forget(.before(now.addingTimeInterval(-Double(keepDays) * 86_400)))
  }

  private func read<T>(_ body: (Database) throws -> T) throws(DirectoryError) -> T {
    do {
      return try database.read(body)
    } catch {
      throw SQLiteSettings.directoryError(error)
    }
  }

  private func write<T>(_ body: (Database) throws -> T) throws(DirectoryError) -> T {
    do {
      return try database.write(body)
    } catch {
      throw SQLiteSettings.directoryError(error)
    }
  }
}
