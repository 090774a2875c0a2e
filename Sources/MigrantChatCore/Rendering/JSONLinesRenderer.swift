import Foundation

/// Renders events as JSON Lines for scripts (`--json`): one object per line.
///
/// The schema is stable and documented in the README. Strings from servers
/// are sanitized as for the terminal; messages for people are translated.
public struct JSONLinesRenderer: Sendable {
  public var language: Language

  public init(language: Language) {
    self.language = language
  }

  public func render(_ event: ChatEvent) -> String {
    let text = Renderer(width: 80, color: false, language: language)
    let l10n = Localizer(language)
    var objects: [JSONValue] = []
    switch event {
    case .reply(let reply, let cards):
      var number = 0  // across the answer, as the session counts them
      objects = reply.messages.map { object(for: $0, cards: cards, number: &number) }
      objects += reply.problems.map { problem in
        .object([
          "type": .string("problem"), "message": .string(text.describe(problem: problem)),
        ])
      }
    case .late(let reply, let cards):
      var number = 0
      objects = reply.messages.map { message in
        guard case .object(var fields) = object(for: message, cards: cards, number: &number)
        else { return .null }
        fields["late"] = .bool(true)
        return .object(fields)
      }
    case .noAnswer:
      objects = [.object(["type": .string("no_answer"), "message": .string(l10n(.noAnswer))])]
    case .failure(let error):
      objects = [errorObject(code: error.code, message: error.message(l10n))]
    case .inputError(let inputError):
      let code =
        switch inputError {
        case .noSuchChoice: "no_such_button"
        case .noButtonTitled: "no_button_titled"
        case .notSentInTranscript: "client_command"
        case .unknownLanguage: "unknown_language"
        case .needsContactID: "needs_contact_id"
        case .needsPath: "needs_path"
        case .badHistoryNumber: "bad_history_number"
        case .badContactID: "bad_contact_id"
        case .badDate: "bad_date"
        case .needsTaskNumber: "needs_task_number"
        case .needsTaskTitle: "needs_task_title"
        case .tooLong: "too_long"
        case .noSuchMessage: "no_such_message"
        case .unknownTodoCommand: "unknown_todo_command"
        case .badTodoOption: "bad_todo_option"
        case .noGuideShown: "no_guide_shown"
        case .guideHasNoSteps: "guide_has_no_steps"
        case .badInspectSetting: "bad_inspect_setting"
        case .needsParseText: "needs_parse_text"
        case .badEventCount: "bad_event_count"
        }
      objects = [errorObject(code: code, message: text.message(for: inputError))]
    case .notice(let notice):
      let code =
        switch notice {
        case .help: "help"
        case .currentLanguage: "language"
        case .newConversation: "new_conversation"
        case .howToQuit: "how_to_quit"
        case .transcriptSaved: "transcript_saved"
        case .didYouMean: "did_you_mean"
        case .readAs: "read_as"
        case .sentAs: "sent_as"
        case .offerLanguage: "offer_language"
        case .aboutSample: "sample"
        case .startReadAs: "start_misread"
        case .channel(.reconnected): "reconnected"
        case .channel(.connectionLost): "connection_lost"
        case .channel(.silentSession): "silent_session"
        case .channel(.otherEvents): "other_events"
        case .channel(.conversationNotKept): "conversation_not_kept"
        }
      var fields: [String: JSONValue] = [
        "type": .string("notice"), "code": .string(code),
        "message": .string(text.message(for: notice)),
      ]
      if case .sentAs(let reading) = notice {
        fields["sent"] = .string(reading.text)
        fields["typed"] = .string(reading.typed)
        fields["way"] = .string(reading.way.rawValue)
      }
      objects = [.object(fields)]
    case .languageChanged(let language):
      objects = [.object(["type": .string("language"), "language": .string(language.rawValue)])]
    case .contactList(let listing):
      var fields: [String: JSONValue] = [
        "type": .string("contacts"),
        "contacts": .array(
          listing.result.contacts.map {
            ContactExport.object(
              $0, language: language, favourite: listing.favourites.contains($0.id))
          }),
        "total": .number(Double(listing.result.total)), "sample": .bool(listing.isSample),
        "suggestions": .array(listing.result.suggestions.map(JSONValue.string)),
      ]
      // The query as read, when not as typed (the other keyboard layout).
      if let readAs = listing.result.readAs { fields["read_as"] = .string(readAs) }
      if !listing.result.leftOut.isEmpty {
        fields["left_out"] = .array(listing.result.leftOut.map(JSONValue.string))
      }
      objects = [.object(fields)]
    case .contactCard(let contact, let favourite):
      objects = [
        .object([
          "type": .string("contact"),
          "contact": ContactExport.object(contact, language: language, favourite: favourite),
        ])
      ]
    case .directory(let directoryEvent):
      let rendered = text.render(directory: directoryEvent)
      let message = (rendered.stdout + rendered.stderr).trimmingCharacters(
        in: .whitespacesAndNewlines)
      objects = [
        rendered.stderr.isEmpty
          ? .object([
            "type": .string("notice"), "code": .string(directoryEvent.code),
            "message": .string(message),
          ])
          : errorObject(code: directoryEvent.code, message: message)
      ]
    case .todo(let todoEvent):
      objects = [todoObject(todoEvent, text: text)]
    case .report(let reportEvent):
      objects = [reportObject(reportEvent, text: text)]
    case .inspect(let inspectEvent):
      objects = [inspectObject(inspectEvent, text: text)]
    case .saveFailed(let detail):
      objects = [
        errorObject(code: "save_failed", message: l10n(.saveFailed, ["detail": clean(detail)]))
      ]
    case .transcriptNotSaved(let path, let detail):
      objects = [
        errorObject(
          code: "transcript_not_saved",
          message: l10n(.transcriptNotSaved, ["path": clean(path), "detail": clean(detail)]))
      ]
    case .nearby(let listing):
      objects = [
        .object([
          "type": .string("nearby"), "place": NearbyExport.place(listing.place),
          "contacts": .array(
            listing.result.offices.map {
              NearbyExport.object(
                $0, language: language, favourite: listing.favourites.contains($0.contact.id))
            }),
          "total": .number(Double(listing.result.total)), "sample": .bool(listing.isSample),
        ])
      ]
    case .officeMap(let map):
      var fields: [String: JSONValue] = [
        "type": .string("map"),
        "contacts": .array(
          map.offices.filter { map.view.contains($0.point) }.map {
            // Without a place, distances would be from the map's middle: left out.
            map.place == nil
              ? ContactExport.object($0.contact, language: language, favourite: false)
              : NearbyExport.object($0, language: language, favourite: false)
          }),
      ]
      if let place = map.place { fields["place"] = NearbyExport.place(place) }
      objects = [.object(fields)]
    case .placeProblem(let problem):
      objects = [errorObject(code: "bad_place", message: text.message(for: problem))]
    case .placeSet(let home), .placeShown(let home):
      objects = [
        .object([
          "type": .string("place"),
          "place": home.map { NearbyExport.place(.home($0)) } ?? .null,
        ])
      ]
    case .quit, .saveTranscript, .showHistory, .labelConversation:
      objects = []
    }
    return objects.map { $0.compactText + "\n" }.joined()
  }

  /// The line for a user's input, so a log shows both sides.
  public func renderUser(_ line: String) -> String {
    JSONValue.object(["type": .string("user"), "text": .string(clean(line))]).compactText + "\n"
  }

  private func todoObject(_ event: TodoEvent, text: Renderer) -> JSONValue {
    let rendered = text.render(todo: event)
    let message = (rendered.stdout + rendered.stderr).trimmingCharacters(
      in: .whitespacesAndNewlines)
    let (code, tasks, today): (String, [TodoTask], DayDate?) =
      switch event {
      case .list(let list): ("list", list.tasks, list.today)
      case .added(let tasks, _): ("added", tasks, nil)
      case .completed(let task): ("completed", [task], nil)
      case .reopened(let task): ("reopened", [task], nil)
      case .alreadyDone(let task): ("already_done", [task], nil)
      case .alreadyOpen(let task): ("already_open", [task], nil)
      case .dueInPast: ("due_in_past", [], nil)
      case .dueNextYear: ("due_next_year", [], nil)
      case .dueFromTitle(let task, _): ("due_from_title", [task], nil)
      case .answerChoices: ("answer_choices", [], nil)
      case .removed(let task): ("removed", [task], nil)
      case .shown(let task, _, let today): ("shown", [task], today)
      case .noSuchTask: ("no_such_task", [], nil)
      case .dueSoon: ("due_soon", [], nil)
      case .unavailable: ("todo_unavailable", [], nil)
      }
    guard rendered.stderr.isEmpty else { return errorObject(code: code, message: message) }
    var fields: [String: JSONValue] = [
      "type": .string("todo"), "code": .string(code), "message": .string(message),
    ]
    if !tasks.isEmpty || code == "list" {
      let day = today ?? DayDate.local()
      fields["tasks"] = .array(tasks.map { TodoExport.object($0, today: day) })
    }
    if case .dueSoon(let overdue, let soon) = event {
      fields["overdue"] = .number(Double(overdue))
      fields["soon"] = .number(Double(soon))
    }
    return .object(fields)
  }

  /// `{"type":"inspect", ...}`: the same data as the dimmed block, for scripts.
  private func inspectObject(_ event: InspectEvent, text: Renderer) -> JSONValue {
    func insightFields(_ insight: TurnInsight) -> [String: JSONValue] {
      func ranked(_ intent: TurnInsight.Ranked) -> JSONValue {
        var fields: [String: JSONValue] = ["name": .string(clean(intent.name))]
        if let confidence = intent.confidence { fields["confidence"] = .number(confidence) }
        return .object(fields)
      }
      var fields: [String: JSONValue] = [
        "ranking": .array(insight.ranking.map(ranked)),
        "entities": .array(
          insight.entities.map {
            .object(["entity": .string(clean($0.entity)), "value": $0.value.sanitized])
          }),
        "slots": .array(
          insight.slots.map {
            .object([
              "name": .string(clean($0.name)), "old": $0.old?.sanitized ?? .null,
              "new": $0.new.sanitized,
            ])
          }),
        "actions": .array(
          insight.actions.map { action in
            var fields: [String: JSONValue] = ["name": .string(clean(action.name))]
            if let policy = action.policy { fields["policy"] = .string(clean(policy)) }
            if let confidence = action.confidence { fields["confidence"] = .number(confidence) }
            return .object(fields)
          }),
      ]
      if let intent = insight.intent { fields["intent"] = ranked(intent) }
      if let text = insight.text { fields["text"] = .string(clean(text)) }
      return fields
    }
    var fields: [String: JSONValue] = ["type": .string("inspect")]
    switch event {
    case .turn(let insight):
      fields.merge(insightFields(insight)) { _, new in new }
      fields["code"] = .string("turn")
    case .parse(let insight):
      fields.merge(insightFields(insight)) { _, new in new }
      fields["code"] = .string("parse")
    case .slots(let slots):
      fields["code"] = .string("slots")
      fields["slots"] = JSONValue.object(slots).sanitized
    case .tracker(let lines):
      fields["code"] = .string("tracker")
      fields["events"] = .array(
        lines.map { .object(["event": .string(clean($0.kind)), "text": .string(clean($0.text))]) })
    case .switched(let on):
      fields["code"] = .string(on ? "on" : "off")
    case .unavailable(let reason):
      return .object([
        "type": .string("notice"), "code": .string(reason.code),
        "message": .string(text.message(for: reason)),
      ])
    }
    return .object(fields)
  }

  private func reportObject(_ event: ReportEvent, text: Renderer) -> JSONValue {
    let rendered = text.render(report: event)
    let message = (rendered.stdout + rendered.stderr).trimmingCharacters(
      in: .whitespacesAndNewlines)
    let code =
      switch event {
      case .askText: "report_ask"
      case .cancelled: "report_cancelled"
      case .chooseGuide: "report_choose_guide"
      case .keptAsDraft: "report_kept_as_draft"
      case .queueSent: "report_queue_sent"
      case .outcome(.sent, _): "report_sent"
      case .outcome(.queued, _): "report_queued"
      case .outcome(.refused, _): "report_refused"
      case .outcome(.notSaved, _): "report_not_saved"
      }
    switch event {
    case .outcome(.refused, _), .outcome(.notSaved, _):
      return errorObject(code: code, message: message)
    default:
      return .object([
        "type": .string("notice"), "code": .string(code), "message": .string(message),
      ])
    }
  }

  private func errorObject(code: String, message: String) -> JSONValue {
    .object(["type": .string("error"), "code": .string(code), "message": .string(message)])
  }

  private func object(for message: BotMessage, cards: ContactCards, number: inout Int)
    -> JSONValue
  {
    var fields: [String: JSONValue] = ["type": .string("bot")]
    if let text = message.text { fields["text"] = .string(clean(text)) }
    if message.isSample { fields["sample"] = .bool(true) }
    func buttons(_ list: [Button]) -> JSONValue {
      .array(
        list.map { button in
          var entry: [String: JSONValue] = ["title": .string(clean(button.title))]
          if let payload = button.payload {
            number += 1
            entry["number"] = .number(Double(number))
            entry["payload"] = .string(clean(payload))
          }
          if let url = button.url { entry["url"] = .string(clean(url)) }
          return .object(entry)
        })
    }
    if !message.buttons.isEmpty { fields["buttons"] = buttons(message.buttons) }
    if let image = message.image { fields["image"] = .string(clean(image)) }
    if let attachment = message.attachment { fields["attachment"] = attachment.sanitized }
    if let custom = message.custom { fields["custom"] = custom.sanitized }
    if !message.contactIDs.isEmpty {
      // Ids are numbers, as in `cards` and `contacts --json`; one the bot sent that is
      // not a number stays a string.
      fields["contacts"] = .array(message.contactIDs.map(Self.idValue))
      if cards.resolved {
        fields["cards"] = .array(
          message.contactIDs.compactMap { cards.found[$0] }.map {
            ContactExport.object(
              $0, language: language, favourite: cards.favourites.contains($0.id))
          })
        let missing = message.contactIDs.filter { cards.found[$0] == nil }
        if !missing.isEmpty {
          fields["missing_contacts"] = .array(missing.map(Self.idValue))
        }
      }
    }
    if !message.elements.isEmpty {
      fields["elements"] = .array(
        message.elements.map { element in
          var entry: [String: JSONValue] = [
            "title": .string(clean(element.title)), "buttons": buttons(element.buttons),
          ]
          if let subtitle = element.subtitle { entry["subtitle"] = .string(clean(subtitle)) }
          if let image = element.imageURL { entry["image_url"] = .string(clean(image)) }
          return .object(entry)
        })
    }
    return .object(fields)
  }

  private func clean(_ text: String) -> String { TerminalSanitizer.clean(text) }

  static func idValue(_ id: String) -> JSONValue {
    if let number = Int64(id) { return .number(Double(number)) }
    return .string(TerminalSanitizer.clean(id))
  }
}
