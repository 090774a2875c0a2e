import Foundation

/// Walks every path of buttons of a bot, breadth-first, in each language, each
/// path in its own conversation, and reports what is broken (`ExploreFinding`).
///
/// A path is replayed from the start message with a fresh sender id, so no
/// path depends on another's state; answers that are the same message (texts,
/// buttons, contacts) are the same node and are expanded once, so loops end.
/// Before each language's walk a nonsense probe learns what the bot's fallback
/// looks like. `jobs` paths run side by side.
public struct BotExplorer: Sendable {
  public struct Options: Sendable {
    public var languages: [Language]
    public var start: String
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

    /// Whether `button` is one of `skipButtons`.
    func skips(_ button: Button) -> Bool {
      let title = button.title.trimmingWhitespace().lowercased()
      return skipButtons.contains { given in
        given.trimmingWhitespace().lowercased() == title || given == button.payload
      }
    }

    public init(languages: [Language], start: String, depth: Int, maxTurns: Int, jobs: Int) {
      self.languages = languages
      self.start = start
      self.depth = depth
      self.maxTurns = maxTurns
      self.jobs = jobs
    }
  }

  /// One answer of the bot, as a node of the graph.
  public struct Node: Sendable, Hashable {
    public var id: Int
    public var messages: [BotMessage]
    /// The first path found to it.
    public var path: [ExploreClick]
  }

  /// A click from one node, and where it led (nil when the turn failed).
  public struct Edge: Sendable, Hashable {
    public var from: Int
    public var to: Int?
    public var click: ExploreClick
    /// Every answer along the path, the start message's first.
    public var answers: [[BotMessage]]
    public var path: [ExploreClick]
  }

  /// One language's walk.
  public struct Walk: Sendable {
    public var language: Language
    public var nodes: [Node] = []
    public var edges: [Edge] = []
    public var turns = 0
    /// Seconds per message sent, in the order sent.
    public var latencies: [Double] = []
    /// The slowest turns: seconds and the path that ended with them.
    public var slowest: [(seconds: Double, path: [String])] = []
    public var findings: [ExploreFinding] = []
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
  private struct Conversation: Sendable {
    var answers: [[BotMessage]] = []
    var latencies: [Double] = []
    var error: ChatError?
    var failed = false
    /// What the tracker says of the last turn: fell back or not; nil without a tracker.
    var fellBack: Bool?
    /// The start message read as another intent than it names, where the tracker shows it.
    var startMisread: TurnInsight.Ranked?
  }

  private func converse(_ path: [ExploreClick], language: Language) async -> Conversation {
    let transport = makeTransport()
    let sender = "explore-" + UUID().uuidString
    // Whose tracker to read: socket.io's Rasa keeps the conversation under its session
    // id, not the sender sent (a fallback over socket.io went unseen, #46).
    var trackerSender = sender
    var conversation = Conversation()
    let clock = ContinuousClock()
    for message in [options.start] + path.map(\.payload) {
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
    let sent = [options.start] + path.map(\.payload)
    if !path.isEmpty, let events = await trackerEvents(trackerSender, holding: sent) {
      conversation.fellBack = Self.fellBack(events)
    } else if path.isEmpty, StartIntent.named(by: options.start) != nil,
      let events = await trackerEvents(trackerSender, holding: sent)
    {
      conversation.startMisread = StartIntent.misread(options.start, events: events)
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
    if events[last]["parse_data"]?["intent"]?["name"]?.stringValue == "nlu_fallback" { return true }
    return events[(last + 1)...].contains { event in
      event["event"]?.stringValue == "action"
        && (event["name"]?.stringValue ?? "").contains("fallback")
    }
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
    var walk = Walk(language: language)
    // The fallback: what the bot says to nonsense.
    let probe = await converse(
      [ExploreClick(index: 0, title: options.probe, payload: options.probe)], language: language)
    walk.turns += probe.answers.count
    // The probe's answer is the fallback's look, unless the tracker says the probe
    // was understood as something (then a button to that answer is no fallback).
    let fallback =
      probe.answers.count == 2 && probe.fellBack != false ? Self.signature(probe.answers[1]) : nil
    let root = await converse([], language: language)
    walk.turns += root.answers.count
    walk.latencies += root.latencies
    guard let rootAnswer = root.answers.first else {
      walk.findings.append(
        ExploreFinding(
          kind: .error, language: language, path: [],
          detail: .startFailed(root.error)))
      return walk
    }
    var seen: [[String]: Int] = [:]
    func node(_ messages: [BotMessage], path: [ExploreClick]) -> (id: Int, isNew: Bool) {
      let signature = Self.signature(messages)
      if let id = seen[signature] { return (id, false) }
      let id = walk.nodes.count
      seen[signature] = id
      walk.nodes.append(Node(id: id, messages: messages, path: path))
      return (id, true)
    }
    _ = node(rootAnswer, path: [])
    if rootAnswer.isEmpty {
      walk.findings.append(
        ExploreFinding(
          kind: .noAnswer, language: language, path: [], detail: .startNoAnswer))
    } else if let fallback, Self.signature(rootAnswer) == fallback {
      // The start message itself is not understood (`/start` to a bot that wants
      // `hello`): every path below starts from the fallback.
      walk.findings.append(
        ExploreFinding(
          kind: .startFallback, language: language, path: [],
          detail: .startFallback(
            start: options.start, answer: rootAnswer.compactMap(\.text).joined(separator: " "))))
    } else if let read = root.startMisread {
      // Read as another intent, and answered as that one (a form's first question): not
      // the fallback's look, so only the tracker tells.
      walk.findings.append(
        ExploreFinding(
          kind: .startFallback, language: language, path: [],
          detail: .startReadAs(start: options.start, intent: read)))
    }
    await checkNode(walk.nodes[0], language: language, into: &walk)
    // Breadth-first: the paths of one depth, side by side, then the next depth.
    var level: [(path: [ExploreClick], node: Int, ancestors: [Int])] = [([], 0, [0])]
    var limit: ExploreFinding.Detail?
    while !level.isEmpty && limit == nil {
      var children: [(path: [ExploreClick], from: Int, ancestors: [Int])] = []
      for item in level {
        let choices = walk.nodes[item.node].messages.flatMap(\.choices)
        for (index, button) in choices.enumerated() {
          if options.skips(button) {
            // Said once per button where it is offered, not followed.
            walk.findings.append(
              ExploreFinding(
                kind: .limit, language: language, path: item.path.map(\.title),
                detail: .skippedButton(button.title)))
            continue
          }
          let click = ExploreClick(index: index, title: button.title, payload: button.payload ?? "")
          children.append((item.path + [click], item.node, item.ancestors))
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
      let conversations = await runSideBySide(children.map(\.path), language: language)
      var next: [(path: [ExploreClick], node: Int, ancestors: [Int])] = []
      for (child, conversation) in zip(children, conversations) {
        walk.turns += conversation.answers.count + (conversation.failed ? 1 : 0)
        walk.latencies += conversation.latencies
        if let slowest = conversation.latencies.last {
          walk.slowest.append((slowest, child.path.map(\.title)))
        }
        let titles = child.path.map(\.title)
        guard !conversation.failed, conversation.answers.count == child.path.count + 1,
          let answer = conversation.answers.last
        else {
          walk.edges.append(
            Edge(
              from: child.from, to: nil, click: child.path[child.path.count - 1],
              answers: conversation.answers, path: child.path))
          walk.findings.append(
            ExploreFinding(
              kind: .error, language: language, path: titles,
              detail: .turnFailed(conversation.error)))
          continue
        }
        let (id, isNew) = node(answer, path: child.path)
        walk.edges.append(
          Edge(
            from: child.from, to: id, click: child.path[child.path.count - 1],
            answers: conversation.answers, path: child.path))
        if answer.isEmpty {
          walk.findings.append(
            ExploreFinding(
              kind: .noAnswer, language: language, path: titles,
              detail: .noAnswer(button: titles.last ?? "")))
        } else if conversation.fellBack == true || Self.signature(answer) == fallback {
          walk.findings.append(
            ExploreFinding(
              kind: .fallback, language: language, path: titles,
              detail: .fallback(
                button: titles.last ?? "",
                answer: answer.compactMap(\.text).joined(separator: " "))))
        }
        if child.ancestors.contains(id) {
          walk.findings.append(
            ExploreFinding(
              kind: .loop, language: language, path: titles,
              detail: .loop))
        }
        guard isNew else { continue }
        await checkNode(walk.nodes[id], language: language, into: &walk)
        next.append((child.path, id, child.ancestors + [id]))
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

  /// What is wrong with a message seen for the first time: its language, its contacts,
  /// whether it ends the conversation.
  private func checkNode(_ node: Node, language: Language, into walk: inout Walk) async {
    let titles = node.path.map(\.title)
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
    if !node.messages.isEmpty && node.messages.allSatisfy({ $0.choices.isEmpty }) && !titles.isEmpty
    {
      walk.findings.append(
        ExploreFinding(kind: .deadEnd, language: language, path: titles, detail: .deadEnd))
    }
  }

  /// Conversations along `paths`, `options.jobs` at a time, in the paths' order.
  private func runSideBySide(_ paths: [[ExploreClick]], language: Language) async -> [Conversation]
  {
    var results = [Conversation?](repeating: nil, count: paths.count)
    await withTaskGroup(of: (Int, Conversation).self) { group in
      var nextPath = 0
      func startNext() {
        guard nextPath < paths.count else { return }
        let index = nextPath
        nextPath += 1
        group.addTask { (index, await converse(paths[index], language: language)) }
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
      func add(_ path: [ExploreClick], _ node: Int) {
        let messages = walk.nodes[node].messages
        shapes[path.map(\.index)] = (
          Shape(
            messages: messages.count, buttons: messages.flatMap(\.choices).count,
            contacts: messages.flatMap(\.contactIDs).sorted()),
          path.map(\.title), node
        )
      }
      if !walk.nodes.isEmpty { add([], 0) }
      for edge in walk.edges {
        if let to = edge.to { add(edge.path, to) }
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
