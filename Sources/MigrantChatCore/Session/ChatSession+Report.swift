import Foundation

extension ChatSession {
  /// `/report [TEXT]`: reports the guide the latest answer showed; without text, asks for it.
  ///
  /// Real bots answer from the same guidance without saying which guide: after such an
  /// answer the guides that match it and the user's words are offered, numbered, and
  /// the number chosen files the report. With no match the text is kept as a draft for
  /// the next `/report` after a guide. Typed text is never dropped.
  func report(_ text: String?) async -> [ChatEvent] {
    let typed = text?.trimmingWhitespace().nonEmpty
    let text = typed ?? reportDraft
    if let id = answerGuideID {
      let title = guideTitle(id)
      guard let text else {
        reportAwaitingText = (id, title)
        return [.report(.askText(guideTitle: title))]
      }
      // The draft goes with this report only when it is the text sent.
      if typed == nil { reportDraft = nil }
      return await submitReport(itemID: id, title: title, text: text)
    }
    let answer = lastMessages.compactMap(\.text).joined(separator: " ")
    let query = [typed ?? "", answer].joined(separator: " ")
    let found =
      tools?.guidance().search(
        HTMLText.plain(query), language: language, stemmer: tools?.stemmer ?? LightStemmer()) ?? []
    guard !found.isEmpty else {
      guard let text else {
        return [.inputError(.noGuideShown(command: "/report"))]
      }
      reportDraft = text
      return [.report(.keptAsDraft)]
    }
    reportDraft = text
    let offered = found.map { guide in
      Button(
        title: HTMLText.plain(guide.title(in: language)),
        payload: ReportChoice.payload(guideID: guide.id))
    }
    reportPicking = choices
    choices = offered
    return [.report(.chooseGuide(offered.map(\.title)))]
  }

  /// The line after `/report` offered guides: a number (or a title) picks one; anything
  /// else ends the choice. Nothing of it reaches the bot, and the report's text stays a
  /// draft (the line itself becomes the draft when there was none: it was the report).
  func pickReportGuide(_ line: String, input: UserInput, botChoices: [Button]) async
    -> [ChatEvent]
  {
    switch input {
    case .choice(let button), .layoutChoice(let button, _):
      reportPicking = nil
      choices = botChoices
      guard let guide = ReportChoice.guide(payload: button.payload) else { return [] }
      return await reportChosen(guide)
    case .noSuchChoice(let number, let count):
      // Asked again: the picker stays.
      return [.inputError(.noSuchChoice(number: number, count: count))]
    case .command:
      return cancelPending() + (await interpret(line, input: input))
    default:
      let typed = line.trimmingWhitespace()
      if reportDraft == nil, !typed.isEmpty { reportDraft = typed }
      return cancelPending()
    }
  }

  /// A guide picked from the ones `/report` offered: files the draft, or asks for the text.
  func reportChosen(_ id: Int64) async -> [ChatEvent] {
    let title = guideTitle(id)
    guard let text = reportDraft else {
      reportAwaitingText = (id, title)
      return [.report(.askText(guideTitle: title))]
    }
    reportDraft = nil
    return await submitReport(itemID: id, title: title, text: text)
  }

  private func guideTitle(_ id: Int64) -> String {
    HTMLText.plain(tools?.guidance().items[id]?.title(in: language) ?? "#\(id)")
  }

  func submitReport(itemID: Int64, title: String, text: String) async -> [ChatEvent] {
    guard text.count <= PendingReport.maxText else {
      reportDraft = text
      return [.inputError(.tooLong(limit: PendingReport.maxText))]
    }
    let desk = tools?.reports ?? ReportDesk(queue: nil, api: nil)
    let outcome = await desk.submit(itemID: itemID, text: text)
    return [.report(.outcome(outcome, guideTitle: title))]
  }

  /// Whether `sendQueuedReports` can send anything: a queue, and a data API to send to.
  public nonisolated var sendsQueuedReports: Bool {
    tools?.reports.queue != nil && tools?.reports.api != nil
  }

  /// Sends the reports waiting in the queue (at chat start and `/sync`); an event when any went.
  public func sendQueuedReports() async -> [ChatEvent] {
    guard let desk = tools?.reports else { return [] }
    let sent = await desk.flush().filter { $0.1.isSent }
    return sent.isEmpty ? [] : [.report(.queueSent(count: sent.count))]
  }
}

/// The numbered guides `/report` offers: a client-only payload, never sent to a bot.
enum ReportChoice {
  static func payload(guideID: Int64) -> String { "/report_guide{\"id\":\(guideID)}" }

  static func guide(payload: String?) -> Int64? {
    guard let payload, payload.hasPrefix("/report_guide{"),
      let fields = try? BotReplyDecoder.parse(
        Data(utf8Of: payload.dropFirst("/report_guide".count)))
    else { return nil }
    return fields["id"].flatMap(ItemsPayloadDecoder.id)
  }
}

extension String {
  /// Nil for the empty string.
  fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
