import Foundation

/// Walks every path of buttons of a bot, breadth-first, in each language, each
/// path in its own conversation, and reports what is broken (`ExploreFinding`).
///
/// A path is replayed from its start message with a fresh sender id, so no
/// path depends on another's state; answers that are the same message (texts,
/// buttons, contacts) are the same node and are expanded once, so loops end.
/// Before each language's walk a nonsense probe learns what the bot's fallback
/// looks like. `jobs` paths run side by side. At a question without buttons
/// (a form asking for an amount) the answers of `--answers` are typed, each a
/// path of its own; without one, the question is listed as needing an answer.
public struct BotExplorer: Sendable {
  public struct Options: Sendable {
    public var languages: [Language]
    /// Each walked from its own first message (`--start`, repeatable); never empty.
    public var starts: [String]
    /// The first start message.
    public var start: String {
      get { starts[0] }
      set { starts = [newValue] }
    }
    /// The most buttons clicked on one path.
    public var depth: Int
    /// The most messages sent in all, per language.
    public var maxTurns: Int
    public var jobs: Int
    /// Sent once per language, to learn the fallback answer.
    public var probe = "zqxv wbrk plomf qqj"
    /// Buttons never clicked (`--skip-button`): a title (any case, spaces around it
    /// ignored) or a payload, as given. A "talk to a human" hand-off, a "delete my data".
    public var skipButtons: [String] = []
    /// What to type at questions without buttons (`--answers`).
    public var answers: ExploreAnswers?

    /// Whether `button` is one of `skipButtons`.
    func skips(_ button: Button) -> Bool { skipping(button) != nil }

    /// Which of `skipButtons` names `button`, if any.
    func skipping(_ button: Button) -> Int? {
      let title = button.title.trimmingWhitespace().lowercased()
      return skipButtons.firstIndex { given in
        given.trimmingWhitespace().lowercased() == title || given == button.payload
      }
    }

    public init(languages: [Language], start: String, depth: Int, maxTurns: Int, jobs: Int) {
      self.languages = languages
      self.starts = [start]
      self.depth = depth
      self.maxTurns = maxTurns
      self.jobs = jobs
    }
  }

  /// One answer of the bot, as a node of the graph.
  public struct Node: Sendable, Hashable {
    public var id: Int
    public var messages: [BotMessage]
    /// The first path found to it, and the start message it begins with (an index of
    /// `Options.starts`).
    public var path: [ExploreClick]
    public var start = 0
    /// The slot a form asked for in this answer, where the tracker shows it.
    public var requestedSlot: String?
  }

  /// A click from one node, and where it led (nil when the turn failed).
  public struct Edge: Sendable, Hashable {
    public var from: Int
    public var to: Int?
    public var click: ExploreClick
    /// Every answer along the path, the start message's first.
    public var answers: [[BotMessage]]
    public var path: [ExploreClick]
    public var start = 0
  }

  /// One language's walk.
  public struct Walk: Sendable {
    public var language: Language
    /// The start messages walked from (`Options.starts`).
    public var starts: [String] = []
    public var nodes: [Node] = []
    public var edges: [Edge] = []
    public var turns = 0
    /// Seconds per message sent, in the order sent.
    public var latencies: [Double] = []
    /// The slowest turns: seconds and the path that ended with them.
    public var slowest: [(seconds: Double, path: [String])] = []
    public var findings: [ExploreFinding] = []
    /// What the conversations' trackers show they reached (intents, responses, slots…),
    /// and how many trackers were read: for `--coverage`.
    public var reached = TrackerCoverage.Names()
    public var tracked = 0
    /// The `--answers` entries that answered a question here (their indices).
    public var answersUsed: Set<Int> = []
    /// The `--skip-button` values (by index) that named a button offered on the way: one
    /// that named none is a typo, said after the walk.
    public var skipsUsed: Set<Int> = []

    /// A path as findings show it: its clicks' labels, after its start message when
    /// there were several.
    public func titles(start: Int, _ path: [ExploreClick]) -> [String] {
      (starts.count > 1 ? [starts[start]] : []) + path.map(\.label)
    }
  }

  public struct Progress: Sendable {
    public var language: Language
    public var nodes: Int
    public var turns: Int
  }

  let makeTransport: @Sendable () -> any ChatTransport
  /// The ids among these that the directory lacks.
  let missingContacts: @Sendable ([String]) async -> [String]
  let options: Options
  /// Rasa's tracker API, when the server has it (`--enable-api`): a turn whose
  /// intent is `nlu_fallback`, or that ran an action with "fallback" in its name,
  /// is a fallback whatever its text.
  let tracker: (any TrackerSource)?

  public init(
    options: Options, makeTransport: @escaping @Sendable () -> any ChatTransport,
    tracker: (any TrackerSource)? = nil,
    missingContacts: @escaping @Sendable ([String]) async -> [String]
  ) {
    self.options = options
    self.makeTransport = makeTransport
    self.tracker = tracker
    self.missingContacts = missingContacts
  }

  /// Every language's walk, then the findings across languages.
  public func run(progress: (@Sendable (Progress) -> Void)? = nil) async -> (
    walks: [Walk], mismatches: [ExploreFinding]
  ) {
    var walks: [Walk] = []
    for language in options.languages {
      walks.append(await walk(language, progress: progress))
    }
    return (walks, Self.mismatches(walks))
  }

  /// What one conversation along `path` answered, turn by turn.
  fileprivate struct Conversation: Sendable {
    var answers: [[BotMessage]] = []
    var latencies: [Double] = []
    var error: ChatError?
    var failed = false
    /// What the tracker says of the last turn: fell back or not; nil without a tracker.
    var fellBack: Bool?
    /// The start message read as another intent than it names, where the tracker shows it.
    var startMisread: TurnInsight.Ranked?
    /// The slot a form asks for after the last turn, where the tracker shows it.
    var requestedSlot: String?
    /// What the tracker shows the conversation reached; nil when it was not read.
    var reached: TrackerCoverage.Names?
  }

  private func converse(_ path: [ExploreClick], start: Int = 0, language: Language) async
    -> Conversation
  {
    let transport = makeTransport()
    let sender = "explore-" + UUID().uuidString
    // Whose tracker to read: socket.io's Rasa keeps the conversation under its session
    // id, not the sender sent (a fallback over socket.io went unseen, #46).
    var trackerSender = sender
    var conversation = Conversation()
    let clock = ContinuousClock()
    let sent = [options.starts[start]] + path.map(\.payload)
    for message in sent {
      let started = clock.now
      let reply: BotReply
      do {
        reply = try await transport.send(
          ChatRequest(sender: sender, message: message, language: language))
        conversation.answers.append(reply.messages)
        if let id = reply.conversationID { trackerSender = id }
      } catch {
        conversation.error = error
        conversation.failed = true
        return conversation
      }
      // The bot's time as the transport measured it; a task resuming late with several
      // conversations in flight (`--jobs`) is explore's queueing, not the bot's.
      let elapsed = clock.now - started
      conversation.latencies.append(
        reply.serverSeconds
          ?? Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    if tracker != nil, let events = await trackerEvents(trackerSender, holding: sent) {
      conversation.requestedSlot = Self.requestedSlot(events)
      var reached = TrackerCoverage.Names()
      reached.add(events: events)
      conversation.reached = reached
      if !path.isEmpty {
        conversation.fellBack = Self.fellBack(events)
      } else if StartIntent.named(by: sent[0]) != nil {
        conversation.startMisread = StartIntent.misread(sent[0], events: events)
      }
    }
    return conversation
  }

  /// The tracker once it holds the conversation's last message: its last user turn is
  /// that text, or it has as many user turns as were sent. Over socket.io the answer
  /// arrives while Rasa is still running the turn, and a tracker read at once ended at
  /// the turn before: every path after a fallback looked like one. Asked again every
  /// 25 ms, for a second at most; nil (no word from the tracker) if it never does.
  private func trackerEvents(_ sender: String, holding sent: [String]) async -> [JSONValue]? {
    for attempt in 0..<40 {
      guard let events = await tracker?.events(sender: sender) else { return nil }
      let users = events.filter { $0["event"]?.stringValue == "user" }
      if users.last?["text"]?.stringValue == sent.last || users.count >= sent.count {
        return events
      }
      if attempt < 39 { try? await Task.sleep(for: .milliseconds(25)) }
    }
    return nil
  }

  /// Whether the last user turn of a tracker's events was a fallback: its intent is
  /// `nlu_fallback`, or an action after it has "fallback" in its name
  /// (`action_default_fallback`, `action_two_stage_fallback`, a bot's own).
  static func fellBack(_ events: [JSONValue]) -> Bool {
    guard let last = events.lastIndex(where: { $0["event"]?.stringValue == "user" }) else {
      return false
    }
    let after = events[(last + 1)...]
    if after.contains(where: { event in
      event["event"]?.stringValue == "action"
        && (event["name"]?.stringValue ?? "").contains("fallback")
    }) {
      return true
    }
    guard events[last]["parse_data"]?["intent"]?["name"]?.stringValue == "nlu_fallback" else {
      return false
    }
    // A form asking for free text takes "12 March" or "2" whatever the NLU made of it: a
    // slot of its own set after the turn, with no fallback action, is an answer taken.
    let formTookIt =
      TrackerEvents.activeLoop(events[..<last]) != nil
      && after.contains { event in
        event["event"]?.stringValue == "slot" && event["name"]?.stringValue != "requested_slot"
      }
    return !formTookIt
  }

  /// The slot an active form asks for at the end of a tracker's events: the last
  /// `requested_slot`, unless a form ended after it. Nil when no form asks.
  static func requestedSlot(_ events: [JSONValue]) -> String? {
    var slot: String?
    for event in events {
      switch event["event"]?.stringValue {
      case "slot" where event["name"]?.stringValue == "requested_slot":
        slot = event["value"]?.stringValue
      case "active_loop" where event["name"]?.stringValue == nil:
        slot = nil
      default: continue
      }
    }
    return slot
  }

  /// What makes two answers the same node: their texts, buttons and contacts.
  static func signature(_ messages: [BotMessage]) -> [String] {
    messages.map { message in
      [
        message.text ?? "",
        message.choices.map { "\($0.title)\u{1}\($0.payload ?? "")" }.joined(
          separator: "\u{2}"), message.contactIDs.joined(separator: ","),
      ].joined(separator: "\u{3}")
    }
  }

  private func walk(_ language: Language, progress: (@Sendable (Progress) -> Void)?) async -> Walk {
    var walk = Walk(language: language, starts: options.starts)
    // The fallback: what the bot says to nonsense.
    let probe = await converse(
      [ExploreClick(index: 0, title: options.probe, payload: options.probe)], language: language)
    walk.turns += probe.answers.count
    // The probe's answer is the fallback's look, unless the tracker says the probe
    // was understood as something (then a button to that answer is no fallback).
    let fallback =
      probe.answers.count == 2 && probe.fellBack != false ? Self.signature(probe.answers[1]) : nil
    var seen: [[String]: Int] = [:]
    func node(_ messages: [BotMessage], path: [ExploreClick], start: Int, slot: String?) -> (
      id: Int, isNew: Bool
    ) {
      let signature = Self.signature(messages)
      if let id = seen[signature] { return (id, false) }
      let id = walk.nodes.count
      seen[signature] = id
      walk.nodes.append(
        Node(id: id, messages: messages, path: path, start: start, requestedSlot: slot))
      return (id, true)
    }
    // Breadth-first from every start message: the paths of one depth, side by side,
    // then the next depth.
    var level: [(path: [ExploreClick], start: Int, node: Int, ancestors: [Int])] = []
    for (index, start) in options.starts.enumerated() {
      let root = await converse([], start: index, language: language)
      walk.add(root)
      walk.turns += root.answers.count
      walk.latencies += root.latencies
      let at = walk.titles(start: index, [])
      guard let rootAnswer = root.answers.first else {
        walk.findings.append(
          ExploreFinding(
            kind: .error, language: language, path: at, detail: .startFailed(root.error)))
        continue
      }
      let (id, isNew) = node(rootAnswer, path: [], start: index, slot: root.requestedSlot)
      if rootAnswer.isEmpty {
        walk.findings.append(
          ExploreFinding(kind: .noAnswer, language: language, path: at, detail: .startNoAnswer))
        // The likely cause, where the tracker shows it: the start read as another intent
        // (`nlu_fallback` for a bot with no intent for /start), with "try another --start".
        if let read = root.startMisread {
          walk.findings.append(
            ExploreFinding(
              kind: .startFallback, language: language, path: at,
              detail: .startReadAs(start: start, intent: read)))
        }
      } else if let fallback, Self.signature(rootAnswer) == fallback {
        // The start message itself is not understood (`/start` to a bot that wants
        // `hello`): every path below starts from the fallback.
        walk.findings.append(
          ExploreFinding(
            kind: .startFallback, language: language, path: at,
            detail: .startFallback(
              start: start, answer: rootAnswer.compactMap(\.text).joined(separator: " "))))
      } else if let read = root.startMisread {
        // Read as another intent, and answered as that one (a form's first question): not
        // the fallback's look, so only the tracker tells.
        walk.findings.append(
          ExploreFinding(
            kind: .startFallback, language: language, path: at,
            detail: .startReadAs(start: start, intent: read)))
      }
      guard isNew else { continue }
      await checkNode(walk.nodes[id], language: language, into: &walk)
      level.append(([], index, id, [id]))
    }
    var limit: ExploreFinding.Detail?
    while !level.isEmpty && limit == nil {
      var children: [(path: [ExploreClick], start: Int, from: Int, ancestors: [Int])] = []
      for item in level {
        if let used = answerEntry(at: walk.nodes[item.node], language: language) {
          walk.answersUsed.insert(used)
        }
        for click in clicks(walk.nodes[item.node], language: language) {
          children.append((item.path + [click], item.start, item.node, item.ancestors))
        }
        for button in walk.nodes[item.node].messages.flatMap(\.choices) {
          guard let skip = options.skipping(button) else { continue }
          walk.skipsUsed.insert(skip)
          // Said once per button where it is offered, not followed.
          walk.findings.append(
            ExploreFinding(
              kind: .limit, language: language, path: walk.titles(start: item.start, item.path),
              detail: .skippedButton(button.title)))
        }
      }
      if let deepest = children.first, deepest.path.count > options.depth {
        limit = .depthLimit(depth: options.depth)
        break
      }
      // Within --max-turns: each path costs its clicks and the start message.
      var affordable = 0
      var cost = walk.turns
      for child in children {
        cost += child.path.count + 1
        if cost > options.maxTurns { break }
        affordable += 1
      }
      if affordable < children.count {
        limit = .turnLimit(maxTurns: options.maxTurns, skipped: children.count - affordable)
        children = Array(children.prefix(affordable))
      }
      let conversations = await runSideBySide(
        children.map { ($0.path, $0.start) }, language: language)
      var next: [(path: [ExploreClick], start: Int, node: Int, ancestors: [Int])] = []
      for (child, conversation) in zip(children, conversations) {
        walk.add(conversation)
        walk.turns += conversation.answers.count + (conversation.failed ? 1 : 0)
        walk.latencies += conversation.latencies
        let titles = walk.titles(start: child.start, child.path)
        if let slowest = conversation.latencies.last {
          walk.slowest.append((slowest, titles))
        }
        let click = child.path[child.path.count - 1]
        guard !conversation.failed, conversation.answers.count == child.path.count + 1,
          let answer = conversation.answers.last
        else {
          walk.edges.append(
            Edge(
              from: child.from, to: nil, click: click, answers: conversation.answers,
              path: child.path, start: child.start))
          walk.findings.append(
            ExploreFinding(
              kind: .error, language: language, path: titles,
              detail: .turnFailed(conversation.error)))
          continue
        }
        let (id, isNew) = node(
          answer, path: child.path, start: child.start, slot: conversation.requestedSlot)
        walk.edges.append(
          Edge(
            from: child.from, to: id, click: click, answers: conversation.answers,
            path: child.path, start: child.start))
        if answer.isEmpty {
          walk.findings.append(
            ExploreFinding(
              kind: .noAnswer, language: language, path: titles,
              detail: click.typed
                ? .typedNoAnswer(typed: click.title) : .noAnswer(button: click.title)))
        } else if conversation.fellBack ?? (Self.signature(answer) == fallback) {
          // The tracker, where it was read, says: a moodbot whose model answered the
          // nonsense probe with "Great, carry on!" made every "great" a fallback when the
          // answer's look alone decided.
          walk.findings.append(
            ExploreFinding(
              kind: .fallback, language: language, path: titles,
              detail: click.typed
                ? .typedFallback(typed: click.title, answer: Self.question(answer))
                : .fallback(button: click.title, answer: Self.question(answer))))
        }
        if child.ancestors.contains(id) {
          walk.findings.append(
            ExploreFinding(
              kind: .loop, language: language, path: titles,
              detail: .loop))
        }
        guard isNew else { continue }
        await checkNode(walk.nodes[id], language: language, into: &walk)
        next.append((child.path, child.start, id, child.ancestors + [id]))
      }
      progress?(Progress(language: language, nodes: walk.nodes.count, turns: walk.turns))
      level = next
    }
    if let limit {
      walk.findings.append(
        ExploreFinding(kind: .limit, language: language, path: [], detail: limit))
    }
    walk.slowest = Array(walk.slowest.sorted { $0.seconds > $1.seconds }.prefix(5))
    return walk
  }

  /// What to do next at a node: its buttons but those `--skip-button` names, or, at a
  /// question without buttons, the answers `--answers` has for it, typed.
  private func clicks(_ node: Node, language: Language) -> [ExploreClick] {
    let choices = node.messages.flatMap(\.choices)
    if !choices.isEmpty {
      return choices.enumerated().compactMap { index, button in
        options.skips(button)
          ? nil : ExploreClick(index: index, title: button.title, payload: button.payload ?? "")
      }
    }
    return answers(at: node, language: language).enumerated().map { index, answer in
      ExploreClick(index: index, title: answer, payload: answer, typed: true)
    }
  }

  /// What `--answers` says to type at a node without buttons; empty when nothing.
  private func answers(at node: Node, language: Language) -> [String] {
    guard let answers = options.answers, let index = answerEntry(at: node, language: language)
    else { return [] }
    return answers.entries[index].given(language)
  }

  /// The `--answers` entry for a node without buttons, or nil.
  private func answerEntry(at node: Node, language: Language) -> Int? {
    guard let answers = options.answers, !node.messages.isEmpty,
      node.messages.allSatisfy({ $0.choices.isEmpty })
    else { return nil }
    return answers.chosen(
      slot: node.requestedSlot, text: Self.question(node.messages), language: language)
  }

  /// The texts of an answer, on one line: what a prompt pattern is searched in.
  static func question(_ messages: [BotMessage]) -> String {
    messages.compactMap(\.text).joined(separator: "\n")
  }

  /// Whether an answer without buttons asks something: a form requests a slot, or
  /// its last text ends with a question mark.
  static func asks(_ messages: [BotMessage], slot: String?) -> Bool {
    if slot != nil { return true }
    let last = messages.last(where: { !($0.text ?? "").trimmingWhitespace().isEmpty })?.text
    return last.map { ["?", "？"].contains($0.trimmingWhitespace().last) } ?? false
  }

  /// What is wrong with a message seen for the first time: its language, its contacts,
  /// whether it ends the conversation or asks for an answer explore has not got.
  private func checkNode(_ node: Node, language: Language, into walk: inout Walk) async {
    let titles = walk.titles(start: node.start, node.path)
    for message in node.messages {
      let texts = [message.text].compactMap { $0 } + message.choices.map(\.title)
      for text in texts {
        if let problem = LanguageCheck.problem(in: text, language: language) {
          walk.findings.append(
            ExploreFinding(
              kind: .wrongLanguage, language: language, path: titles,
              detail: .wrongLanguage(problem, text: text)))
        }
      }
    }
    let ids = node.messages.flatMap(\.contactIDs)
    if !ids.isEmpty {
      for id in await missingContacts(ids) {
        walk.findings.append(
          ExploreFinding(
            kind: .missingContact, language: language, path: titles,
            detail: .missingContact(id: id)))
      }
    }
    guard !node.messages.isEmpty, node.messages.allSatisfy({ $0.choices.isEmpty }) else { return }
    if Self.asks(node.messages, slot: node.requestedSlot) {
      // A question: walked on with `--answers`, else said as one (also at the start: a
      // start message that opens a form).
      if answers(at: node, language: language).isEmpty {
        walk.findings.append(
          ExploreFinding(
            kind: .needsAnswer, language: language, path: titles,
            detail: .needsAnswer(
              slot: node.requestedSlot,
              prompt: node.messages.compactMap(\.text).last(where: {
                !$0.trimmingWhitespace().isEmpty
              }) ?? "")))
      }
    } else if !node.path.isEmpty {
      walk.findings.append(
        ExploreFinding(kind: .deadEnd, language: language, path: titles, detail: .deadEnd))
    }
  }

  /// Conversations along `paths`, `options.jobs` at a time, in the paths' order.
  private func runSideBySide(_ paths: [(path: [ExploreClick], start: Int)], language: Language)
    async -> [Conversation]
  {
    var results = [Conversation?](repeating: nil, count: paths.count)
    await withTaskGroup(of: (Int, Conversation).self) { group in
      var nextPath = 0
      func startNext() {
        guard nextPath < paths.count else { return }
        let index = nextPath
        nextPath += 1
        let (path, start) = paths[index]
        group.addTask { (index, await converse(path, start: start, language: language)) }
      }
      for _ in 0..<max(options.jobs, 1) { startNext() }
      for await (index, conversation) in group {
        results[index] = conversation
        startNext()
      }
    }
    return results.map { $0 ?? Conversation(failed: true) }
  }

  /// The same path, by button places, in two languages: a different number of
  /// messages or buttons, different contacts, or a dead end in one only.
  static func mismatches(_ walks: [Walk]) -> [ExploreFinding] {
    guard let first = walks.first, walks.count > 1 else { return [] }
    struct Shape: Equatable {
      var messages: Int
      var buttons: Int
      var contacts: [String]
    }
    func shapes(_ walk: Walk) -> [[Int]: (shape: Shape, titles: [String], node: Int)] {
      var shapes: [[Int]: (shape: Shape, titles: [String], node: Int)] = [:]
      // A path by its start message and its buttons' places.
      func add(_ path: [ExploreClick], start: Int, _ node: Int) {
        let messages = walk.nodes[node].messages
        shapes[[start] + path.map(\.index)] = (
          Shape(
            messages: messages.count, buttons: messages.flatMap(\.choices).count,
            contacts: messages.flatMap(\.contactIDs).sorted()),
          walk.titles(start: start, path), node
        )
      }
      for node in walk.nodes where node.path.isEmpty { add([], start: node.start, node.id) }
      for edge in walk.edges {
        if let to = edge.to { add(edge.path, start: edge.start, to) }
      }
      return shapes
    }
    let reference = shapes(first)
    // Shortest paths first; one finding per pair of messages that differ, not one per
    // path through them.
    let ordered = reference.sorted { a, b in
      a.key.count != b.key.count
        ? a.key.count < b.key.count : a.key.lexicographicallyPrecedes(b.key)
    }
    var findings: [ExploreFinding] = []
    for other in walks.dropFirst() {
      let compared = shapes(other)
      var reported: Set<[Int]> = []
      for (path, mine) in ordered {
        guard let theirs = compared[path], theirs.shape != mine.shape,
          reported.insert([mine.node, theirs.node]).inserted
        else { continue }
        var differences: [ExploreFinding.Detail.Difference] = []
        if mine.shape.messages != theirs.shape.messages {
          differences.append(.messages(mine.shape.messages, theirs.shape.messages))
        }
        if mine.shape.buttons != theirs.shape.buttons {
          differences.append(.buttons(mine.shape.buttons, theirs.shape.buttons))
        }
        if mine.shape.contacts != theirs.shape.contacts {
          differences.append(.contacts(mine.shape.contacts, theirs.shape.contacts))
        }
        findings.append(
          ExploreFinding(
            kind: .languageMismatch, language: first.language, path: mine.titles,
            detail: .mismatch(differences, other: other.language, otherPath: theirs.titles)))
      }
    }
    return findings
  }
}

extension BotExplorer.Walk {
  /// What a conversation's tracker showed, for `--coverage`.
  fileprivate mutating func add(_ conversation: BotExplorer.Conversation) {
    guard let names = conversation.reached else { return }
    reached.merge(names)
    tracked += 1
  }
}
