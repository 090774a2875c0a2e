import Foundation

/// What explore found, as the JSON report, the conversation graph and the text summary.
public struct ExploreReport: Sendable {
  public var walks: [BotExplorer.Walk]
  public var findings: [ExploreFinding]

  public init(walks: [BotExplorer.Walk], mismatches: [ExploreFinding], extra: [ExploreFinding] = [])
  {
    self.walks = walks
    findings = walks.flatMap(\.findings) + mismatches + extra
  }

  /// Whether anything but dead ends, questions, loops and limits was found (exit 1).
  public var failed: Bool { findings.contains { $0.kind.isFailure } }

  /// Latency percentiles of one walk, in seconds (nil without turns).
  public static func percentile(_ values: [Double], _ share: Double) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * share).rounded(.up)) - 1)]
  }

  // MARK: - JSON

  public var json: JSONValue {
    .object([
      "languages": .array(
        walks.map { walk in
          var fields: [String: JSONValue] = [
            "language": .string(walk.language.rawValue), "nodes": .number(Double(walk.nodes.count)),
            "clicks": .number(Double(walk.edges.count)), "turns": .number(Double(walk.turns)),
            "slowest": .array(
              walk.slowest.map {
                .object([
                  "seconds": .number($0.seconds), "path": .array($0.path.map(JSONValue.string)),
                ])
              }),
          ]
          for (name, share) in [("p50", 0.5), ("p95", 0.95), ("p99", 0.99)] {
            if let value = Self.percentile(walk.latencies, share) {
              fields["latency_\(name)_s"] = .number(value)
            }
          }
          return .object(fields)
        }),
      "findings": .array(
        findings.map { finding in
          .object([
            "kind": .string(finding.kind.rawValue),
            "language": finding.language.map { .string($0.rawValue) } ?? .null,
            "path": .array(finding.path.map(JSONValue.string)),
            "detail": .string(finding.detail.text(Localizer(.en), first: finding.language)),
            "failure": .bool(finding.kind.isFailure),
          ])
        }),
      "failed": .bool(failed),
    ])
  }

  // MARK: - Graph

  public enum GraphFormat: Sendable {
    case dot, mermaid

    /// By the file's extension: `.dot`/`.gv` or `.mmd`/`.mermaid`.
    public init?(path: String) {
      switch (path as NSString).pathExtension.lowercased() {
      case "dot", "gv": self = .dot
      case "mmd", "mermaid": self = .mermaid
      default: return nil
      }
    }
  }

  /// Nodes are messages (their first words), edges button titles; a node with a
  /// failure is red, one with a dead end or loop grey.
  public func graph(_ format: GraphFormat) -> String {
    var lines: [String] = []
    func label(_ messages: [BotMessage]) -> String {
      let text = messages.compactMap(\.text).joined(separator: " ").split(
        whereSeparator: \.isWhitespace
      )
      .joined(separator: " ")
      let contacts = messages.flatMap(\.contactIDs)
      var shown =
        text.isEmpty ? "(no text)" : String(text.prefix(40)) + (text.count > 40 ? "…" : "")
      if !contacts.isEmpty { shown += " [contacts " + contacts.joined(separator: ",") + "]" }
      return shown
    }
    func failing(_ walk: BotExplorer.Walk, _ node: BotExplorer.Node) -> Bool {
      walk.findings.contains {
        $0.kind.isFailure && $0.path == walk.titles(start: node.start, node.path)
      }
    }
    switch format {
    case .dot:
      lines.append("digraph explore {")
      lines.append("  rankdir=LR; node [shape=box, fontsize=10]; edge [fontsize=9];")
      for walk in walks {
        let prefix = walk.language.rawValue
        lines.append("  subgraph cluster_\(prefix) {")
        lines.append("    label=\(Self.dotQuoted(prefix));")
        for node in walk.nodes {
          let colour = failing(walk, node) ? ", color=red, fontcolor=red" : ""
          lines.append(
            "    \(prefix)_\(node.id) [label=\(Self.dotQuoted(label(node.messages)))\(colour)];")
        }
        for (index, edge) in walk.edges.enumerated() {
          let target = edge.to.map { "\(prefix)_\($0)" } ?? "\(prefix)_error_\(index)"
          if edge.to == nil {
            lines.append("    \(target) [label=\"error\", color=red, fontcolor=red];")
          }
          lines.append(
            "    \(prefix)_\(edge.from) -> \(target) [label=\(Self.dotQuoted(edge.click.label))];")
        }
        lines.append("  }")
      }
      lines.append("}")
    case .mermaid:
      lines.append("flowchart LR")
      for walk in walks {
        let prefix = walk.language.rawValue
        lines.append("  subgraph \(prefix)")
        for node in walk.nodes {
          lines.append("    \(prefix)_\(node.id)[\"\(Self.mermaidText(label(node.messages)))\"]")
          if failing(walk, node) { lines.append("    class \(prefix)_\(node.id) failure") }
        }
        for (index, edge) in walk.edges.enumerated() {
          let target = edge.to.map { "\(prefix)_\($0)" } ?? "\(prefix)_error_\(index)[\"error\"]"
          lines.append(
            "    \(prefix)_\(edge.from) -->|\"\(Self.mermaidText(edge.click.label))\"| \(target)")
        }
        lines.append("  end")
      }
      lines.append("  classDef failure stroke:#c00,color:#c00")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A DOT string: the bot's text cleaned as for a terminal (no ESC, C1 or bidi
  /// controls: a graph is read on screens too), then quoted.
  static func dotQuoted(_ text: String) -> String {
    "\""
      + TerminalSanitizer.clean(text, keepNewlines: false).replacingOccurrences(
        of: "\\", with: "\\\\"
      ).replacingOccurrences(
        of: "\"", with: "\\\""
      )
      .filter { !$0.isNewline } + "\""
  }

  /// Mermaid labels in quotes: quotes become #quot;, and nothing may break the line.
  static func mermaidText(_ text: String) -> String {
    TerminalSanitizer.clean(text, keepNewlines: false)
      .replacingOccurrences(of: "\"", with: "#quot;").filter { !$0.isNewline }
  }
}

extension ExploreReport {
  /// The text summary: each language's walk, then every finding (problems first),
  /// then the totals. Bot text is sanitized for the terminal.
  public func summary(_ l10n: Localizer) -> String {
    var lines: [String] = []
    func seconds(_ value: Double?) -> String {
      value.map { l10n.number($0, fractionDigits: 3) } ?? "-"
    }
    func path(_ titles: [String]) -> String {
      titles.isEmpty
        ? l10n(.exploreStartPath)
        // One line each: a button title with a line break would write a fake line.
        : TerminalSanitizer.clean(titles.joined(separator: " > "), keepNewlines: false)
    }
    for walk in walks {
      lines.append(
        l10n(
          .exploreWalk,
          [
            "language": walk.language.rawValue, "nodes": String(walk.nodes.count),
            "clicks": String(walk.edges.count), "turns": String(walk.turns),
            "p50": seconds(Self.percentile(walk.latencies, 0.5)),
            "p95": seconds(Self.percentile(walk.latencies, 0.95)),
            "p99": seconds(Self.percentile(walk.latencies, 0.99)),
          ]))
      for slow in walk.slowest.prefix(3) {
        lines.append(
          "  " + l10n(.exploreSlowest, ["seconds": seconds(slow.seconds), "path": path(slow.path)]))
      }
    }
    // Problems one by one; notes (dead ends, questions, loops, limits) are many in a bot with
    // "Back" buttons: the first three of each kind and language, then how many more.
    var shown: [String: Int] = [:]
    var hidden: [String: Int] = [:]
    var ordered: [ExploreFinding] = findings.filter(\.kind.isFailure)
    for note in findings where !note.kind.isFailure {
      let group = "\(note.kind.rawValue) \(note.language?.rawValue ?? "*")"
      if shown[group, default: 0] < 3 {
        shown[group, default: 0] += 1
        ordered.append(note)
      } else {
        hidden[group, default: 0] += 1
      }
    }
    for finding in ordered {
      lines.append(
        l10n(
          .exploreFindingLine,
          [
            "kind": Self.name(of: finding.kind, l10n),
            "language": finding.language?.rawValue ?? "*",
            "path": path(finding.path),
            "detail": TerminalSanitizer.clean(
              finding.detail.text(l10n, first: finding.language), keepNewlines: false),
          ]))
    }
    for (group, count) in hidden.sorted(by: { $0.key < $1.key }) {
      let parts = group.split(separator: " ")
      guard let kind = ExploreFinding.Kind(rawValue: String(parts[0])) else { continue }
      lines.append(
        l10n(
          .exploreMoreNotes,
          ["kind": Self.name(of: kind, l10n), "language": String(parts[1]), "count": String(count)])
      )
    }
    let failures = findings.count { $0.kind.isFailure }
    lines.append(
      l10n(
        .exploreTotals,
        ["failures": String(failures), "notes": String(findings.count - failures)]))
    return lines.joined(separator: "\n") + "\n"
  }

  static func name(of kind: ExploreFinding.Kind, _ l10n: Localizer) -> String {
    switch kind {
    case .fallback: l10n(.exploreKindFallback)
    case .wrongLanguage: l10n(.exploreKindWrongLanguage)
    case .missingContact: l10n(.exploreKindMissingContact)
    case .languageMismatch: l10n(.exploreKindLanguageMismatch)
    case .noAnswer: l10n(.exploreKindNoAnswer)
    case .error: l10n(.exploreKindError)
    case .loop: l10n(.exploreKindLoop)
    case .deadEnd: l10n(.exploreKindDeadEnd)
    case .unreached: l10n(.exploreKindUnreached)
    case .limit: l10n(.exploreKindLimit)
    case .startFallback: l10n(.exploreKindStartFallback)
    case .needsAnswer: l10n(.exploreKindNeedsAnswer)
    }
  }
}
