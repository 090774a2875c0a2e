/// Something that happened in the conversation, for the renderer to show.
public enum ChatEvent: Sendable, Hashable {
  /// The bot answered; some parts may have been left out (`problems`).
  /// `contacts` holds the directory's cards for the contact ids in it.
  case reply(BotReply, contacts: ContactCards = .unresolved)
  /// Bot messages that arrived after the previous answer was whole (socket.io):
  /// shown, without buttons to pick, and never counted as the current answer.
  case late(BotReply, contacts: ContactCards = .unresolved)
  /// The bot answered with an empty list: a normal answer in Rasa.
  case noAnswer
  /// The turn failed; the conversation goes on.
  case failure(ChatError)
  /// The line could not be used; nothing was sent.
  case inputError(InputError)
  case notice(Notice)
  case languageChanged(Language)
  /// Search results or the directory's list (`/contacts`).
  case contactList(ContactListing)
  /// One contact in full (`/contact ID`).
  case contactCard(Contact, favourite: Bool)
  case directory(DirectoryEvent)
  /// The to-do list (`/todo`, the "Save these steps" button, the start-up reminder).
  case todo(TodoEvent)
  /// Reporting a wrong guide (`/report`, the queue sent at start).
  case report(ReportEvent)
  /// What the bot understood (`--inspect`, `/slots`, `/tracker`, `/parse`).
  case inspect(InspectEvent)
  /// `/save PATH`: the console writes the conversation so far as a transcript.
  case saveTranscript(path: String)
  /// `/history [N]`: the console shows the kept conversations, or one of them.
  case showHistory(number: Int64?)
  /// `/label [TEXT]`: the console labels the conversation kept (nil: says its label).
  case labelConversation(String?)
  /// `/near`: offices nearest to a place.
  case nearby(NearbyListing)
  /// `/map`: the offices on a map.
  case officeMap(OfficeMap)
  /// `/near`, `/map` or `/place` with a place that cannot be used.
  case placeProblem(PlaceProblem)
  /// `/place PLACE` (nil: `/place off`): cards now say how far offices are from it.
  case placeSet(HomePlace?)
  /// `/place` alone: the remembered place, if any.
  case placeShown(HomePlace?)
  /// A setting or the sender id could not be saved; the chat goes on.
  case saveFailed(detail: String)
  /// `/save` or `--record` could not write the transcript; the file keeps what it had.
  case transcriptNotSaved(path: String, detail: String)
  case quit
}

public enum InputError: Error, Sendable, Hashable {
  case noSuchChoice(number: Int, count: Int)
  /// A transcript's `button:` step naming no button of the latest answer (`titles`).
  case noButtonTitled(String, titles: [String])
  /// A transcript's `user:` line that is a lookup of the client's own (`/contacts`):
  /// the bot is never sent it.
  case notSentInTranscript(command: String)
  case unknownLanguage(String)
  /// `/save` without a file name.
  case needsPath(command: String)
  /// `/history` with something not a conversation's number.
  case badHistoryNumber(String)
  /// `/contact`, `/fav` or `/unfav` without an id.
  /// `example`: an id from the current directory for the hint, when it has any.
  case needsContactID(command: String, example: Int64?)
  case badContactID(String, example: Int64?)
  /// `/todo add ... --due` with a date that cannot be read: nothing was saved.
  case badDate(String)
  /// `/todo done`, `undo`, `show`, `remove` without a task number, or with one that is not a number.
  case needsTaskNumber(command: String, typed: String?)
  /// `/todo add` with nothing after it.
  case needsTaskTitle
  /// A title, description or report longer than the limit: nothing was saved.
  case tooLong(limit: Int)
  /// `/todo add N` with no such message in the latest answer.
  case noSuchMessage(number: Int, count: Int)
  case unknownTodoCommand(String)
  /// `/todo add ... --colour red`: an option `add` does not take, or one without its value.
  case badTodoOption(String)
  /// `/todo save` or `/report` before any guide was shown.
  case noGuideShown(command: String)
  /// The guide to save has no steps (or is not in the cached guidance).
  case guideHasNoSteps(title: String)
  /// `/inspect` with something else than on or off.
  case badInspectSetting(String)
  /// `/parse` without text.
  case needsParseText
  /// `/tracker` with something else than a number of events.
  case badEventCount(String)
}

/// Something that happened to the to-do list.
public enum TodoEvent: Sendable, Hashable {
  case list(TodoList)
  /// Tasks added; `skipped`: steps already on the list, not added again.
  case added([TodoTask], skipped: Int)
  case completed(TodoTask)
  case reopened(TodoTask)
  /// `done` of a task that is done already (`undo` of an open one): nothing changed.
  case alreadyDone(TodoTask)
  case alreadyOpen(TodoTask)
  /// The due date just saved is in the past, `days` ago: a warning, the task is kept.
  case dueInPast(DayDate, days: Int)
  /// A day and month without a year that has passed this year: next year's, `days` ahead.
  case dueNextYear(DayDate, days: Int)
  /// The due date was read from the end of the task's title (`phrase`, #48).
  case dueFromTitle(TodoTask, phrase: String)
  /// `/todo add` with no title: the latest answer's messages, by the number that adds each.
  case answerChoices([String])
  case removed(TodoTask)
  /// `/todo show N`: the task with its offices.
  case shown(TodoTask, contacts: [Contact], today: DayDate)
  case noSuchTask(Int64)
  /// At chat start: open tasks overdue, and due within seven days.
  case dueSoon(overdue: Int, soon: Int)
  /// The state database could not be opened or written: nothing changed.
  case unavailable(detail: String)
}

/// Something that happened to a report of a wrong guide.
public enum ReportEvent: Sendable, Hashable {
  /// `/report` without text: the next line is the report (an empty line cancels).
  case askText(guideTitle: String)
  /// `/report` after an answer that showed no guide: the guides that match, by number.
  case chooseGuide([String])
  /// No guide matched: the text is kept for the next `/report` after a guide.
  case keptAsDraft
  case cancelled
  case outcome(ReportDesk.Outcome, guideTitle: String)
  /// Reports from the queue the API now has (at chat start or `/sync`).
  case queueSent(count: Int)
}

/// What `/contacts` found.
public struct ContactListing: Sendable, Hashable {
  /// Nil when the whole directory was listed.
  public var query: String?
  public var result: SearchResult
  public var favourites: Set<Int64>
  /// The directory holds the bundled sample, not real offices.
  public var isSample: Bool
  /// Where more than fit is narrowed down: words after `/contacts` (the chat), or
  /// `--limit` and `contacts search` (`contacts list`, which takes no words).
  public var narrowedBy: Narrowing = .words

  public enum Narrowing: Sendable, Hashable {
    case words
    case limitOrSearch
  }

  public init(query: String?, result: SearchResult, favourites: Set<Int64>, isSample: Bool) {
    self.query = query
    self.result = result
    self.favourites = favourites
    self.isSample = isSample
  }
}

/// Something that happened to the directory.
public enum DirectoryEvent: Sendable, Hashable {
  case favouriteAdded(Contact)
  /// `/fav` of an office that already was a favourite: nothing changed.
  case alreadyFavourite(Contact)
  /// The office, when the directory has it, so the message names it as `/fav` does.
  case favouriteRemoved(id: Int64, contact: Contact? = nil)
  case notAFavourite(id: Int64)
  /// The id is valid but the directory does not have it.
  case contactMissing(id: String)
  case synced(SyncOutcome)
  case notice(DirectoryNotice)
  case storageFailed(DirectoryError)
}

public enum Notice: Sendable, Hashable {
  case help
  case currentLanguage(Language)
  case newConversation
  /// Ctrl-C at an empty prompt.
  case howToQuit
  /// The conversation was written as a transcript.
  case transcriptSaved(path: String, turns: Int)
  /// A typed line close to a button's title: nothing was sent; the same line again sends it.
  case didYouMean(title: String, number: Int)
  /// A line read as typed with the other keyboard layout on, and what it was read as.
  case readAs(typed: String, text: String)
  /// A line for the bot read before it was sent (wrong layout, Latin letters): what
  /// was sent, and how the line had been typed.
  case sentAs(LineReading)
  /// A line typed in Russian or Ukrainian in an English chat: `/lang` offered, once,
  /// in English and in that language.
  case offerLanguage(Language)
  /// Once a session, with the first made-up office or guide shown: what the sample is.
  case aboutSample
  /// The start message (`/start`) was read by the bot's NLU as another intent: said
  /// once, after its answer, when the tracker shows it.
  case startReadAs(start: String, intent: TurnInsight.Ranked)
  /// What the channel said about an answer (socket.io: reconnected, cut, silent).
  case channel(ReplyNote)
}

extension DirectoryEvent {
  /// A stable identifier for scripts (`--json`).
  public var code: String {
    switch self {
    case .favouriteAdded: "favourite_added"
    case .alreadyFavourite: "already_favourite"
    case .favouriteRemoved: "favourite_removed"
    case .notAFavourite: "not_a_favourite"
    case .contactMissing: "contact_missing"
    case .synced(let outcome):
      switch outcome {
      case .updated: "sync_updated"
      case .unchanged: "sync_unchanged"
      case .notDue: "sync_not_due"
      case .notConfigured: "sync_not_configured"
      case .failed(let error): error.code
      case .storageFailed: "storage_failed"
      }
    case .notice(let notice):
      switch notice {
      case .rebuilt: "cache_rebuilt"
      case .cacheUnavailable: "cache_unavailable"
      case .favouritesUnavailable: "favourites_unavailable"
      case .sample: "sample_directory"
      }
    case .storageFailed: "storage_failed"
    }
  }
}
