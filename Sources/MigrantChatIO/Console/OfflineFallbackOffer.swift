import Foundation
import MigrantChatCore
import Synchronization

/// When the server cannot be reached, asks once whether to go on with the offline
/// assistant. Only on a terminal: a pipe never switches bots behind the user's back.
final class OfflineFallbackOffer: Sendable {
  /// Makes the offline assistant; nil once asked (a "no" is not asked again).
  private let makeTransport: Mutex<(@Sendable () -> any ChatTransport)?>

  init(_ makeTransport: (@Sendable () -> any ChatTransport)?) {
    self.makeTransport = Mutex(makeTransport)
  }

  /// Whether the offer is still to be made (so the failure it explains is not shown alone).
  var isPending: Bool { makeTransport.withLock { $0 != nil } }

  /// After a turn: when it could not reach the server, the question, and on a yes the
  /// switch and the offline assistant's first answer. Returns the language in force.
  func offer(
    after events: [ChatEvent], language: Language, session: ChatSession, input: ConsoleInput,
    printer: ChatPrinter, turns: ConsoleTurns
  ) async -> Language {
    guard events.contains(where: \.isUnreachable),
      let make = makeTransport.withLock({ value in
        defer { value = nil }
        return value
      })
    else { return language }
    let l10n = Localizer(language)
    // One message: why the server cannot be reached, and the offer (`show` left the
    // failure out so it is not said twice).
    var failure: ChatError?
    for case .failure(let error) in events { failure = error }
    let question = l10n(.fallbackQuestion, ["reason": failure?.reasonBeforeOffer(l10n) ?? ""])
    // The question is printed wrapped; readline gets only a short prompt, which it can redraw.
    printer.writeWrapped(question)
    guard case .line(let answer) = await input.read(prompt: l10n(.fallbackPrompt)),
      Self.isYes(answer)
    else {
      // Typing again will not help while libcurl cannot be loaded.
      let libcurlMissing = if case .libcurlMissing = failure { true } else { false }
      printer.writeWrapped(l10n(libcurlMissing ? .fallbackDeclinedLibcurl : .fallbackDeclined))
      return language
    }
    await session.switchTransport(to: make())
    printer.writeWrapped(l10n(.fallbackSwitched))
    let started = await turns.run { await session.start() }
    return printer.show(started, language: language)
  }

  /// "y", "yes", "д", "да", "т", "так", in any case.
  static func isYes(_ answer: String) -> Bool {
    ["y", "yes", "д", "да", "т", "так"].contains(answer.trimmingWhitespace().lowercased())
  }
}
