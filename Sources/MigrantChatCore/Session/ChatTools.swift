import Foundation

/// The migrant's own tools in the chat: the to-do list and reporting a wrong guide.
public struct ChatTools: Sendable {
  /// Nil when the state database could not be opened: `/todo` says so.
  public var todos: (any TodoStore)?
  public var reports: ReportDesk
  /// The cached guidance, for the steps of a guide and its title.
  public var guidance: @Sendable () -> GuidanceTree
  /// Today in the user's time zone (injected, so tests can fix it).
  public var today: @Sendable () -> DayDate
  public var now: @Sendable () -> Date
  /// What the bot understood, turn by turn (`--inspect`, `/inspect`, `/slots`, `/tracker`,
  /// `/parse`); nil: the commands say the inspector is not available.
  public var inspector: (any InspectorSource)?
  /// `--inspect`: the inspector is on from the start.
  public var inspectFromStart = false
  /// For finding the guide a report is about (`/report` after an answer that is no guide).
  public var stemmer: any WordStemmer = LightStemmer()

  public init(
    todos: (any TodoStore)?, reports: ReportDesk, guidance: @escaping @Sendable () -> GuidanceTree,
    today: @escaping @Sendable () -> DayDate = { DayDate.local() },
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.todos = todos
    self.reports = reports
    self.guidance = guidance
    self.today = today
    self.now = now
  }
}
