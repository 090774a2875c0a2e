import Foundation
import Testing

@testable import MigrantChatCore

/// `/todo` and `/report` in the chat, against the offline assistant's sample guidance.
@Suite struct ChatSessionTodoTests {
  let todos = MemoryTodoStore()
  let queue = MemoryReportQueue()
  let today = day("2026-11-24")

  func makeSession(api: ScriptedReportAPI? = nil, language: Language = .en) -> (
    ChatSession, FakeTransport
  ) {
    let tree = SampleGuidance.tree()
    let assistant = OfflineTransport(
      assistant: OfflineAssistant(tree: tree, stemmer: LightStemmer()))
    let transport = FakeTransport { request async throws(ChatError) -> BotReply in
      try await assistant.send(request)
    }
    let today = self.today
    let tools = ChatTools(
      todos: todos, reports: ReportDesk(queue: queue, api: api), guidance: { tree },
      today: { today })
    let session = ChatSession(
      transport: transport, store: TransientSessionStore(), language: language, senderID: "s",
      startMessage: "/start", directory: nil, tools: tools)
    return (session, transport)
  }

  /// Opens the "Employee card" guide (two steps): topic 1, guide 1.
  func openGuide(_ session: ChatSession) async {
    _ = await session.start()
    _ = await session.handle("1")
    _ = await session.handle("1")
  }

  @Test func theSaveButtonSavesTheStepsWithoutAskingTheBotOrRecordingIt() async throws {
    let (session, transport) = makeSession()
    await openGuide(session)
    let choices = await session.choices
    let save = try #require(choices.firstIndex { $0.title == "Save these steps to my to-do list" })
    let sentBefore = transport.messages.count
    let logBefore = await session.log.count
    let events = await session.handle(String(save + 1))
    guard case .todo(.added(let tasks, skipped: 0))? = events.first else {
      Issue.record("\(events)")
      return
    }
    #expect(tasks.map(\.title) == ["Book an appointment", "Give your fingerprints"])
    #expect(tasks.allSatisfy { $0.guideID == 10 && $0.guideTitle == "Employee card [sample]" })
    #expect(tasks[0].contacts == [138505, 138503])
    #expect(transport.messages.count == sentBefore, "nothing went to the bot")
    #expect(await session.log.count == logBefore, "not part of a transcript")
    // Again: the steps are on the list already; /todo save says the same.
    #expect(await session.handle(String(save + 1)) == [.todo(.added([], skipped: 2))])
    #expect(await session.handle("/todo save") == [.todo(.added([], skipped: 2))])
    #expect(try todos.tasks().count == 2)
  }

  @Test func addListDoneUndoShowRemove() async throws {
    let (session, _) = makeSession()
    let added = await session.handle("/todo add Book a visa appointment --due in 2 weeks")
    guard case .todo(.added(let tasks, _))? = added.first else {
      Issue.record("\(added)")
      return
    }
    #expect(tasks.first?.due == DayDate(year: 2026, month: 12, day: 8))
    #expect(tasks.first?.title == "Book a visa appointment")
    guard case .todo(.list(let list))? = await session.handle("/todo").first else {
      Issue.record("no list")
      return
    }
    #expect(list.tasks.map(\.id) == [1])
    guard case .todo(.completed(let done))? = await session.handle("/todo done 1").first else {
      Issue.record("not done")
      return
    }
    #expect(done.isDone)
    guard case .todo(.reopened(let open))? = await session.handle("/todo undo #1").first else {
      Issue.record("not reopened")
      return
    }
    #expect(!open.isDone)
    guard case .todo(.shown(let shown, _, _))? = await session.handle("/todo show 1").first else {
      Issue.record("not shown")
      return
    }
    #expect(shown.id == 1)
    #expect(await session.handle("/todo done 9") == [.todo(.noSuchTask(9))])
    guard case .todo(.removed)? = await session.handle("/todo remove 1").first else {
      Issue.record("not removed")
      return
    }
    #expect(try todos.tasks().isEmpty)
  }

  @Test func badInputChangesNothing() async throws {
    let (session, _) = makeSession()
    #expect(
      await session.handle("/todo add Pay --due 31.02.2026") == [
        .inputError(.badDate("31.02.2026"))
      ])
    #expect(await session.handle("/todo add") == [.inputError(.needsTaskTitle)])
    #expect(await session.handle("/todo add --due tomorrow") == [.inputError(.needsTaskTitle)])
    #expect(
      await session.handle("/todo done") == [
        .todo(.list(TodoList([], filter: .done, today: today)))
      ])
    #expect(
      await session.handle("/todo done first")
        == [.inputError(.needsTaskNumber(command: "/todo done", typed: "first"))])
    #expect(await session.handle("/todo frob") == [.inputError(.unknownTodoCommand("frob"))])
    #expect(
      await session.handle("/todo save") == [.inputError(.noGuideShown(command: "/todo save"))])
    // No guide shown and none matches: the text is kept, not dropped (and not an error).
    #expect(await session.handle("/report wrong") == [.report(.keptAsDraft)])
    #expect(
      await session.handle("/todo add " + String(repeating: "x", count: 300))
        == [.inputError(.tooLong(limit: TodoTask.maxTitle))])
    #expect(
      await session.handle("/todo add 5") == [.inputError(.noSuchMessage(number: 5, count: 0))])
    #expect(try todos.tasks().isEmpty)
    #expect(await session.unusableLines == 8)
    // The state database broken: said so, the chat goes on.
    todos.failure.withLock { $0 = .storage(detail: "disk I/O error") }
    #expect(await session.handle("/todo") == [.todo(.unavailable(detail: "disk I/O error"))])
  }

  @Test func aBotMessageBecomesATaskByItsNumber() async throws {
    let (session, _) = makeSession()
    await openGuide(session)
    let events = await session.handle("/todo add 2")
    guard case .todo(.added(let tasks, _))? = events.first else {
      Issue.record("\(events)")
      return
    }
    #expect(tasks.first?.title == "Warning: Do not start working before the card is issued.")
  }

  @Test func reportAsksForTheTextThenSendsItAndAnEmptyLineCancels() async throws {
    let api = ScriptedReportAPI([.status(201)])
    let (session, transport) = makeSession(api: api, language: .ru)
    await openGuide(session)
    #expect(await session.handle("/report") == [.report(.askText(guideTitle: "Карта сотрудника"))])
    #expect(await session.handle("") == [.report(.cancelled)])
    #expect(api.posted.withLock { $0.isEmpty })
    _ = await session.handle("/report")
    let sentBefore = transport.messages.count
    let logBefore = await session.log.count
    #expect(
      await session.handle("Сбор теперь 1000 крон")
        == [.report(.outcome(.sent(itemID: 10), guideTitle: "Карта сотрудника"))])
    #expect(transport.messages.count == sentBefore, "the report text never reaches the bot")
    #expect(await session.log.count == logBefore)
    #expect(api.posted.withLock { $0.first?.contains("Сбор теперь 1000 крон") } == true)
    #expect(try queue.pending().isEmpty)
    // A command while asked: the report is dropped, the command runs.
    _ = await session.handle("/report")
    let events = await session.handle("/lang en")
    #expect(events.first == .report(.cancelled))
    #expect(events.contains(.languageChanged(.en)))
  }

  /// A session whose bot answers from the guidance without saying which guide, as a
  /// real Rasa bot does; "/faq..." payloads still reach the offline assistant.
  func realBotSession(api: ScriptedReportAPI, language: Language = .en) -> ChatSession {
    let tree = SampleGuidance.tree()
    let assistant = OfflineTransport(
      assistant: OfflineAssistant(tree: tree, stemmer: LightStemmer()))
    let transport = FakeTransport { request async throws(ChatError) -> BotReply in
      switch request.message {
      case "card":
        BotReply(messages: [BotMessage(text: "For the employee card, book an appointment.")])
      case "hello": BotReply(messages: [BotMessage(text: "Hmm.")])
      default: try await assistant.send(request)
      }
    }
    let today = self.today
    let tools = ChatTools(
      todos: todos, reports: ReportDesk(queue: queue, api: api), guidance: { tree },
      today: { today })
    return ChatSession(
      transport: transport, store: TransientSessionStore(), language: language, senderID: "s",
      startMessage: "", directory: nil, tools: tools)
  }

  /// After an answer that names no guide, `/report TEXT` offers the guides that match the
  /// answer and the words, by number; the number files the report with TEXT.
  @Test func reportAfterARealBotsAnswerOffersTheMatchingGuides() async throws {
    let api = ScriptedReportAPI([.status(201)])
    let session = realBotSession(api: api)
    _ = await session.handle("card")
    let events = await session.handle("/report The fee is 1000 CZK now")
    guard case .report(.chooseGuide(let titles))? = events.first else {
      Issue.record("\(events)")
      return
    }
    let number = try #require(titles.firstIndex(of: "Employee card")) + 1
    #expect(
      await session.handle(String(number))
        == [.report(.outcome(.sent(itemID: 10), guideTitle: "Employee card"))])
    #expect(api.posted.withLock { $0.first?.contains("The fee is 1000 CZK now") } == true)
  }

  /// The guide picker is one-shot and nothing typed at it reaches the bot: a wrong number
  /// asks again, other text ends it (the report kept as a draft), and afterwards numbers
  /// are the bot's buttons again. Ctrl-C cancels a report waiting for its text.
  @Test func theReportPickerNeverSendsToTheBotAndEnds() async throws {
    let api = ScriptedReportAPI([.status(201)])
    let (session, transport) = makeSession(api: api)
    _ = await session.start()
    let menu = await session.choices
    _ = await session.handle("/restart")
    let sent = transport.messages.count
    // After the start menu (no guide), /report offers guides.
    guard case .report(.chooseGuide(let titles))? = await session.handle("/report Wrong fee").first
    else {
      Issue.record("no picker")
      return
    }
    #expect(
      await session.handle("99") == [.inputError(.noSuchChoice(number: 99, count: titles.count))])
    #expect(await session.handle("yes please") == [.report(.keptAsDraft)])
    #expect(transport.messages.count == sent, "nothing typed at the picker went to the bot")
    #expect(await session.choices == menu, "numbers are the bot's buttons again")
    #expect(api.posted.withLock { $0.isEmpty })
    // Picked and sent: the picker is over, the next number is the bot's.
    _ = await session.handle("/report")
    let picked = await session.handle("1")
    guard case .report(.outcome(.sent, _))? = picked.first else {
      Issue.record("\(picked)")
      return
    }
    #expect(api.posted.withLock { $0.first?.contains("Wrong fee") } == true)
    #expect(await session.choices == menu)
    // Waiting for a report's text: Ctrl-C cancels it, the next line goes to the bot.
    _ = await session.handle(#"/faq_item{"id":10}"#)
    #expect(await session.handle("/report") == [.report(.askText(guideTitle: "Employee card"))])
    #expect(await session.cancelPending() == [.report(.cancelled)])
    #expect(await session.cancelPending().isEmpty)
    let before = transport.messages.count
    _ = await session.handle("housing")
    #expect(transport.messages.count == before + 1)
    #expect(api.posted.withLock { $0.count } == 1)
  }

  /// No guide matches: the text is kept, and the next `/report` after a guide sends it.
  @Test func reportWithNoMatchKeepsTheTextAsADraft() async throws {
    let api = ScriptedReportAPI([.status(201), .status(201)])
    let session = realBotSession(api: api)
    _ = await session.handle("hello")
    #expect(await session.handle("/report qqqq zzzz") == [.report(.keptAsDraft)])
    #expect(api.posted.withLock { $0.isEmpty })
    _ = await session.handle(#"/faq_item{"id":10}"#)
    // Other text typed now goes on its own; the draft stays for a /report without text.
    _ = await session.handle("/report The fee changed")
    #expect(api.posted.withLock { $0.last?.contains("The fee changed") } == true)
    #expect(
      await session.handle("/report")
        == [.report(.outcome(.sent(itemID: 10), guideTitle: "Employee card"))])
    #expect(api.posted.withLock { $0.last?.contains("qqqq zzzz") } == true)
    // Sent once: the draft is gone.
    #expect(await session.handle("/report") == [.report(.askText(guideTitle: "Employee card"))])
  }

  @Test func todoCommandsInTheChat() async throws {
    let (session, _) = makeSession(language: .ru)
    await openGuide(session)
    let added = await session.handle(#"/todo add "Купить полис" --due "в понедельник""#)
    guard case .todo(.added(let tasks, 0))? = added.first else {
      Issue.record("\(added)")
      return
    }
    #expect(tasks.first?.title == "Купить полис")
    #expect(tasks.first?.due == day("2026-11-30"))
    // A date in the past: saved, with how long ago it was.
    let past = await session.handle("/todo add Old --due 20.11.2026")
    #expect(past.last == .todo(.dueInPast(day("2026-11-20"), days: 4)))
    // A day and month passed this year is next year's: said, not silent.
    let nextYear = await session.handle("/todo add Card --due 23.11")
    #expect(nextYear.last == .todo(.dueNextYear(day("2027-11-23"), days: 364)))
    let inAYear = await session.handle("/todo add Visa --due через год")
    #expect(inAYear.count == 1, "a year ahead, as asked: \(inAYear)")
    _ = await session.handle("/todo remove 3 4")
    #expect(
      await session.handle("/todo add X --colour red") == [.inputError(.badTodoOption("--colour"))])
    let done = await session.handle("/todo done 1 2")
    #expect(done.count == 2)
    guard case .todo(.alreadyDone)? = await session.handle("/todo done 1").first else {
      Issue.record("done twice")
      return
    }
    _ = await session.handle("/todo undo 2")
    guard case .todo(.alreadyOpen)? = await session.handle("/todo undo 2").first else {
      Issue.record("undo of an open task")
      return
    }
    #expect(
      await session.handle("/todo done 1 x")
        == [.inputError(.needsTaskNumber(command: "/todo done", typed: "x"))])
    // `/todo add` alone: which number means which message of the latest answer.
    guard case .todo(.answerChoices(let titles))? = await session.handle("/todo add").first else {
      Issue.record("answer choices")
      return
    }
    #expect(titles.count >= 2)
  }

  /// Rasa sends an answer's offices as a message of their own: `/todo add N` takes them.
  @Test func aMessageTaskTakesTheOfficesOfTheWholeAnswer() async throws {
    let transport = FakeTransport { _ async throws(ChatError) -> BotReply in
      BotReply(messages: [
        BotMessage(text: "Go to the insurance office."),
        BotMessage(custom: .object(["contacts": .array([.number(138508), .string("138503")])])),
      ])
    }
    let today = self.today
    let session = ChatSession(
      transport: transport, store: TransientSessionStore(), language: .en, senderID: "s",
      startMessage: "", directory: nil,
      tools: ChatTools(
        todos: todos, reports: ReportDesk(queue: nil, api: nil),
        guidance: { SampleGuidance.tree() }, today: { today }))
    _ = await session.handle("insurance")
    guard case .todo(.added(let tasks, _))? = await session.handle("/todo add 1").first else {
      Issue.record("added")
      return
    }
    #expect(tasks.first?.contacts == [138508, 138503])
  }

  @Test func queuedReportsAreSentOnceTheAPIAnswers() async throws {
    let api = ScriptedReportAPI([.down, .status(201)])
    let (session, _) = makeSession(api: api)
    await openGuide(session)
    let events = await session.handle("/report The address moved")
    guard case .report(.outcome(.queued(10, _), _))? = events.first else {
      Issue.record("\(events)")
      return
    }
    #expect(try queue.pending().count == 1)
    #expect(await session.sendQueuedReports() == [.report(.queueSent(count: 1))])
    #expect(try queue.pending().isEmpty)
    #expect(await session.sendQueuedReports().isEmpty)
  }

  @Test func dueSoonAtStart() async throws {
    let (session, _) = makeSession()
    #expect(await session.dueSoon().isEmpty)
    _ = await session.handle("/todo add Late --due 2026-11-01")
    _ = await session.handle("/todo add Soon --due tomorrow")
    _ = await session.handle("/todo add Later --due in 2 months")
    #expect(await session.dueSoon() == [.todo(.dueSoon(overdue: 1, soon: 1))])
  }
}
