import Foundation

/// The inspector: what the bot understood, dimmed, on stderr.
///
/// A turn packs into as few lines as fit: `intent: insurance 0.97 (greet 0.02,
/// housing 0.01) · entities: city=Brno · slots: city - -> Brno · actions:
/// action_insurance (RulePolicy 1.00)`. Every name and value comes from the
/// server, so each is sanitized like the bot's text.
extension Renderer {
  /// `text` cut to `limit` characters, with "…" where it was cut.
  static func cut(_ text: String, to limit: Int) -> String {
    text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
  }

  func render(inspect event: InspectEvent) -> Rendered {
    switch event {
    case .turn(let insight):
      return Rendered(stderr: packed(parts(of: insight, full: true)))
    case .parse(let insight):
      let title = l10n(.inspectParseTitle, ["text": oneLine(insight.text ?? "")])
      return Rendered(
        stderr: lines(StyledText(title, style: .label)) + packed(parts(of: insight, full: false)))
    case .slots(let slots):
      let set = slots.filter { $0.value != .null }.sorted { $0.key < $1.key }
      guard !set.isEmpty else {
        return Rendered(stderr: lines(StyledText(l10n(.inspectNoSlots), style: .label)))
      }
      var output = lines(StyledText(l10n(.inspectSlotsTitle), style: .label))
      for (name, value) in set {
        output += lines(
          StyledText(oneLine(name) + " = " + show(value), style: .label), indent: "  ",
          hangingIndent: "    ")
      }
      return Rendered(stderr: output)
    case .tracker(let events):
      var output = lines(
        StyledText(l10n.plural(.inspectTrackerTitle, count: events.count), style: .label))
      // The kinds' column is as wide as the longest kind up to 16: one long event name
      // from the server must not pad every line (it printed megabytes). Names and texts
      // past a screenful are cut, with "…".
      let column = min(max(events.map(\.kind.count).max() ?? 0, 6), 16)
      for event in events {
        let name = Self.cut(oneLine(event.kind), to: 40)
        let kind =
          name.count < column ? name.padding(toLength: column, withPad: " ", startingAt: 0) : name
        output += lines(
          StyledText(kind + "  " + Self.cut(oneLine(event.text), to: 2_000), style: .label),
          indent: "  ", hangingIndent: String(repeating: " ", count: column + 4))
      }
      return Rendered(stderr: output)
    case .switched(let on):
      return Rendered(
        stderr: lines(StyledText(l10n(on ? .inspectOn : .inspectOff), style: .notice)))
    case .unavailable(let reason):
      return Rendered(stderr: lines(StyledText(message(for: reason), style: .notice)))
    }
  }

  public func message(for reason: InspectorUnavailable) -> String {
    switch reason {
    case .offline: l10n(.inspectOffline)
    case .notEnabled(let server): l10n(.inspectNotEnabled, ["server": oneLine(server)])
    case .unauthorized(let server, let status):
      l10n(.inspectUnauthorized, ["server": oneLine(server), "status": String(status)])
    case .unreachable(let server, let why):
      l10n(
        .inspectFailed,
        ["server": oneLine(server), "detail": oneLine(DataAPIError.describe(why, l10n))])
    case .failed(let server, let detail):
      l10n(.inspectFailed, ["server": oneLine(server), "detail": oneLine(detail)])
    }
  }

  /// `intent: …`, `entities: …`, and for a turn `slots: …` and `actions: …`.
  private func parts(of insight: TurnInsight, full: Bool) -> [String] {
    var parts: [String] = []
    if let intent = insight.intent {
      var text = l10n(.inspectIntent) + ": " + ranked(intent)
      if !insight.ranking.isEmpty {
        text += " (" + insight.ranking.map(ranked).joined(separator: ", ") + ")"
      }
      parts.append(text)
    } else if !full || insight.text != nil {
      parts.append(l10n(.inspectIntent) + ": " + l10n(.inspectNoIntent))
    }
    if !insight.entities.isEmpty {
      parts.append(
        l10n(.inspectEntities) + ": "
          + insight.entities.map { oneLine($0.entity) + "=" + show($0.value) }
          .joined(separator: ", "))
    }
    guard full else { return parts }
    if !insight.slots.isEmpty {
      parts.append(
        l10n(.inspectSlots) + ": "
          + insight.slots.map { change in
            oneLine(change.name) + " " + (change.old.map(show) ?? "-") + " -> " + show(change.new)
          }.joined(separator: ", "))
    }
    if !insight.actions.isEmpty {
      parts.append(
        l10n(.inspectActions) + ": "
          + insight.actions.map { action in
            var text = oneLine(action.name)
            let detail = [action.policy.map(oneLine), action.confidence.map(TrackerLine.score)]
              .compactMap { $0 }
            if !detail.isEmpty { text += " (" + detail.joined(separator: " ") + ")" }
            return text
          }.joined(separator: ", "))
    }
    return parts
  }

  private func ranked(_ intent: TurnInsight.Ranked) -> String {
    oneLine(intent.name) + (intent.confidence.map { " " + TrackerLine.score($0) } ?? "")
  }

  /// A slot's or entity's value: a string as it is, anything else as JSON.
  private func show(_ value: JSONValue) -> String {
    oneLine(value.stringValue ?? value.compactText)
  }

  /// Parts joined by ` · ` on as few lines as fit the width, each line wrapped if it must.
  private func packed(_ parts: [String]) -> String {
    var rows: [String] = []
    let room = max(20, width - 2)
    for part in parts {
      if let last = rows.last, (last + " · " + part).count <= room {
        rows[rows.count - 1] = last + " · " + part
      } else {
        rows.append(part)
      }
    }
    return rows.map { lines(StyledText($0, style: .label), indent: "  ", hangingIndent: "    ") }
      .joined()
  }
}
