/// A button as explore clicked it: its place among the message's choices, its
/// title and the payload sent.
public struct ExploreClick: Sendable, Hashable {
  /// The button's place in the answer; for a typed answer, its place among the answers.
  public var index: Int
  public var title: String
  public var payload: String
  /// Not a button: an answer typed at a question without buttons (`--answers`).
  public var typed: Bool

  public init(index: Int, title: String, payload: String, typed: Bool = false) {
    self.index = index
    self.title = title
    self.payload = payload
    self.typed = typed
  }

  /// How the path shows it: a button by its title, a typed answer in quotes.
  public var label: String { typed ? "\u{201C}\(title)\u{201D}" : title }
}

/// Something explore found on one path of one language's walk.
public struct ExploreFinding: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// A button whose answer is the bot's fallback.
    case fallback
    /// An answer in another script or language than the conversation's.
    case wrongLanguage = "wrong-language"
    /// A contact id the directory lacks.
    case missingContact = "missing-contact"
    /// The same path answers differently in two languages.
    case languageMismatch = "language-mismatch"
    /// A button was clicked and nothing came back.
    case noAnswer = "no-answer"
    /// The bot could not be reached, or answered with an error.
    case error
    /// A button that leads back to a message on its own path (listed, not a failure).
    case loop
    /// An answer without buttons (listed, not a failure).
    case deadEnd = "dead-end"
    /// A response or button intent of the domain that no path reached.
    case unreached
    /// Exploring stopped at `--depth` or `--max-turns` (listed, not a failure).
    case limit
    /// A question without buttons that `--answers` has no answer for: a form asking
    /// for free text (listed, not a failure: explore cannot guess what to type).
    case needsAnswer = "needs-answer"
    /// The start message got the same answer as nonsense: likely not what the bot expects
    /// (`/start` to a bot that wants `hello`). Listed, not a failure: a bot that answers
    /// everything alike cannot be told from it.
    case startFallback = "start-fallback"

    /// Whether it makes `explore` exit 1.
    public var isFailure: Bool {
      switch self {
      case .loop, .deadEnd, .limit, .startFallback, .needsAnswer: false
      default: true
      }
    }
  }

  public var kind: Kind
  /// nil for findings across languages (mismatches) and of the domain.
  public var language: Language?
  /// The titles of the buttons clicked from the start message (typed answers in
  /// quotes), the start message first when explore was given several.
  public var path: [String]
  public var detail: Detail

  public init(kind: Kind, language: Language?, path: [String], detail: Detail) {
    self.kind = kind
    self.language = language
    self.path = path
    self.detail = detail
  }
}

extension ExploreFinding {
  /// What is wrong, said in the user's language by `text(_:)`.
  public enum Detail: Sendable, Hashable {
    case startFailed(ChatError?)
    /// A turn failed (nil: the conversation ended early).
    case turnFailed(ChatError?)
    case startNoAnswer
    /// The start message got the fallback answer: `--start` is not what the bot expects.
    case startFallback(start: String, answer: String)
    /// The tracker shows the start message read as another intent than it names.
    case startReadAs(start: String, intent: TurnInsight.Ranked)
    case noAnswer(button: String)
    /// `answer`: what the bot said, quoted in the finding.
    case fallback(button: String, answer: String)
    /// The same two, after an answer typed at a question (`--answers`), not a button.
    case typedNoAnswer(typed: String)
    case typedFallback(typed: String, answer: String)
    case loop
    case deadEnd
    /// A question without buttons: the slot a form requests (from the tracker) or nil,
    /// and what the bot asked.
    case needsAnswer(slot: String?, prompt: String)
    case depthLimit(depth: Int)
    case turnLimit(maxTurns: Int, skipped: Int)
    /// A button `--skip-button` names: offered here, not clicked.
    case skippedButton(String)
    case wrongLanguage(LanguageCheck.Problem, text: String)
    case missingContact(id: String)
    case mismatch([Difference], other: Language, otherPath: [String])
    case unreachedResponse(String)
    case unreachedIntent(String)

    public enum Difference: Sendable, Hashable {
      case messages(Int, Int)
      case buttons(Int, Int)
      case contacts([String], [String])
    }

    /// At most 120 characters of what the bot said, on one line.
    static func quoted(_ text: String) -> String {
      let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
      return line.count > 120 ? String(line.prefix(119)) + "…" : line
    }

    public func text(_ l10n: Localizer, first: Language? = nil) -> String {
      switch self {
      case .startFailed(let error):
        return l10n(
          .exploreStartFailed, ["error": error?.message(l10n) ?? l10n(.exploreEndedEarly)])
      case .turnFailed(let error): return error?.message(l10n) ?? l10n(.exploreEndedEarly)
      case .startNoAnswer: return l10n(.exploreStartNoAnswer)
      case .startFallback(let start, let answer):
        return l10n(.exploreStartFallback, ["start": start, "answer": Self.quoted(answer)])
      case .startReadAs(let start, let intent):
        return l10n(
          .exploreStartReadAs, StartIntent.values(start: start, intent: intent, l10n: l10n))
      case .noAnswer(let button): return l10n(.exploreNoAnswer, ["title": button])
      case .fallback(let button, let answer):
        return l10n(.exploreFallback, ["title": button, "answer": Self.quoted(answer)])
      case .typedNoAnswer(let typed): return l10n(.exploreTypedNoAnswer, ["typed": typed])
      case .typedFallback(let typed, let answer):
        return l10n(.exploreTypedFallback, ["typed": typed, "answer": Self.quoted(answer)])
      case .loop: return l10n(.exploreLoop)
      case .deadEnd: return l10n(.exploreDeadEnd)
      case .needsAnswer(let slot?, let prompt):
        return l10n(.exploreNeedsAnswerSlot, ["slot": slot, "prompt": Self.quoted(prompt)])
      case .needsAnswer(nil, let prompt):
        return l10n(.exploreNeedsAnswer, ["prompt": Self.quoted(prompt)])
      case .depthLimit(let depth): return l10n(.exploreDepthLimit, ["depth": String(depth)])
      case .turnLimit(let maxTurns, let skipped):
        return l10n(.exploreTurnLimit, ["turns": String(maxTurns), "skipped": String(skipped)])
      case .skippedButton(let title): return l10n(.exploreSkippedButton, ["title": title])
      case .wrongLanguage(let problem, let text):
        let text = String(text.prefix(80))
        switch problem {
        case .cyrillicInEnglish: return l10n(.exploreCyrillicInEnglish, ["text": text])
        case .ukrainianLetters(let letters):
          return l10n(.exploreUkrainianLetters, ["letters": letters, "text": text])
        case .russianLetters(let letters):
          return l10n(.exploreRussianLetters, ["letters": letters, "text": text])
        case .mostlyLatin: return l10n(.exploreMostlyLatin, ["text": text])
        }
      case .missingContact(let id): return l10n(.exploreMissingContact, ["id": id])
      case .unreachedResponse(let name): return l10n(.exploreUnreachedResponse, ["name": name])
      case .unreachedIntent(let name): return l10n(.exploreUnreachedIntent, ["name": name])
      case .mismatch(let differences, let other, let otherPath):
        let a = first?.rawValue ?? "?"
        let b = other.rawValue
        let said = differences.map { difference in
          switch difference {
          case .messages(let x, let y):
            l10n(.exploreDiffMessages, ["a": String(x), "b": String(y), "first": a, "other": b])
          case .buttons(let x, let y):
            l10n(.exploreDiffButtons, ["a": String(x), "b": String(y), "first": a, "other": b])
          case .contacts(let x, let y):
            l10n(
              .exploreDiffContacts,
              [
                "a": x.isEmpty ? "-" : x.joined(separator: ","),
                "b": y.isEmpty ? "-" : y.joined(separator: ","), "first": a, "other": b,
              ])
          }
        }
        return l10n(
          .exploreMismatch,
          [
            "differences": said.joined(separator: "; "), "other": b,
            "path": otherPath.joined(separator: " > "),
          ])
      }
    }
  }
}
