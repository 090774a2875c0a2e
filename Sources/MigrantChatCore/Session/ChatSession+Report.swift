import Foundation

extension ChatSession {
  /// `/report [TEXT]`: reports the last guide shown; without text, asks for it.
  func report(_ text: String?) async -> [ChatEvent] {
    guard let id = lastGuideID else {
      return [.inputError(.noGuideShown(command: "/report"))]
    }
    let title = tools?.guidance().items[id]?.title(in: language) ?? "#\(id)"
    guard let text, !text.isEmpty else {
      reportAwaitingText = (id, title)
      return [.report(.askText(guideTitle: HTMLText.plain(title)))]
    }
    return await submitReport(itemID: id, title: HTMLText.plain(title), text: text)
  }

  func submitReport(itemID: Int64, title: String, text: String) async -> [ChatEvent] {
    guard text.count <= PendingReport.maxText else {
      return [.inputError(.tooLong(limit: PendingReport.maxText))]
    }
    let desk = tools?.reports ?? ReportDesk(queue: nil, api: nil)
    let outcome = await desk.submit(itemID: itemID, text: text)
    return [.report(.outcome(outcome, guideTitle: title))]
  }

  /// Sends the reports waiting in the queue (at chat start and `/sync`); an event when any went.
  public func sendQueuedReports() async -> [ChatEvent] {
    guard let desk = tools?.reports else { return [] }
    let sent = await desk.flush().filter { _, outcome in
      if case .sent = outcome { true } else { false }
    }
    return sent.isEmpty ? [] : [.report(.queueSent(count: sent.count))]
  }
}
