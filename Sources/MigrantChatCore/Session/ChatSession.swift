/// The conversation's state machine: a line in, events out.
///
/// It owns the sender id, the language and the buttons a number refers to,
/// and talks to the bot through a `ChatTransport`. It does no terminal I/O;
/// the caller renders the events. Cancelling the calling task cancels the
/// request in flight and leaves the conversation as it was.
public actor ChatSession {
  public private(set) var language: Language
  public private(set) var senderID: String
  /// Buttons of the latest answer, across its messages: what a typed number picks (none
  /// when that answer offered none).
  public internal(set) var choices: [Button] = []
  /// Turns that got no answer (a network or server error, a directory that failed).
  public private(set) var failedTurns = 0
  /// Lines that could not be used: a button number that does not exist, `/lang xx`,
  /// `/fav` without an id. Nothing was sent for them.
  public private(set) var unusableLines = 0
  /// The conversation so far, for `--record` and `/save`: each recorded line and its answer.
  public private(set) var log: [RecordedTurn] = []
  /// The answer to the start message, for the transcript's header.
  public private(set) var startReply: [BotMessage]?
  /// The first start was answered: `startCheck()` asks the tracker what it was read as.
  private var startToCheck = false
  /// A line that was close to a button's title and asked about ("Did you mean …?").
  private var nearMiss: String?
  /// The contact ids of the latest answer that had any, for Tab completion of `/fav ID`.
  public internal(set) var shownContactIDs: [String] = []
  /// Whether this session has said what the embedded sample is (once, when first shown).
  private var sampleExplained = false

  /// The to-do list and the report desk; nil where the chat has none (replay, tests).
  let tools: ChatTools?
  /// The guide the latest answer showed (`custom.faq_item`), for `/todo save` and `/report`.
  var lastGuideID: Int64?
  /// The latest answer's messages, for `/todo add N`.
  var lastMessages: [BotMessage] = []
  /// `/report` asked for the text: the next line is it.
  var reportAwaitingText: (itemID: Int64, title: String)?
  /// The guide of the latest answer; nil when it showed none (a real bot's answer).
  var answerGuideID: Int64?
  /// A report's text typed when no guide could be named: kept for the next `/report`.
  var reportDraft: String?
  /// `/report` offered guides by number: the bot's buttons, given back once it is over.
  var reportPicking: [Button]?
  /// The id the bot keeps the conversation under when the channel chose it (socket.io
  /// without session persistence); the inspector and tracker checks ask for it.
  public internal(set) var conversationID: String?
  /// The user was told the bot does not keep the conversation past the connection.
  private var toldConversationNotKept = false
  /// Sent with every message from now on (a Rasa Pro test step's `metadata`).
  private var messageMetadata: [String: JSONValue] = [:]
  /// Reads free text before it is sent (#48); nil: every line goes as typed.
  var reader: TypedLineReader?
  /// `/lang` was offered for a line typed in Russian or Ukrainian in an English chat.
  private var languageOffered = false
  /// The line last read: typed again right after, it goes as typed.
  private var lastRead: String?
  /// The bot's words in this conversation, and the table made of them when read.
  private var botWords: Set<String> = []
  private var botWordsChanged = false
  private var botWordTable: WordTable?
  /// Words of the names and addresses of the offices shown (lowercase, folded).
  private var shownNames: Set<String> = []
  /// Answers whose words are learnt when a line is next read, not when they come: a chat
  /// that reads no other line never pays for it (a thirtieth of the first offline
  /// answer's instructions, #50).
  private var unlearnt: [(messages: [BotMessage], cards: [Contact])] = []

  /// The metadata the next messages carry, over the language (`ChatRequest.metadata`).
  /// A `language` in it is the conversation's from now on (what a bot that reads
  /// `metadata.language` answers in), as a test case's own metadata language is.
  public func setMessageMetadata(_ metadata: [String: JSONValue]) {
    messageMetadata = metadata
    if let code = metadata["language"]?.stringValue, let chosen = Language(code: code) {
      language = chosen
    }
  }
  /// The inspector shows what the bot understood after each answer.
  public internal(set) var inspecting = false

  private var transport: any ChatTransport
  let store: any SessionStore
  /// The remembered place (`/place`): `/near` and `/map` start there.
  public internal(set) var home: HomePlace?
  private let startMessage: String
  let directory: ContactDirectory?

  public init(
    transport: any ChatTransport, store: any SessionStore, language: Language,
    senderID: String, startMessage: String, directory: ContactDirectory? = nil,
    tools: ChatTools? = nil, home: HomePlace? = nil
  ) {
    self.home = home
    self.directory = directory
    self.tools = tools
    self.inspecting = tools?.inspectFromStart ?? false
    self.openingLanguage = language
    self.transport = transport
    self.store = store
    self.language = language
    self.senderID = senderID
    self.startMessage = startMessage
  }

  /// `--resume`: the buttons the last answer of the conversation gone on with offered,
  /// so a number typed chooses among them as it would have then.
  public func resume(choices: [Button]) {
    self.choices = choices
  }

  /// Talks to another bot from now on (the offline assistant when the server is
  /// unreachable); the buttons of the old one no longer apply.
  public func switchTransport(to transport: any ChatTransport) {
    self.transport = transport
    choices = []
  }

  /// Ctrl-C at the prompt: what was waiting for the next line (a report's text, the
  /// choice of its guide) is cancelled; nothing is sent, a typed report stays a draft.
  public func cancelPending() -> [ChatEvent] {
    guard reportAwaitingText != nil || reportPicking != nil else { return [] }
    reportAwaitingText = nil
    if let botChoices = reportPicking { choices = botChoices }
    reportPicking = nil
    return [.report(reportDraft == nil ? .cancelled : .keptAsDraft)]
  }

  /// Opens the chat: sends the start message, if any. `/restart` and `/new` open it
  /// again; their greeting belongs to their own step, not to the recording's opening.
  public func start() async -> [ChatEvent] {
    guard !startMessage.isEmpty else { return [] }
    let events = await inspected(explainingSample(await send(startMessage)))
    if startReply == nil && !events.contains(where: \.isFailure) {
      startReply = events.flatMap { event -> [BotMessage] in
        if case .reply(let reply, _) = event { return reply.messages }
        return []
      }
      startToCheck = true
    }
    return events
  }

  /// After the first start's answer is shown: the start message read by the bot as
  /// another intent, where the tracker shows it (a server with `--enable-api`); nothing
  /// otherwise, and nothing the second time. Apart from `start()` so the greeting is
  /// never held back by the tracker's answer.
  public func startCheck() async -> [ChatEvent] {
    guard startToCheck else { return [] }
    startToCheck = false
    guard let inspector = tools?.inspector, StartIntent.named(by: startMessage) != nil,
      case .success(let events) = await inspector.events(sender: trackerSender),
      let read = StartIntent.misread(startMessage, events: events)
    else { return [] }
    return [.notice(.startReadAs(start: startMessage, intent: read))]
  }

  /// The start message this session opens with ("" for none).
  public var opening: String { startMessage }
  /// The language the conversation began in: a recording replays from it (a `/lang` is a step).
  public nonisolated let openingLanguage: Language

  public func handle(_ line: String) async -> [ChatEvent] {
    let reading = readingToSend(line)
    lastRead = reading?.typed
    let offer = languageToOffer(line)
    var events: [ChatEvent]
    if let reading {
      events = await handle(reading.text, input: .text(reading.text), sentAs: reading)
    } else {
      events = await handle(line, input: UserInput(line: line, choices: choices))
    }
    if let offer { events.append(.notice(.offerLanguage(offer))) }
    return events
  }

  /// A line for the bot typed in Russian or Ukrainian in an English chat (`LANG=C`):
  /// `/lang` is offered, once a session; the chat never switches by itself.
  private func languageToOffer(_ line: String) -> Language? {
    guard language == .en, !languageOffered, let reader,
      case .text(let text) = UserInput(line: line, choices: choices), !reader.isEnglish(text),
      // In Cyrillic, or read from the English layout or Latin letters into Russian or
      // Ukrainian (the language of the reading's own letters and words).
      let typed = reader.cyrillicLanguage(of: text)
        ?? [Language.uk, .ru].lazy.compactMap({ reader.reading(of: text, language: $0) })
        .compactMap({ reader.cyrillicLanguage(of: $0.text) }).first
    else { return nil }
    languageOffered = true
    return typed
  }

  /// What `handle(line)` will send for `line` when it reads it first (#48): free text
  /// for the bot; not a report's text, nor a line typed again right after it was read
  /// (then it goes as typed). Nil: it goes as typed.
  public func readingToSend(_ line: String) -> LineReading? {
    guard case .text(let text) = UserInput(line: line, choices: choices),
      reportAwaitingText == nil, reportPicking == nil
    else { return nil }
    return reading(of: text, again: lastRead)
  }

  /// Lines typed for the bot are read before they are sent (`--no-rewrite` and
  /// `rewrite: false` leave them as typed): nil, never.
  public func readTypedLines(with reader: TypedLineReader?) {
    self.reader = reader
  }

  /// The reading of a line typed for the bot, nil when it goes as typed.
  private func reading(of text: String, again: String?) -> LineReading? {
    guard let reader else { return nil }
    let typed = text.trimmingWhitespace()
    guard typed != again else { return nil }
    // A button's title or payload, however typed, is never read as something else.
    let key = TitleMatch.key(typed)
    if choices.contains(where: { TitleMatch.key($0.title) == key || $0.payload == typed }) {
      return nil
    }
    for answer in unlearnt { learnWords(answer.messages, cards: answer.cards) }
    unlearnt = []
    if botWordsChanged {
      botWordTable =
        botWords.isEmpty ? nil : WordTable(words: botWords.reduce(into: [:]) { $0[$1] = 4 })
      botWordsChanged = false
    }
    let names = shownNames
    return reader.reading(
      of: typed, language: language, conversation: botWordTable,
      isName: { word in
        names.contains(TypedLineReader.folded(word.lowercased())) || KnownNames.isName(word)
      })
  }

  /// Keeps the words of an answer (the bot's words count as common words of the
  /// conversation's language) and the names and streets of its offices (kept as typed).
  private func learnWords(_ messages: [BotMessage], cards: [Contact]) {
    var texts = messages.compactMap(\.text) + messages.flatMap { $0.choices.map(\.title) }
    texts += messages.flatMap { $0.elements.map(\.title) }
    for text in texts {
      for word in text.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "'" && $0 != "ʼ" }
      )
      where word.count >= 2 && word.count <= 40 && botWords.count < Self.maxBotWords {
        if botWords.insert(String(word)).inserted { botWordsChanged = true }
      }
    }
    for contact in cards {
      for text in [contact.name, contact.address ?? "", contact.city ?? ""] {
        for word in text.lowercased().split(whereSeparator: { !$0.isLetter }) where word.count >= 3
        {
          shownNames.insert(TypedLineReader.folded(String(word)))
        }
      }
    }
  }

  /// A guard on a long conversation: the words of its first answers are enough.
  static let maxBotWords = 5_000

  /// How a transcript's step gives its line.
  public enum StepLine: Sendable {
    /// `user:` in this project's transcripts: as `UserInput(literal:)` reads it.
    case typed
    /// `button:`: a click on the title of a button the latest answer offered.
    case clicked
    /// Rasa's end-to-end files: the text goes to the bot exactly as written.
    case verbatim
    /// `read: true`: as the chat takes a line typed at its prompt, read first (#48).
    case read
  }

  /// A transcript's step: the line taken literally (never a guessed title). A line
  /// the bot is not sent (no such button, a lookup of the client's own) is an input
  /// error that says why.
  public func handle(step line: String, as kind: StepLine) async -> [ChatEvent] {
    let input: UserInput
    switch kind {
    case .read:
      return await handle(line)
    case .verbatim:
      input = line.trimmingWhitespace().isEmpty ? .empty : .text(line)
    case .clicked:
      let key = TitleMatch.key(line)
      guard let button = choices.first(where: { TitleMatch.key($0.title) == key }) else {
        unusableLines += 1
        return [.inputError(.noButtonTitled(line, titles: choices.map(\.title)))]
      }
      input = .choice(button)
    case .typed:
      input = UserInput(literal: line, choices: choices)
      if case .command = input, !Self.isRecorded(line) {
        unusableLines += 1
        return [.inputError(.notSentInTranscript(command: line.trimmingWhitespace()))]
      }
    }
    return await handle(line, input: input)
  }

  private func handle(_ line: String, input: UserInput, sentAs: LineReading? = nil) async
    -> [ChatEvent]
  {
    let offered = choices
    var events = await inspected(explainingSample(await interpret(line, input: input)))
    if let sentAs { events.insert(.notice(.sentAs(sentAs)), at: 0) }
    // The to-do list and reports are the client's own: never part of a transcript. A
    // line only asked about ("Did you mean …?") sent nothing: no step either.
    if Self.isRecorded(line) && !events.contains(where: \.isUserTool)
      && !events.contains(where: \.isQuestion)
    {
      // A transcript's line is taken literally: a button the chat read from a start of
      // its title or the other keyboard layout is written as its title.
      var typed = line.trimmingWhitespace()
      if case .choice(let button) = input,
        UserInput(literal: line, choices: offered) != .choice(button)
      {
        typed = button.title
      } else if case .layoutChoice(let button, _) = input {
        typed = button.title
      }
      let messages = events.flatMap { event -> [BotMessage] in
        if case .reply(let reply, _) = event { return reply.messages }
        return []
      }
      if !events.contains(where: \.isFailure) {
        log.append(RecordedTurn(line: typed, messages: messages))
      }
    }
    return events
  }

  /// Adds, the first time a made-up office or guide is shown, what the sample is.
  private func explainingSample(_ events: [ChatEvent]) -> [ChatEvent] {
    guard !sampleExplained else { return events }
    let showsSample = events.contains { event in
      switch event {
      case .reply(let reply, let cards):
        reply.messages.contains(where: \.isSample) || cards.found.values.contains(where: \.isSample)
      case .contactCard(let contact, _): contact.isSample
      case .nearby(let listing): listing.isSample
      case .officeMap(let map): map.isSample
      default: false
      }
    }
    guard showsSample else { return events }
    sampleExplained = true
    return events + [.notice(.aboutSample)]
  }

  /// Lines a transcript replays: what reaches the bot, and commands that change the
  /// conversation (`/lang`, `/restart`, `/new`); not the client's own lookups.
  static func isRecorded(_ line: String) -> Bool {
    switch UserInput(line: line, choices: []) {
    case .empty: false
    case .command(.restart), .command(.newConversation), .command(.language(_?)): true
    case .command: false
    default: true
    }
  }

  func interpret(_ line: String, input: UserInput) async -> [ChatEvent] {
    let askedAbout = nearMiss
    nearMiss = nil
    if let botChoices = reportPicking {
      return await pickReportGuide(line, input: input, botChoices: botChoices)
    }
    if let awaiting = reportAwaitingText {
      reportAwaitingText = nil
      switch input {
      case .empty: return [.report(.cancelled)]
      case .command: return [.report(.cancelled)] + (await interpret(line, input: input))
      default:
        return await submitReport(
          itemID: awaiting.itemID, title: awaiting.title, text: line.trimmingWhitespace())
      }
    }
    switch input {
    case .empty:
      return []
    case .nearChoice(let button, let number):
      let typed = line.trimmingWhitespace()
      // Asked once; the same line again is meant as it is.
      if askedAbout == typed { return await send(typed) }
      nearMiss = typed
      return [.notice(.didYouMean(title: button.title, number: number))]
    case .text(let text):
      return await send(text)
    case .choice(let button):
      return await choose(button)
    case .layoutChoice(let button, let reading):
      let typed = line.trimmingWhitespace()
      return [.notice(.readAs(typed: typed, text: reading))] + (await choose(button))
    case .noSuchChoice(let number, let count):
      unusableLines += 1
      return [.inputError(.noSuchChoice(number: number, count: count))]
    case .command(let command):
      return await run(command)
    }
  }

  /// A button chosen: its payload (or title) goes to the bot, but the to-do list's own.
  private func choose(_ button: Button) async -> [ChatEvent] {
    if let guide = TodoCommand.savedGuide(payload: button.payload), tools?.todos != nil {
      return await runTodo(.save(guideID: guide))
    }
    return await send(button.payload ?? button.title)
  }

  private func run(_ command: ClientCommand) async -> [ChatEvent] {
    switch command {
    case .help:
      return [.notice(.help)]
    case .quit:
      return [.quit]
    case .restart:
      choices = []
      // The reply to /restart itself is usually empty; only a failure is worth showing.
      let restart = await send("/restart", quietIfEmpty: true)
      if restart.contains(where: \.isFailure) { return restart }
      return restart + (await start())
    case .newConversation:
      choices = []
      conversationID = nil
      senderID = SenderID.random()
      var events: [ChatEvent] = [.notice(.newConversation)]
      do { try store.rememberSender(senderID) } catch {
        events.append(.saveFailed(detail: "\(error)"))
      }
      return events + (await start())
    case .language(nil):
      return [.notice(.currentLanguage(language))]
    case .language(let code?):
      guard let chosen = Language(typed: code) else {
        unusableLines += 1
        return [.inputError(.unknownLanguage(code))]
      }
      language = chosen
      var events: [ChatEvent] = [.languageChanged(chosen)]
      do { try store.rememberLanguage(chosen) } catch {
        events.append(.saveFailed(detail: "\(error)"))
      }
      return events
    case .save(nil):
      unusableLines += 1
      return [.inputError(.needsPath(command: "/save"))]
    case .save(let path?):
      return [.saveTranscript(path: path)]
    case .label(let text):
      return [.labelConversation(text)]
    case .history(nil):
      return [.showHistory(number: nil)]
    case .history(let argument?):
      guard let number = Int64(argument.trimmingWhitespace()), number > 0 else {
        unusableLines += 1
        return [.inputError(.badHistoryNumber(argument))]
      }
      return [.showHistory(number: number)]
    case .todo(let command):
      let events = await runTodo(command)
      if events.contains(where: { if case .inputError = $0 { true } else { false } }) {
        unusableLines += 1
      }
      return events
    case .inspect, .slots, .tracker, .parse:
      let events = await runInspector(command)
      if events.contains(where: { if case .inputError = $0 { true } else { false } }) {
        unusableLines += 1
      }
      return events
    case .report(let text):
      let events = await report(text)
      if events.contains(where: { if case .inputError = $0 { true } else { false } }) {
        unusableLines += 1
      }
      return events
    case .near, .map, .place:
      let events = await runPlaces(command)
      if events.contains(where: { if case .placeProblem = $0 { true } else { false } }) {
        unusableLines += 1
      }
      return events
    case .contacts, .contact, .favourite, .unfavourite, .sync:
      let events = await runDirectory(command)
      if events.contains(where: { if case .inputError = $0 { true } else { false } }) {
        unusableLines += 1
      } else if events.contains(where: \.isFailure) {
        failedTurns += 1
      }
      return events
    }
  }

  private func send(_ message: String, quietIfEmpty: Bool = false) async -> [ChatEvent] {
    let request = ChatRequest(
      sender: senderID, message: message, language: language, metadata: messageMetadata)
    do {
      var reply = try await transport.send(request)
      if let id = reply.conversationID {
        if conversationID == nil && id != senderID && !toldConversationNotKept {
          toldConversationNotKept = true
          reply.notes.append(.conversationNotKept)
        }
        conversationID = id
      }
      // Acknowledged and empty, and nothing ever on this connection: the bot is not
      // reachable this way (the session persistence trap), a failed turn.
      let silent = reply.notes.contains {
        if case .otherEvents = $0 { return true }
        return $0 == .silentSession
      }
      if silent && !quietIfEmpty { failedTurns += 1 }
      var before: [ChatEvent] = []
      if reply.notes.contains(.reconnected) { before.append(.notice(.channel(.reconnected))) }
      if !reply.late.isEmpty {
        // Contact ids become cards, as in any answer.
        let late = BotReply(messages: reply.late)
        let ids = late.messages.flatMap(\.contactIDs)
        let cards = ids.isEmpty ? nil : await directory?.cards(for: ids).cards
        before.append(.late(late, contacts: cards ?? .unresolved))
      }
      let after = reply.notes.filter { $0 != .reconnected }.map { ChatEvent.notice(.channel($0)) }
      let answer = await answerEvents(reply, quietIfEmpty: quietIfEmpty)
      return before + answer + (answer.isEmpty ? [] : after)
    } catch {
      if error != .cancelled { failedTurns += 1 }
      return [.failure(error)]
    }
  }

  /// The tracker's sender: the id the bot keeps this conversation under.
  public var trackerSender: String { conversationID ?? senderID }

  private func answerEvents(_ reply: BotReply, quietIfEmpty: Bool) async -> [ChatEvent] {
    // One answer's buttons are numbered on from message to message, as they are shown.
    // A number picks from the latest answer only: an answer without buttons (a form's
    // question) leaves none, so "50" or "1" typed at it is text for the bot, never the
    // payload of an older answer's button.
    if !reply.messages.isEmpty {
      choices = reply.messages.flatMap(\.choices)
      lastMessages = reply.messages
      answerGuideID = reply.messages.lazy.compactMap(\.guideID).first
      if let guide = answerGuideID { lastGuideID = guide }
    }
    if reply.messages.isEmpty && reply.problems.isEmpty {
      return quietIfEmpty ? [] : [.noAnswer]
    }
    if reply.messages.isEmpty { failedTurns += 1 }
    let events = await withCards(reply)
    if reader != nil {
      let cards = events.flatMap { event -> [Contact] in
        if case .reply(_, let cards) = event { return Array(cards.found.values) }
        return []
      }
      unlearnt.append((reply.messages, cards))
    }
    return events
  }
}

/// One line of a recorded conversation and the bot's messages in answer.
public struct RecordedTurn: Sendable, Hashable {
  public var line: String
  public var messages: [BotMessage]
  /// The title of the button the line chose (a number typed), when the turn was a
  /// click: written as a `button:` step, which replays by title.
  public var button: String?

  public init(line: String, messages: [BotMessage], button: String? = nil) {
    self.line = line
    self.messages = messages
    self.button = button
  }
}

extension ChatEvent {
  /// The server could not be reached at all: what the offline fallback is for.
  public var isUnreachable: Bool {
    switch self {
    case .failure(.connectionRefused), .failure(.hostNotFound), .failure(.timedOut),
      .failure(.network), .failure(.libcurlMissing):
      true
    default: false
    }
  }

  /// The to-do list's and reports' own events: never recorded in a transcript.
  var isUserTool: Bool {
    switch self {
    case .todo, .report: true
    default: false
    }
  }

  /// `/map`: kept in the history as its list, never as braille.
  public var isMap: Bool {
    if case .officeMap = self { true } else { false }
  }

  /// What came back from the bot, or that nothing did (`--bell` rings for it).
  public var isAnswer: Bool {
    switch self {
    case .failure(.cancelled): false  // Ctrl-C: the user is here
    case .reply, .noAnswer, .failure: true
    default: false
    }
  }

  /// The chat asked about the line ("Did you mean …?"): nothing was sent.
  var isQuestion: Bool {
    if case .notice(.didYouMean) = self { true } else { false }
  }

  /// A turn that did not do what was asked: counted for the exit status.
  var isFailure: Bool {
    switch self {
    case .failure, .inputError: true
    // The answer is not the bot's whole answer: never recorded as one.
    case .notice(.channel(.silentSession)), .notice(.channel(.connectionLost)),
      .notice(.channel(.otherEvents)):
      true
    case .directory(.storageFailed), .directory(.contactMissing): true
    case .directory(.synced(let outcome)): outcome.isFailure || outcome == .notConfigured
    default: false
    }
  }
}
