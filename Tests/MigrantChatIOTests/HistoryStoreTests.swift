import Foundation
import GRDB
import MigrantChatCore
import TestSupport
import Testing

@testable import MigrantChatIO

@Suite struct HistoryStoreTests {
  let home = TemporaryDirectory()

  func store() throws -> HistoryStore { try HistoryStore.open(path: home.path + "/c.sqlite") }

  static let day = Date(timeIntervalSince1970: 1_790_000_000)

  /// A conversation as the chat writes it: read back as it was shown.
  @Test func whatWasShownIsReadBack() throws {
    let history = try store()
    let id = try history.begin(server: "http://bot", sender: "s1", language: .ru, at: Self.day)
    var contact = Contact(id: 138_508, name: "Центр помощи")
    contact.city = "Брно"
    try history.append(
      HistoryEntry(
        kind: .bot, at: Self.day, language: .ru, messages: [BotMessage(text: "Здравствуйте!")]),
      to: id)
    try history.append(
      HistoryEntry(kind: .user, at: Self.day, language: .ru, text: "нужна страховка"), to: id)
    let answer = BotMessage(
      text: "С медицинской страховкой помогут:",
      buttons: [Button(title: "Назад", payload: "/back")],
      custom: .object(["contacts": .array([.number(138_508)])]))
    try history.append(
      HistoryEntry(
        kind: .bot, at: Self.day.addingTimeInterval(5), language: .ru, messages: [answer],
        contacts: ["138508": contact]), to: id)
    let conversation = try #require(try history.conversation(id))
    #expect(conversation.topic == "нужна страховка", "a line typed names it, not the greeting")
    #expect(conversation.entries == 3 && conversation.server == "http://bot")
    let entries = try history.entries(of: id)
    #expect(entries.map(\.kind) == [.bot, .user, .bot])
    #expect(entries[2].messages == [answer])
    #expect(entries[2].contacts["138508"]?.name == "Центр помощи")
    #expect(try history.entries(of: id, tail: 1).map(\.kind) == [.bot])
    #expect(try history.conversations().map(\.id) == [id])
    #expect(try history.conversations(server: .some(nil)).isEmpty, "none offline")
  }

  /// A menu every conversation starts with matches weakly; what a user typed, and what
  /// the bot told few conversations, match strongly, and that line is the one shown (#47).
  @Test func searchRanksWhatWasTypedOverAMenuEveryConversationShows() throws {
    let history = try store()
    let menu = BotMessage(
      text: "What do you need help with?",
      buttons: [Button(title: "Health insurance", payload: "/health"), Button(title: "Housing")])
    var ids: [Int64] = []
    for (index, typed) in ["housing", "health insurance for my wife", "schools", "work"]
      .enumerated()
    {
      let at = Self.day.addingTimeInterval(Double(index) * 60)
      let id = try history.begin(server: nil, sender: "s\(index)", language: .en, at: at)
      try history.append(HistoryEntry(kind: .bot, at: at, language: .en, messages: [menu]), to: id)
      try history.append(HistoryEntry(kind: .user, at: at, language: .en, text: typed), to: id)
      if index == 0 {
        try history.append(
          HistoryEntry(
            kind: .bot, at: at, language: .en,
            messages: [BotMessage(text: "A tenant needs insurance of the household too.")]),
          to: id)
      }
      ids.append(id)
    }
    let hits = try history.search("insurance")
    #expect(hits.count == 4, "every conversation has the menu")
    #expect(hits.first?.conversation.id == ids[1], "typed: \(hits.map(\.conversation.id))")
    #expect(hits.first?.line == "health insurance for my wife")
    #expect(hits.dropFirst().first?.conversation.id == ids[0], "the bot's own advice next")
    #expect(hits.dropFirst().first?.line == "A tenant needs insurance of the household too.")
  }

  /// A case number or a name as typed ranks over a near one (a caseworker's script takes
  /// the first hit), and a number is never a typo away from another (#47).
  @Test func anExactNumberOrNameRanksFirst() throws {
    let history = try store()
    var ids: [Int64] = []
    for (index, label) in ["Mykola, case 20261042 Мария", "Halyna, case 20261043 Марина"]
      .enumerated()
    {
      let at = Self.day.addingTimeInterval(Double(index) * 60)
      let id = try history.begin(server: nil, sender: "s\(index)", language: .uk, at: at)
      try history.append(HistoryEntry(kind: .user, at: at, language: .uk, text: "житло"), to: id)
      try history.setLabel(label, of: id)
      ids.append(id)
    }
    #expect(try history.search("20261042").map(\.conversation.id) == [ids[0]])
    #expect(try history.search("20261044").isEmpty, "no number two digits off")
    #expect(try history.search("2026104").map(\.conversation.id) == [ids[1], ids[0]], "a start")
    let names = try history.search("Мария")
    #expect(names.first?.conversation.id == ids[0], "\(names.map(\.conversation.id))")
    #expect(names.first?.line == "Mykola, case 20261042 Мария")
  }

  /// Search reads scripts, inflections and typos as the contact search does.
  @Test func searchFindsWordsAsPeopleTypeThem() throws {
    let history = try store()
    let insurance = try history.begin(server: nil, sender: "a", language: .ru, at: Self.day)
    try history.append(
      HistoryEntry(kind: .user, at: Self.day, language: .ru, text: "где купить страховку"),
      to: insurance)
    let housing = try history.begin(server: nil, sender: "b", language: .en, at: Self.day)
    try history.append(
      HistoryEntry(
        kind: .bot, at: Self.day, language: .en,
        messages: [BotMessage(text: "Always sign a written rental contract.")]), to: housing)
    for query in [
      "страховку", "strakhovku", "strahovku", "страховка", "СТРАХОВКУ купить", "stra", "cnhf[jdre",
    ] {
      #expect(try history.search(query).map(\.conversation.id) == [insurance], "\(query)")
    }
    #expect(try history.search("rental contract").map(\.conversation.id) == [housing])
    #expect(try history.search("rentl").map(\.conversation.id) == [housing])
    #expect(try history.search("страховку rental").isEmpty, "every word, in one conversation")
    #expect(try history.search("").isEmpty)
    #expect(try history.search("zzzz").isEmpty)
    // A letter or two is a word of its own, not the start of every word.
    #expect(try history.search("r").isEmpty)
    #expect(try history.search("страховку").first?.entry.text == "где купить страховку")
    // Some words typed with the other layout on: read chunk by chunk, as contacts,
    // guides and buttons read a query (a whole-text switch garbles the Cyrillic word).
    #expect(
      try history.search("regbnm cnhf[jdre").map(\.conversation.id) == [insurance],
      "both words in the other layout")
    #expect(
      try history.search("regbnm страховку").map(\.conversation.id) == [insurance],
      "one word in the other layout, one as meant")
  }

  /// A file an older version wrote kept a server's password (its address, a failure's
  /// words): opened now, it is `***` there and gone from the search index.
  @Test func passwordsKeptByAnOlderVersionAreTakenOut() throws {
    let path = home.path + "/old.sqlite"
    do {
      let queue = try DatabaseQueue(path: path)
      try HistoryStore.migrator.migrate(queue, upTo: "v1")
      try queue.write { db in
        try db.execute(
          sql: """
            INSERT INTO conversation (id, started_at, updated_at, server, sender, language, entries)
            VALUES (1, 0, 0, 'http://ana:hunter2pass@bot.example:5005', 's', 'en', 1);
            INSERT INTO entry (conversation_id, at, kind, language, text)
            VALUES (1, 0, 'failure', 'en', 'Cannot reach http://ana:hunter2pass@bot.example:5005');
            INSERT INTO entry_search (rowid, keys) VALUES (1 << 24, 'cannot reach http ana hunter2pass');
            """)
      }
    }
    let history = try HistoryStore.open(path: path)
    let conversation = try #require(try history.conversation(1))
    #expect(conversation.server == "http://ana:***@bot.example:5005")
    #expect(
      try history.entries(of: 1).first?.text == "Cannot reach http://ana:***@bot.example:5005")
    #expect(try history.search("hunter2pass").isEmpty)
    #expect(try history.search("reach").map(\.conversation.id) == [1])
  }

  /// A history that gives up at once on a busy file, as the chat would after its 30 s,
  /// and a second connection to hold the file's write lock as another process would.
  func busyStore(_ name: String) throws -> (HistoryStore, DatabaseQueue) {
    let path = home.path + "/" + name
    var configuration = Configuration()
    configuration.busyMode = .immediateError
    let history = try HistoryStore(
      database: try DatabasePool(path: path, configuration: configuration), path: path)
    var held = Configuration()
    held.allowsUnsafeTransactions = true
    return (history, try DatabaseQueue(path: path, configuration: held))
  }

  /// A failed write (another process holds the file) does not turn the history off:
  /// it is said once, and what it could not keep is written with the next entries.
  @Test func aFailedWriteIsTriedAgainWithTheNext() throws {
    let (history, holder) = try busyStore("busy.sqlite")
    let chat = ChatHistory(store: history, server: nil, sender: "s")
    #expect(chat.record(line: "hello", events: [], language: .en) == nil)
    try holder.inDatabase { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
    let warning = chat.record(
      line: nil, events: [.reply(BotReply(messages: [BotMessage(text: "Hi there")]))],
      language: .en)
    #expect(
      warning?.contains("tried again with your next line") == true,
      "\(String(describing: warning))")
    #expect(chat.record(line: "second", events: [], language: .en) == nil, "said once")
    try holder.inDatabase { db in try db.execute(sql: "COMMIT") }
    #expect(chat.record(line: "third", events: [], language: .en) == nil)
    let id = try #require(chat.conversation)
    #expect(
      try history.entries(of: id).map {
        $0.text.isEmpty ? ($0.messages.first?.text ?? "") : $0.text
      }
        == ["hello", "Hi there", "second", "third"])
  }

  /// The chat ending with a line a failed write held back for the next one: it is tried
  /// once more (the process ends next), and a store still locked says so at once.
  @Test func heldLinesAreTriedOnceMoreAtTheEnd() throws {
    let (history, holder) = try busyStore("held.sqlite")
    let chat = ChatHistory(store: history, server: nil, sender: "s")
    #expect(chat.flush(language: .en) == nil, "nothing held")
    #expect(chat.record(line: "hello", events: [], language: .en) == nil)
    try holder.inDatabase { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
    #expect(chat.record(line: "last words", events: [], language: .en) != nil)
    let warning = chat.flush(language: .uk)
    #expect(
      warning?.contains("Останні рядки цієї розмови") == true, "\(String(describing: warning))")
    try holder.inDatabase { db in try db.execute(sql: "COMMIT") }
    #expect(chat.flush(language: .en) == nil)
    let id = try #require(chat.conversation)
    #expect(try history.entries(of: id).map(\.text) == ["hello", "last words"])
  }

  /// A number typed at a question without buttons chose nothing: it was sent as text,
  /// not as a button of an older answer (which the export would make a `button:` step).
  @Test func aNumberAtAQuestionWithoutButtonsChoseNothing() throws {
    let history = try store()
    let chat = ChatHistory(store: history, server: nil, sender: "s")
    let menu = BotMessage(
      text: "Which city?",
      buttons: [Button(title: "Praha", payload: "/praha"), Button(title: "Brno", payload: "/brno")])
    _ = chat.record(line: nil, events: [.reply(BotReply(messages: [menu]))], language: .en)
    _ = chat.record(
      line: "2", events: [.reply(BotReply(messages: [BotMessage(text: "How many seats?")]))],
      language: .en)
    _ = chat.record(
      line: "2", events: [.reply(BotReply(messages: [BotMessage(text: "Booked.")]))],
      language: .en)
    let id = try #require(chat.conversation)
    let typed = try history.entries(of: id).filter { $0.kind == .user }
    #expect(typed.map(\.chose) == ["Brno", nil], "\(typed)")
  }

  /// Forgetting leaves the text nowhere in the file or its log; the rest stays.
  @Test func forgettingLeavesNoTrace() throws {
    let history = try store()
    let secret = try history.begin(server: nil, sender: "a", language: .uk, at: Self.day)
    try history.append(
      HistoryEntry(kind: .user, at: Self.day, language: .uk, text: "моя посвідка Qzwxyvutsr"),
      to: secret)
    let kept = try history.begin(
      server: nil, sender: "b", language: .en, at: Self.day.addingTimeInterval(86_400 * 10))
    try history.append(
      HistoryEntry(
        kind: .user, at: Self.day.addingTimeInterval(86_400 * 10), language: .en, text: "housing"),
      to: kept)
    func onDisk() throws -> Data {
      var data = Data()
      for suffix in ["", "-wal", "-shm"] {
        data +=
          (try? Data(contentsOf: URL(fileURLWithPath: home.path + "/c.sqlite" + suffix))) ?? Data()
      }
      return data
    }
    #expect(try onDisk().range(of: Data("посвідка".utf8)) != nil, "written before")
    #expect(try history.forget(.conversation(secret)) == 1)
    let data = try onDisk()
    for trace in [
      "Qzwxyvutsr", SearchText.key("Qzwxyvutsr"), "посвідка", SearchText.key("посвідка"),
    ] {
      #expect(data.range(of: Data(trace.utf8)) == nil, "\(trace) is still in the file")
    }
    #expect(try history.search("qzwxyvutsr").isEmpty)
    #expect(try history.conversations().map(\.id) == [kept])
    #expect(try history.prune(keepDays: 5, now: Self.day.addingTimeInterval(86_400 * 12)) == 0)
    #expect(try history.prune(keepDays: 1, now: Self.day.addingTimeInterval(86_400 * 12)) == 1)
    #expect(try history.count() == 0)
    #expect(try history.forget(.all) == 0)
  }

  /// Bot messages keep every part the renderer shows.
  @Test func messagesRoundTripThroughRasasJSON() throws {
    let messages = [
      BotMessage(
        text: "t",
        buttons: [Button(title: "a", payload: "/a"), Button(title: "w", url: "https://x")],
        image: "https://i.png", custom: .object(["contacts": .array([.string("7")])])),
      BotMessage(elements: [
        CardElement(title: "e", subtitle: "s", buttons: [Button(title: "b", payload: "/b")])
      ]),
    ]
    let json = HistoryEntry.rasaJSON(messages).compactText
    let decoded = try BotReplyDecoder.decode(Data(json.utf8))
    #expect(decoded.messages == messages)
  }
}
