import Foundation

extension ChatSession {
  /// `events` with, when the inspector is on and the bot answered, what it understood.
  /// The first time the inspector is not available it says why, once, and turns itself off.
  func inspected(_ events: [ChatEvent]) async -> [ChatEvent] {
    guard inspecting,
      events.contains(where: {
        switch $0 {
        case .reply, .noAnswer: true
        default: false
        }
      })
    else { return events }
    switch await (tools?.inspector ?? OfflineInspector()).events(sender: trackerSender) {
    case .success(let tracker):
      return events + [.inspect(.turn(TurnInsight(events: tracker)))]
    case .failure(let reason):
      inspecting = false
      return events + [.inspect(.unavailable(reason))]
    }
  }

  /// `/inspect`, `/slots`, `/tracker` and `/parse`.
  func runInspector(_ command: ClientCommand) async -> [ChatEvent] {
    let inspector = tools?.inspector ?? OfflineInspector()
    switch command {
    case .inspect(nil):
      return [.inspect(.switched(on: inspecting))]
    case .inspect(let setting?):
      switch setting.lowercased() {
      case "on", "1", "yes", "вкл", "увімк": inspecting = true
      case "off", "0", "no", "выкл", "вимк": inspecting = false
      default: return [.inputError(.badInspectSetting(setting))]
      }
      return [.inspect(.switched(on: inspecting))]
    case .slots:
      switch await inspector.slots(sender: trackerSender) {
      case .success(let slots): return [.inspect(.slots(slots))]
      case .failure(let reason): return [.inspect(.unavailable(reason))]
      }
    case .tracker(let typed):
      var count = 10
      if let typed {
        guard let number = Int(typed), (1...10_000).contains(number) else {
          return [.inputError(.badEventCount(typed))]
        }
        count = number
      }
      switch await inspector.events(sender: trackerSender) {
      case .success(let events):
        return [.inspect(.tracker(events.suffix(count).map(TrackerLine.init)))]
      case .failure(let reason): return [.inspect(.unavailable(reason))]
      }
    case .parse(let text):
      guard let text, !text.isEmpty else { return [.inputError(.needsParseText)] }
      switch await inspector.parse(text) {
      case .success(let insight): return [.inspect(.parse(insight))]
      case .failure(let reason): return [.inspect(.unavailable(reason))]
      }
    default:
      return []
    }
  }
}
