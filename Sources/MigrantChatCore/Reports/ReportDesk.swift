import Foundation

/// Sends reports of wrong guides, keeping each in the queue until the API says `201`.
///
/// A report is written to the queue first, then sent, then removed: the text is
/// never only in memory. If the process dies between the `201` and the removal,
/// the report is sent again later and the API gets it twice (at least once, never
/// lost); the contract has no idempotency key to prevent that.
public struct ReportDesk: Sendable {
  public let queue: (any ReportQueue)?
  public let api: (any ReportAPI)?

  public init(queue: (any ReportQueue)?, api: (any ReportAPI)?) {
    self.queue = queue
    self.api = api
  }

  public static let path = "/faq/reports/"

  /// What became of one report.
  public enum Outcome: Sendable, Hashable {
    /// `201`: the API has it.
    case sent(itemID: Int64)
    /// Kept in the queue, to be sent at the next sync or chat start; `reason` says why now failed.
    case queued(itemID: Int64, reason: Reason)
    /// The API answered with another status (4xx): kept, shown by `report --pending`.
    case refused(itemID: Int64, status: Int, body: String)
    /// Neither sent nor stored (a full disk, no state database and no API): the
    /// text is given back so the user can keep it.
    case notSaved(itemID: Int64, text: String, detail: String)

    public var isSent: Bool {
      if case .sent = self { true } else { false }
    }
  }

  public enum Reason: Sendable, Hashable {
    case noDataAPI
    case failed(DataAPIError)
  }

  /// How long a claim holds: a sender that died mid-post frees its report after this.
  /// Longer than any one post can take (the data API's transfer limit is seconds).
  public static let claimTimeout: TimeInterval = 600

  /// Stores and sends one report. The row is stored already claimed, so a flush
  /// running beside this one (a chat's background send, `/sync`) leaves it alone.
  public func submit(itemID: Int64, text: String, now: Date = Date()) async -> Outcome {
    var stored: PendingReport?
    var storeError: DirectoryError?
    if let queue {
      do {
        stored = try queue.enqueue(itemID: itemID, text: text, now: now, claimedBy: Self.claimer())
      } catch {
        storeError = error
      }
    } else {
      storeError = .storage(detail: "no state database")
    }
    let outcome =
      if let api { await send(itemID: itemID, text: text, api: api) } else {
        Outcome.queued(itemID: itemID, reason: .noDataAPI)
      }
    guard let stored else {
      return outcome.isSent
        ? outcome : .notSaved(itemID: itemID, text: text, detail: storeError?.detail ?? "")
    }
    record(outcome, of: stored.id)
    return outcome
  }

  /// Sends what waits in the queue (not the refused ones unless `includingRefused`).
  /// Each report is claimed first; one another sender holds is skipped. Stops at
  /// the first network failure: the rest would fail the same way.
  public func flush(includingRefused: Bool = false) async -> [(PendingReport, Outcome)] {
    guard let queue, let api, let waiting = try? queue.pending() else { return [] }
    let claimer = Self.claimer()
    var results: [(PendingReport, Outcome)] = []
    for report in waiting where includingRefused || !report.refused {
      let won = try? queue.claim(
        id: report.id, by: claimer, now: Date(), staleAfter: Self.claimTimeout)
      guard won == true else { continue }
      let outcome = await send(itemID: report.itemID, text: report.text, api: api)
      record(outcome, of: report.id)
      results.append((report, outcome))
      if case .queued = outcome { break }
    }
    return results
  }

  /// What the queue keeps of an outcome: a sent report goes, a failed one stays
  /// (with why) and its claim is freed.
  private func record(_ outcome: Outcome, of id: Int64) {
    switch outcome {
    case .sent:
      _ = try? queue?.remove(id: id)
    case .queued(_, let reason):
      try? queue?.markFailed(id: id, error: Self.describe(reason), refused: false)
    case .refused(_, let status, let body):
      try? queue?.markFailed(
        id: id, error: "HTTP \(status)" + (body.isEmpty ? "" : ": " + body), refused: true)
    case .notSaved:
      break
    }
  }

  /// One sender's name in the claims: this process and a fresh id, so two tasks of
  /// one process are two senders too.
  private static func claimer() -> String {
    "\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
  }

  private func send(itemID: Int64, text: String, api: any ReportAPI) async -> Outcome {
    let body = JSONValue.object([
      "itemId": .number(Double(itemID)), "description": .string(text),
    ]).compactText
    do {
      let answer = try await api.post(Self.path, json: Data(utf8Of: body))
      if answer.status == 201 { return .sent(itemID: itemID) }
      // A server error or "too many requests" is worth another try; any other answer is a no.
      if answer.status == 429 || (500...599).contains(answer.status) {
        return .queued(
          itemID: itemID,
          reason: .failed(
            .httpStatus(
              server: api.baseURL, status: answer.status, firstLine: answer.firstLine,
              retryAfter: nil)))
      }
      return .refused(itemID: itemID, status: answer.status, body: answer.firstLine)
    } catch {
      return .queued(itemID: itemID, reason: .failed(error))
    }
  }

  /// The reason in English, for the queue's record (shown translated when it is read).
  public static func describe(_ reason: Reason) -> String {
    switch reason {
    case .noDataAPI: "no data API configured"
    case .failed(let error): error.reportReason(Localizer(.en))
    }
  }
}
