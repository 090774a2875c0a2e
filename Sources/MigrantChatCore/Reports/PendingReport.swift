import Foundation

/// A report of a wrong guide that the data API has not yet acknowledged with `201`.
public struct PendingReport: Sendable, Hashable {
  public var id: Int64
  public var itemID: Int64
  public var text: String
  public var createdAt: Date
  public var attempts: Int
  /// Why the last try failed, in the user's language when it was made.
  public var lastError: String?
  /// The API answered 4xx (or another status than 201): not sent again by itself,
  /// since the same report would be refused again; `report --send` tries anyway.
  public var refused: Bool

  public init(
    id: Int64, itemID: Int64, text: String, createdAt: Date, attempts: Int = 0,
    lastError: String? = nil, refused: Bool = false
  ) {
    self.id = id
    self.itemID = itemID
    self.text = text
    self.createdAt = createdAt
    self.attempts = attempts
    self.lastError = lastError
    self.refused = refused
  }

  /// Longer reports are refused before anything is stored.
  public static let maxText = 10_000
}

/// Where reports wait for the data API: the state database (mode 0600), never the cache.
///
/// A report is claimed before it is posted: the claim is one statement that only
/// succeeds on a row nobody holds (or whose claim is older than `staleAfter`, its
/// sender having died), so two processes, or two tasks of one, never post the
/// same report.
public protocol ReportQueue: Sendable {
  /// Stores a report durably (committed before it returns) and gives its queue id;
  /// with `claimedBy`, the new row is already claimed by that sender.
  func enqueue(itemID: Int64, text: String, now: Date, claimedBy: String?) throws(DirectoryError)
    -> PendingReport
  func pending() throws(DirectoryError) -> [PendingReport]
  /// Takes report `id` for `claimer`: true when this call won it.
  func claim(id: Int64, by claimer: String, now: Date, staleAfter: TimeInterval)
    throws(DirectoryError) -> Bool
  /// Records a failed try and frees the claim; `refused` when the API answered and said no.
  func markFailed(id: Int64, error: String, refused: Bool) throws(DirectoryError)
  /// Removes a report: after a `201`, or when the user drops it.
  func remove(id: Int64) throws(DirectoryError) -> Bool
}

extension ReportQueue {
  public func enqueue(itemID: Int64, text: String, now: Date) throws(DirectoryError)
    -> PendingReport
  {
    try enqueue(itemID: itemID, text: text, now: now, claimedBy: nil)
  }
}

/// `POST {dataApi}/faq/reports/` (contract §2).
public protocol ReportAPI: Sendable {
  var baseURL: String { get }
  /// Posts `body` as JSON to `path`; the HTTP status and the answer's first line.
  func post(_ path: String, json body: Data) async throws(DataAPIError) -> (
    status: Int, firstLine: String
  )
}
