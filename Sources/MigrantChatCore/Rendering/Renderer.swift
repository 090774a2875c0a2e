/// Turns events into terminal text: pure, so it can be tested with goldens.
///
/// Every string that came from a server is sanitized here, once, before any
/// layout; colour codes are added only after, and only when `color` is set.
public struct Renderer: Sendable {
  public var width: Int
  public var color: Bool
  public var l10n: Localizer
  /// Whether a data API is configured: a missing contact's hint says `/sync`, or how
  /// to set one (a `/sync` without one only says that none is configured).
  public var canSync: Bool
  /// Output of a command-line command (`migrant-chat todo ...`): hints name the
  /// command line's commands, never the chat's `/todo ...`.
  public var commandLine: Bool
  /// The directory came from a real data API: with none configured now, a missing
  /// contact's hint does not ask to set one.
  public var directorySynced: Bool
  /// The terminal's height in lines, when known: a map fits in it.
  public var height: Int?
  /// The remembered place (`/place`): cards say how far each office is.
  public var home: HomePlace?
  /// The accessible mode (`Accessibility`): each bot message starts with a speaker
  /// word and an answer ends with a line saying so; glyphs are words, lists read name
  /// first, a map is a list. The caller turns colour off with it.
  public var accessible = false
  /// In the accessible mode, the line that ends each answer and counts its buttons:
  /// off where an answer is read back (history), with nothing to choose.
  public var endsAnswers = true

  public init(
    width: Int, color: Bool, language: Language, canSync: Bool = true, commandLine: Bool = false,
    directorySynced: Bool = false
  ) {
    self.width = width
    self.color = color
    self.l10n = Localizer(language)
    self.canSync = canSync
    self.commandLine = commandLine
    self.directorySynced = directorySynced
  }

  /// `key`, or its command-line variant when this renders a command-line command.
  func hint(_ key: MessageKey, _ cli: MessageKey) -> MessageKey { commandLine ? cli : key }

  /// "Contact N is not in the directory", with what to do about it.
  func missingContact(_ id: String) -> String {
    let key: MessageKey =
      canSync ? .contactMissing : directorySynced ? .contactMissingSynced : .contactMissingNoAPI
    return l10n(key, ["id": clean(id)])
  }

  private var wrapper: TextWrapper { TextWrapper(width: width) }

  public func render(_ event: ChatEvent) -> Rendered {
    switch event {
    case .reply(let reply, let cards):
      // Buttons are numbered across the whole answer, as the session counts them,
      // so every number on the screen from the latest answer can be typed.
      var number = 0
      var stdout = reply.messages.map { render(message: $0, cards: cards, number: &number) }
        .joined()
      if accessible && endsAnswers && !reply.messages.isEmpty {
        // One short line: the answer is complete, and how many buttons it offers.
        stdout += lines(
          StyledText(
            number == 0 ? l10n(.a11yAnswerEndNone) : l10n.plural(.a11yAnswerEnd, count: number)))
      }
      return Rendered(stdout: stdout, stderr: render(problems: reply.problems))
    case .contactList(let listing):
      return render(listing: listing)
    case .contactCard(let contact, let favourite):
      return Rendered(stdout: card(contact, favourite: favourite, full: true))
    case .directory(let event):
      return render(directory: event)
    case .todo(let event):
      return render(todo: event)
    case .report(let event):
      return render(report: event)
    case .inspect(let event):
      return render(inspect: event)
    case .late(let reply, let cards):
      // Their buttons are not numbered: a number picks from the answer after them.
      var number = 0
      let messages = reply.messages.map { message in
        var shown = message
        shown.buttons = []
        return render(message: shown, cards: cards, number: &number)
      }
      return Rendered(
        stdout: lines(StyledText(l10n(.socketLate), style: .notice)) + messages.joined(),
        stderr: render(problems: reply.problems))
    case .noAnswer:
      return Rendered(stdout: lines(StyledText(l10n(.noAnswer), style: .notice)))
    case .failure(.cancelled):
      return Rendered(stderr: lines(StyledText(l10n(.cancelled), style: .notice)))
    case .failure(let error):
      return Rendered(stderr: lines(StyledText(error.message(l10n), style: .error)))
    case .inputError(let error):
      return Rendered(stderr: lines(StyledText(message(for: error), style: .error)))
    case .notice(.help):
      return Rendered(stdout: help())
    case .notice(let notice):
      return Rendered(stdout: lines(StyledText(message(for: notice), style: .notice)))
    case .languageChanged(let language):
      // Announced in the new language: the user just asked for it.
      let text = Localizer(language)(.languageChanged, ["language": language.nameInSentence])
      return Rendered(stdout: lines(StyledText(text, style: .notice)))
    case .saveFailed(let detail):
      let text = l10n(.saveFailed, ["detail": TerminalSanitizer.clean(detail)])
      return Rendered(stderr: lines(StyledText(text, style: .error)))
    case .transcriptNotSaved(let path, let detail):
      let text = l10n(
        .transcriptNotSaved,
        ["path": TerminalSanitizer.clean(path), "detail": TerminalSanitizer.clean(detail)])
      return Rendered(stderr: lines(StyledText(text, style: .error)))
    case .nearby(let listing):
      return render(nearby: listing)
    case .officeMap(let map):
      return render(map: map)
    case .placeProblem(let problem):
      return Rendered(stderr: lines(StyledText(message(for: problem), style: .error)))
    case .placeSet(let home?):
      return Rendered(
        stdout: lines(StyledText(l10n(.placesSet, ["place": clean(home.name)]), style: .notice)))
    case .placeSet(nil):
      return Rendered(stdout: lines(StyledText(l10n(.placesForgotten), style: .notice)))
    case .placeShown(let home?):
      return Rendered(
        stdout: lines(
          StyledText(l10n(.placesCurrent, ["place": clean(home.name)]), style: .notice)))
    case .placeShown(nil):
      return Rendered(stdout: lines(StyledText(l10n(.placesNoneSet), style: .notice)))
    case .quit, .saveTranscript, .showHistory, .labelConversation:
      return Rendered()
    }
  }

  /// The echo of a piped input line, so stdout reads as a conversation log.
  /// `chose`: the title of the button a number chose, said with it in the accessible
  /// mode, where the line says who typed it ("You: 2 (Housing)") rather than `>`.
  public func renderEcho(_ line: String, chose: String? = nil, sent: String? = nil) -> String {
    var typed = TerminalSanitizer.clean(line, keepNewlines: false)
    if let sent {
      typed +=
        " " + l10n(.historySent, ["text": TerminalSanitizer.clean(sent, keepNewlines: false)])
    }
    guard accessible else { return lines(StyledText("> " + typed)) }
    let title = chose.map { " (" + TerminalSanitizer.clean($0, keepNewlines: false) + ")" } ?? ""
    return lines(StyledText(l10n(.historyYou) + ": " + typed + title))
  }

  public func message(for error: InputError) -> String {
    switch error {
    case .noSuchChoice(let number, let count):
      l10n(.noSuchButton, ["number": String(number), "max": String(count)])
    case .noButtonTitled(let title, let titles):
      titles.isEmpty
        ? l10n(.replayNoButtons, ["title": TerminalSanitizer.clean(title, keepNewlines: false)])
        : l10n(
          .replayNoButtonTitled,
          [
            "title": TerminalSanitizer.clean(title, keepNewlines: false),
            "titles": TerminalSanitizer.clean(
              titles.joined(separator: "; "), keepNewlines: false),
          ])
    case .notSentInTranscript(let command):
      l10n(
        .replayClientCommand, ["command": TerminalSanitizer.clean(command, keepNewlines: false)])
    case .unknownLanguage(let code):
      l10n(.unknownLanguage, ["value": TerminalSanitizer.clean(code, keepNewlines: false)])
    case .needsPath(let command):
      l10n(.needsPath, ["command": command])
    case .badHistoryNumber(let value):
      l10n(.historyBadNumber, ["value": TerminalSanitizer.clean(value, keepNewlines: false)])
    case .needsContactID(let command, let example):
      example.map { l10n(.contactNeedsID, ["command": command, "example": String($0)]) }
        ?? l10n(.contactNeedsIDNoExample, ["command": command])
    case .badContactID(let value, let example):
      l10n(.contactBadID, ["value": TerminalSanitizer.clean(value, keepNewlines: false)])
        + (example.map { " " + l10n(.contactIDExample, ["example": String($0)]) } ?? "")
    case .badDate(let text):
      l10n(.todoBadDate, ["date": TerminalSanitizer.clean(text, keepNewlines: false)])
    case .needsTaskNumber(let command, _):
      l10n(hint(.todoNeedsNumber, .todoNeedsNumberCLI), ["command": command])
    case .needsTaskTitle:
      l10n(hint(.todoNeedsTitle, .todoNeedsTitleCLI))
    case .tooLong(let limit):
      l10n(.inputTooLong, ["limit": String(limit)])
    case .noSuchMessage(let number, let count):
      l10n(.todoNoSuchMessage, ["number": String(number), "count": String(count)])
    case .unknownTodoCommand(let word):
      l10n(.todoUnknownCommand, ["word": TerminalSanitizer.clean(word, keepNewlines: false)])
    case .badTodoOption(let option):
      l10n(.todoBadOption, ["option": TerminalSanitizer.clean(option, keepNewlines: false)])
    case .noGuideShown(let command):
      l10n(.inputNoGuideShown, ["command": command])
    case .guideHasNoSteps(let title):
      l10n(.todoNoSteps, ["title": TerminalSanitizer.clean(title, keepNewlines: false)])
    case .badInspectSetting(let value):
      l10n(.inspectBadSetting, ["value": TerminalSanitizer.clean(value, keepNewlines: false)])
    case .needsParseText:
      l10n(.inspectNeedsText)
    case .badEventCount(let value):
      l10n(.inspectBadCount, ["value": TerminalSanitizer.clean(value, keepNewlines: false)])
    }
  }

  public func message(for notice: Notice) -> String {
    switch notice {
    case .help: Renderer(width: 80, color: false, language: l10n.language).help()
    case .currentLanguage(let language):
      l10n(.currentLanguage, ["language": language.nameInSentence, "code": language.rawValue])
    case .newConversation: l10n(.newConversation)
    case .howToQuit: l10n(.howToQuit)
    case .transcriptSaved(let path, let turns):
      l10n.plural(.transcriptSaved, count: turns, ["path": TerminalSanitizer.clean(path)])
    case .aboutSample: l10n(.sampleExplained)
    case .startReadAs(let start, let intent):
      l10n(.startReadAs, StartIntent.values(start: start, intent: intent, l10n: l10n))
    case .channel(.reconnected): l10n(.socketReconnected)
    case .channel(.connectionLost): l10n(.socketConnectionLost)
    case .channel(.silentSession): l10n(.socketSilentSession)
    case .channel(.conversationNotKept): l10n(.socketConversationNotKept)
    case .channel(.otherEvents(let names, let expected)):
      l10n(
        .socketOtherEvents,
        [
          "events": TerminalSanitizer.clean(names.joined(separator: ", "), keepNewlines: false),
          "expected": TerminalSanitizer.clean(expected, keepNewlines: false),
        ])
    case .didYouMean(let title, let number):
      l10n(
        .didYouMean,
        ["title": TerminalSanitizer.clean(title, keepNewlines: false), "number": String(number)])
    case .sentAs(let reading):
      l10n(
        reading.way == .latinLetters
          ? .sentAsLatin
          : reading.way == .englishLayout ? .sentAsEnglishLayout : .sentAsCyrillicLayout,
        ["text": TerminalSanitizer.clean(reading.text, keepNewlines: false)])
    case .offerLanguage(let language):
      // Both: the chat's language (English) and the one the line was typed in.
      l10n(language == .ru ? .offerRussian : .offerUkrainian) + "\n"
        + Localizer(language)(language == .ru ? .offerRussian : .offerUkrainian)
    case .readAs(let typed, let reading):
      l10n(
        .buttonReadAs,
        [
          "typed": TerminalSanitizer.clean(typed, keepNewlines: false),
          "text": TerminalSanitizer.clean(reading, keepNewlines: false),
        ])
    }
  }

  /// The commands of `/help`, in the order shown.
  static let helpRows: [MessageKey] = [
    .helpHelp, .helpRestart, .helpNew, .helpLangCommand, .helpContacts, .helpContact,
    .helpFavourite, .helpNear, .helpMap, .helpPlace, .helpSync, .helpHistoryCommand,
    .helpLabelCommand, .helpTodo,
    .helpReportCommand, .helpQuit,
  ]
  /// Commands for the bot's own team, listed after the everyday ones under their heading.
  static let developerHelpRows: [MessageKey] = [
    .helpInspect, .helpSlotsTracker, .helpParse, .helpSave, .helpSlash,
  ]

  /// `/help`: the introduction, then each command and what it does in two aligned
  /// columns, descriptions wrapped with a hanging indent. When the commands' column
  /// would take more than half the width, each description goes under its command.
  func help() -> String {
    var output = lines(StyledText(l10n(.helpIntro), style: .notice))
    func row(_ key: MessageKey) -> (String, String) {
      let parts = l10n(key).split(separator: "\t", maxSplits: 1).map(String.init)
      return (parts.first ?? "", parts.count > 1 ? parts[1] : "")
    }
    let everyday = Self.helpRows.map(row)
    let developer = Self.developerHelpRows.map(row)
    let column = (everyday + developer).map { DisplayWidth.of($0.0) }.max() ?? 0
    let side = 2 + column + 2 <= width / 2
    output += helpRows(everyday, column: column, side: side)
    output += lines(StyledText(l10n(.helpDevelopers), style: .notice))
    output += helpRows(developer, column: column, side: side)
    return output
  }

  private func helpRows(_ rows: [(String, String)], column: Int, side: Bool) -> String {
    var output = ""
    for (command, description) in rows {
      if side {
        let padded = command + String(repeating: " ", count: column - DisplayWidth.of(command))
        let hanging = String(repeating: " ", count: 2 + column + 2)
        output += lines(
          StyledText("\(padded)  \(description)", style: .notice), indent: "  ",
          hangingIndent: hanging)
      } else {
        output += lines(StyledText(command, style: .notice), indent: "  ")
        output += lines(StyledText(description, style: .notice), indent: "      ")
      }
    }
    return output
  }

  // MARK: - Bot messages

  /// One message; `number` is the last button number shown before it in the same answer.
  func render(message: BotMessage, cards: ContactCards = .unresolved, number: inout Int) -> String {
    var output = ""
    // The speaker word starts the message's first line, or is a line of its own.
    var speaker = accessible ? StyledText(l10n(.a11yBot)) : nil
    if message.isSample {
      output += lines(StyledText(l10n(.sampleGuide), style: .notice))
    }
    if let text = message.text {
      output += lines(
        (speaker.map { $0 + StyledText(" ") } ?? StyledText()) + InlineMarkup.parse(clean(text)))
      speaker = nil
    }
    if let speaker { output = lines(speaker) + output }
    output += render(buttons: message.buttons, indent: "  ", number: &number)
    if let image = message.image {
      output += labelled(.labelImage, clean(image), indent: "  ")
    }
    if let attachment = message.attachment {
      output += labelled(.labelAttachment, describe(attachment: attachment), indent: "  ")
    }
    output += render(custom: message.unknownCustom, contactIDs: message.contactIDs, cards: cards)
    for element in message.elements {
      output += render(element: element, number: &number)
    }
    return output
  }

  func render(buttons: [Button], indent: String, number: inout Int) -> String {
    var output = ""
    for button in buttons {
      var line = StyledText()
      if button.isChoice {
        number += 1
        // "[1]" is read "left bracket one right bracket" by some screen readers.
        line.append(accessible ? "\(number)." : "[\(number)]", style: .choiceNumber)
        line.append(" " + clean(button.title))
      } else if let url = button.url {
        // A link-only button: shown, not numbered, since choosing it sends nothing.
        let title = clean(button.title)
        if title != url { line.append(title + " ") }
        line.append(clean(url), style: .link)
      }
      let hanging = indent + String(repeating: " ", count: "[\(number)] ".count)
      output += lines(line, indent: indent, hangingIndent: hanging)
    }
    return output
  }

  private func render(element: CardElement, number: inout Int) -> String {
    var output = lines(
      StyledText("• ") + StyledText(clean(element.title), style: .bold), indent: "  ",
      hangingIndent: "    ")
    if let subtitle = element.subtitle {
      output += lines(InlineMarkup.parse(clean(subtitle)), indent: "    ")
    }
    if let image = element.imageURL {
      output += labelled(.labelImage, clean(image), indent: "    ")
    }
    output += render(buttons: element.buttons, indent: "    ", number: &number)
    return output
  }

  private func render(custom: JSONValue?, contactIDs: [String], cards: ContactCards) -> String {
    var output = ""
    if !contactIDs.isEmpty {
      output += render(contactIDs: contactIDs, cards: cards)
    }
    if let custom {
      output += labelled(.labelData, custom.sanitized.compactText, indent: "  ", valueStyle: .plain)
    }
    return output
  }

  /// An attachment as a link when it has one (`payload.src`, `payload.url`, `url`), else compact JSON.
  private func describe(attachment: JSONValue) -> String {
    if let url = attachment.stringValue { return clean(url) }
    let candidates = [
      attachment["payload"]?["src"], attachment["payload"]?["url"], attachment["url"],
    ]
    if let url = candidates.compactMap({ $0?.stringValue }).first {
      let kind = attachment["type"]?.stringValue.map { clean($0) + ": " } ?? ""
      return kind + clean(url)
    }
    return attachment.sanitized.compactText
  }

  private func render(problems: [ReplyProblem]) -> String {
    guard !problems.isEmpty else { return "" }
    var output = lines(
      StyledText(l10n.plural(.problemsSkipped, count: problems.count), style: .error))
    for problem in problems {
      output += lines(StyledText(describe(problem: problem)), indent: "  ")
    }
    return output
  }

  public func describe(problem: ReplyProblem) -> String {
    switch problem {
    case .notAnObject(let index, let got):
      l10n(.problemNotAnObject, ["index": String(index), "type": got])
    case .wrongType(let index, let field, let expected, let got):
      l10n(
        .problemWrongType,
        ["index": String(index), "field": clean(field), "expected": expected, "type": got])
    }
  }

  // MARK: - Layout

  func clean(_ text: String) -> String { TerminalSanitizer.clean(text) }

  func labelled(
    _ label: MessageKey, _ value: String, indent: String, valueStyle: TextStyle = .link
  ) -> String {
    let prefix = l10n(label) + ": "
    let text = StyledText(prefix, style: .label) + StyledText(value, style: valueStyle)
    return lines(text, indent: indent, hangingIndent: indent + "  ")
  }

  func lines(
    _ text: StyledText, indent: String = "", hangingIndent: String? = nil
  ) -> String {
    var text = text
    if accessible {
      // Words for glyphs before the wrap, so each line still fits the width.
      // Colour is off in this mode, so the runs' styles are not needed.
      text = StyledText(Accessibility.spoken(text.plainText, l10n: l10n))
    }
    return wrapper.wrap(text, indent: indent, hangingIndent: hangingIndent)
      .map { ANSIStyle.apply($0, color: color) + "\n" }.joined()
  }
}
