import Foundation
import Testing

@testable import MigrantChatCore

/// `--coverage`: what a tracker's events say a conversation reached, counted against
/// a domain, per language.
@Suite struct TrackerCoverageTests {
  static func user(_ intent: String?) -> JSONValue {
    var event: [String: JSONValue] = ["event": .string("user"), "text": .string("x")]
    if let intent {
      event["parse_data"] = .object(["intent": .object(["name": .string(intent)])])
    }
    return .object(event)
  }

  static func event(_ kind: String, _ name: String?, _ extra: [String: JSONValue] = [:])
    -> JSONValue
  {
    .object(
      ["event": .string(kind), "name": name.map(JSONValue.string) ?? .null].merging(extra) { a, _ in
        a
      })
  }

  static let domain = TrackerCoverage.Names([
    .intents: ["greet", "transfer", "deny"],
    .responses: ["utter_greet", "utter_ask_amount", "utter_bye"],
    .actions: ["action_check"], .slots: ["amount", "tier"], .forms: ["transfer_form"],
  ])

  /// A form's turn: the intent, the form opened, its question sent from inside it (only
  /// the bot event's metadata names it), the slot asked for and set, the form closed.
  static let formTurn: [JSONValue] = [
    user("transfer"), event("action", "transfer_form"), event("active_loop", "transfer_form"),
    event(
      "bot", nil,
      [
        "text": .string("How much?"),
        "metadata": .object(["utter_action": .string("utter_ask_amount")]),
      ]),
    event("slot", "requested_slot", ["value": .string("amount")]), user(nil),
    event("slot", "amount", ["value": .string("50")]), event("active_loop", nil),
    event("action", "action_listen"),
  ]

  @Test func eventsSayWhatWasReached() {
    var names = TrackerCoverage.Names()
    names.add(events: Self.formTurn)
    #expect(names[.intents] == ["transfer"])
    #expect(names[.responses].contains("utter_ask_amount"))
    #expect(names[.slots] == ["amount"], "requested_slot is the form's, not the domain's")
    #expect(names[.forms] == ["transfer_form"])
    let coverage = {
      var coverage = TrackerCoverage(domain: Self.domain)
      coverage.add(events: Self.formTurn, language: .en)
      return coverage
    }()
    #expect(
      coverage.split(.responses, in: coverage.total) == (
        ["utter_ask_amount"], ["utter_bye", "utter_greet"]
      ))
    // action_listen and the form's own action are no custom actions of the domain.
    #expect(coverage.split(.actions, in: coverage.total).reached == [])
  }

  @Test func sharesPerKindAndPerLanguage() {
    var coverage = TrackerCoverage(domain: Self.domain)
    coverage.add(events: Self.formTurn, language: .en)
    coverage.add(
      events: [
        Self.user("greet"), Self.event("action", "utter_greet"),
        Self.event("action", "action_check"),
      ],
      language: .uk)
    let l10n = Localizer(.en)
    let text = coverage.summary(domainPath: "domain.yml", l10n: l10n)
    #expect(
      text.hasPrefix(
        "Coverage of domain.yml, from 2 conversations' trackers: intents 2/3 (67%), responses 2/3 (67%), actions 1/1 (100%), slots 1/2 (50%), forms 1/1 (100%)\n"
      ), "\(text)")
    #expect(
      text.contains("\n  en: intents 1/3 (33%), responses 1/3 (33%), actions 0/1 (0%)"), "\(text)")
    #expect(text.contains("\n  uk: intents 1/3 (33%)"), "\(text)")
    #expect(text.contains("\n  not reached, intents: deny\n"), "\(text)")
    #expect(text.contains("\n  not reached, slots: tier\n"), "\(text)")
    #expect(!text.contains("not reached, forms"))
    // In Ukrainian the frame is translated; the domain's names are not.
    #expect(coverage.summary(domainPath: "d.yml", l10n: Localizer(.uk)).hasPrefix("Покриття d.yml"))
    let json = coverage.json(domainPath: "domain.yml")
    #expect(json["kinds"]?["intents"]?["not_reached"] == .array([.string("deny")]))
    #expect(json["languages"]?["uk"]?["conversations"] == .number(1))
  }

  /// A kind the domain lacks is left out of the shares, not shown as 0/0.
  @Test func aKindTheDomainLacksIsLeftOut() {
    let coverage = TrackerCoverage(domain: TrackerCoverage.Names([.intents: ["greet"]]))
    #expect(coverage.shares(coverage.total, l10n: Localizer(.en)) == "intents 0/1 (0%)")
    #expect(coverage.json(domainPath: "d")["kinds"]?["forms"]?["share"] == .null)
  }
}
