import Foundation

/// What of a Rasa domain a run reached (`--coverage DOMAIN`), read from the trackers of
/// its conversations, as Rasa Pro's end-to-end `--coverage-report` counts it: the
/// intents the bot read, the responses and custom actions it ran, the slots it set and
/// the forms it opened, per language.
public struct TrackerCoverage: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    case intents, responses, actions, slots, forms
  }

  /// Names of one kind or another; a domain's, or those a run reached.
  public struct Names: Sendable, Hashable {
    public var sets: [Kind: Set<String>] = [:]

    public init(_ sets: [Kind: Set<String>] = [:]) {
      self.sets = sets
    }

    public subscript(kind: Kind) -> Set<String> {
      get { sets[kind] ?? [] }
      set { sets[kind] = newValue }
    }

    /// What one conversation's tracker shows it reached.
    public mutating func add(events: [JSONValue]) {
      for event in events {
        let name = event["name"]?.stringValue
        switch event["event"]?.stringValue {
        case "user":
          if let intent = event["parse_data"]?["intent"]?["name"]?.stringValue {
            self[.intents].insert(intent)
          }
        case "action":
          guard let name else { continue }
          // A response is an action Rasa runs by its name: both lists are kept, and
          // the domain says which is which.
          self[.responses].insert(name)
          self[.actions].insert(name)
        case "bot":
          // A response a form or a custom action sent is in the bot event's metadata.
          if let response = event["metadata"]?["utter_action"]?.stringValue {
            self[.responses].insert(response)
          }
        case "slot":
          if let name, name != "requested_slot" { self[.slots].insert(name) }
        case "active_loop":
          if let name { self[.forms].insert(name) }
        default: continue
        }
      }
    }

    public mutating func merge(_ other: Names) {
      for (kind, names) in other.sets { self[kind].formUnion(names) }
    }
  }

  /// The domain's names: what can be reached.
  public var domain: Names
  /// Reached, per language of the conversation.
  public var reached: [Language: Names] = [:]
  /// Conversations whose tracker was read, per language.
  public var conversations: [Language: Int] = [:]

  public init(domain: Names) {
    self.domain = domain
  }

  public mutating func add(events: [JSONValue], language: Language) {
    reached[language, default: Names()].add(events: events)
    conversations[language, default: 0] += 1
  }

  /// Every language's together.
  public var total: Names {
    var all = Names()
    for names in reached.values { all.merge(names) }
    return all
  }

  /// The domain's names of `kind` that `names` reached, and those it did not, sorted.
  public func split(_ kind: Kind, in names: Names) -> (reached: [String], missed: [String]) {
    let known = domain[kind]
    return (known.intersection(names[kind]).sorted(), known.subtracting(names[kind]).sorted())
  }

  /// "intents 8/10 (80%)": the kinds the domain has, in order.
  public func shares(_ names: Names, l10n: Localizer) -> String {
    Kind.allCases.compactMap { kind in
      let known = domain[kind].count
      guard known > 0 else { return nil }
      let reached = split(kind, in: names).reached.count
      return l10n(
        .coverageShare,
        [
          "kind": kind.rawValue, "reached": String(reached), "total": String(known),
          "percent": l10n.number(100 * Double(reached) / Double(known), fractionDigits: 0),
        ])
    }.joined(separator: ", ")
  }

  /// The text after a run's summary: the shares on one line, then each language's, then
  /// what no conversation reached.
  public func summary(domainPath: String, l10n: Localizer) -> String {
    let count = conversations.values.reduce(0, +)
    var lines = [
      l10n(
        .coverageLine,
        [
          "shares": shares(total, l10n: l10n), "domain": TerminalSanitizer.clean(domainPath),
          "conversations": String(count),
        ])
    ]
    if reached.count > 1 {
      for language in Language.allCases {
        guard let names = reached[language] else { continue }
        lines.append("  \(language.rawValue): " + shares(names, l10n: l10n))
      }
    }
    for kind in Kind.allCases {
      let missed = split(kind, in: total).missed
      guard !missed.isEmpty else { continue }
      lines.append(
        "  "
          + l10n(
            .coverageMissed,
            [
              "kind": kind.rawValue,
              "names": TerminalSanitizer.clean(missed.joined(separator: ", ")),
            ]))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `--coverage-report FILE`: per kind, reached and not, in all and per language.
  public func json(domainPath: String) -> JSONValue {
    func kinds(_ names: Names) -> JSONValue {
      var fields: [String: JSONValue] = [:]
      for kind in Kind.allCases {
        let (reached, missed) = split(kind, in: names)
        let total = reached.count + missed.count
        fields[kind.rawValue] = .object([
          "reached": .array(reached.map(JSONValue.string)),
          "not_reached": .array(missed.map(JSONValue.string)),
          "share": total == 0 ? .null : .number(Double(reached.count) / Double(total)),
        ])
      }
      return .object(fields)
    }
    var languages: [String: JSONValue] = [:]
    for (language, names) in reached {
      languages[language.rawValue] = .object([
        "conversations": .number(Double(conversations[language] ?? 0)), "kinds": kinds(names),
      ])
    }
    return .object([
      "domain": .string(domainPath),
      "conversations": .number(Double(conversations.values.reduce(0, +))),
      "kinds": kinds(total), "languages": .object(languages),
    ])
  }
}
