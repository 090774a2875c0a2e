import Foundation
import MigrantChatCore
import Synchronization

/// The conversation kept as it is shown (`HistoryStore`): each line typed is written
/// before it is sent and each answer before it is shown, so a `kill -9` loses nothing
/// that was on the screen. The conversation is begun at the first line said to the
/// bot. A write that fails (a full disk, another process vacuuming the file) is said
/// once; what it could not keep is tried again with the next line, and the chat goes on.
public final class ChatHistory: Sendable {
  private let store: HistoryStore
  private let server: String?
  private let state: Mutex<State>

  private struct State {
    var conversation: Int64?
    var sender: String
    /// The user has said something to the bot: the conversation is to be begun (it
    /// may not be yet, when the write that would have begun it failed).
    var talked = false
    /// A failed write has been said; not again until a write succeeds.
    var warned = false
    /// What is not written yet: what was shown before the user said anything to the
    /// bot (the greeting, a `/history` looked at), kept once they do, so a session
    /// spent only reading the history is not a conversation of its own; and what a
    /// failed write could not keep, tried again with the next entries.
    var pending: [HistoryEntry] = []
    /// The buttons of the latest answer that had any: what a number typed chooses.
    var choices: [Button] = []
    /// The label (`--label`, `/label`), set on the conversation once it is begun.
    var label: String?
  }

  /// `continuing`: a conversation this chat goes on with (`--resume`), and its label.
  public init(
    store: HistoryStore, server: String?, sender: String, continuing: Int64? = nil,
    label: String? = nil
  ) {
    self.store = store
    self.server = server
    state = Mutex(State(conversation: continuing, sender: sender, label: label))
  }

  /// `/new`: what follows is another conversation, under the bot's new id (and no label:
  /// it is another client's, or another matter).
  public func startOver(sender: String) {
    state.withLock { state in
      state.conversation = nil
      state.sender = sender
      state.talked = false
      state.pending = []
      state.label = nil
    }
  }

  /// The label this conversation has, or is to have once begun.
  public var label: String? { state.withLock { $0.label } }

  /// Labels the conversation (nil or empty: none), now or once it is begun; the
  /// warning to show when the store could not be written.
  public func setLabel(_ label: String?, language: Language) -> String? {
    let label = label.map { $0.trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
    let begun = state.withLock { state -> Int64? in
      state.label = label
      return state.conversation
    }
    guard let begun else { return nil }
    do throws(DirectoryError) {
      try store.setLabel(label, of: begun)
      return nil
    } catch {
      return Localizer(language)(
        .historyNotSaved, ["detail": TerminalSanitizer.clean(error.detail, keepNewlines: false)])
    }
  }

  /// The conversation this chat writes, once begun.
  public var conversation: Int64? { state.withLock { $0.conversation } }

  /// `/history`: the latest conversations, this one among them; `/history N`: one
  /// as it was seen. As text at `width`, or (`json`) one JSON object.
  public func show(
    _ number: Int64?, l10n: Localizer, width: Int, color: Bool, json: Bool,
    accessible: Bool = false
  ) -> String {
    // The chat's own sentences, wrapped at the width: the terminal would cut a word in two.
    func wrapped(_ text: String) -> String {
      TextWrapper(width: width).wrap(StyledText(text)).map { $0.plainText + "\n" }.joined()
    }
    do throws(DirectoryError) {
      guard let number else {
        let list = try store.conversations(limit: 10)
        if json {
          return JSONValue.object([
            "type": .string("history"),
            "conversations": .array(
              list.map { HistoryExport.json($0, entries: []) }.map { value in
                guard case .object(var members) = value else { return value }
                members["entries"] = nil
                return .object(members)
              }),
          ]).compactText + "\n"
        }
        guard !list.isEmpty else { return wrapped(l10n(.historyEmpty)) }
        return list.map {
          HistoryExport.line($0, l10n: l10n, width: width, accessible: accessible) + "\n"
        }.joined()
          + wrapped(l10n(.historyMore))
      }
      guard let conversation = try store.conversation(number) else {
        return wrapped(l10n(.historyNoSuchConversation, ["number": String(number)]))
      }
      let entries = try store.entries(of: number)
      if json {
        return JSONValue.object([
          "type": .string("history"),
          "conversation": HistoryExport.json(conversation, entries: entries),
        ]).compactText + "\n"
      }
      return HistoryExport.text(
        conversation, entries: entries, l10n: l10n, width: width, color: color,
        accessible: accessible)
    } catch {
      return wrapped(l10n(.historyFailed, ["detail": TerminalSanitizer.clean(error.detail)]))
    }
  }

  /// Keeps `line` (when one was typed) and what the chat showed for it; the
  /// warning to show when it could not, once.
  public func record(
    line: String?, events: [ChatEvent], language: Language, sent: String? = nil,
    at date: Date = Date()
  ) -> String? {
    // A line started with a space is one the user keeps out of the input history
    // (readline's convention): it and its answer are kept out of this one too.
    if let line, line.hasPrefix(" ") { return nil }
    var entries: [HistoryEntry] = []
    if let line, !line.trimmingWhitespace().isEmpty {
      var typed = HistoryEntry(kind: .user, at: date, language: language, text: line)
      typed.sent = sent
      if let number = Int(line.trimmingWhitespace()), number > 0 {
        typed.chose = state.withLock { state in
          state.choices.indices.contains(number - 1) ? state.choices[number - 1].title : nil
        }
      }
      entries.append(typed)
    }
    var current = language
    for event in events {
      switch event {
      case .reply(let reply, let cards), .late(let reply, let cards):
        guard !reply.messages.isEmpty else { continue }
        let ids = Set(reply.messages.flatMap(\.contactIDs))
        let shown = cards.found.filter { ids.contains($0.key) }
        var kind = HistoryEntry.Kind.bot
        if case .late = event {
          kind = .late
        } else {
          // A number chooses from the latest answer only, while it offered buttons (as
          // the chat sends it): a question without buttons leaves none to choose.
          let choices = reply.messages.flatMap(\.choices)
          state.withLock { $0.choices = choices }
        }
        entries.append(
          HistoryEntry(
            kind: kind, at: date, language: current, messages: reply.messages, contacts: shown))
      case .failure(let error):
        entries.append(
          HistoryEntry(
            kind: .failure, at: date, language: current, text: error.message(Localizer(current))))
      case .languageChanged(let new):
        current = new
        entries.append(HistoryEntry(kind: .language, at: date, language: new, text: new.rawValue))
      case .contactList, .contactCard, .nearby, .officeMap:
        // As the chat showed it, at 80 columns and without colour; a map as its list;
        // with the note that made-up sample offices are made up. Not the to-do list: it
        // is the machine's, and on a shared laptop it holds other clients' tasks.
        var renderer = Renderer(width: 80, color: false, language: current)
        renderer.accessible = event.isMap
        let rendered = renderer.render(event)
        let text = rendered.stdout + rendered.stderr
        guard !text.isEmpty else { continue }
        entries.append(HistoryEntry(kind: .shown, at: date, language: current, text: text))
      default:
        continue
      }
    }
    guard !entries.isEmpty else { return nil }
    let talked = entries.contains {
      $0.kind == .user && !$0.text.trimmingWhitespace().hasPrefix("/")
    }
    guard let batch = takeBatch(adding: entries, talked: talked) else { return nil }
    do throws(DirectoryError) {
      try write(batch, language: language, at: date)
      return nil
    } catch {
      let first = state.withLock { state -> Bool in
        // Kept for the next try, the oldest first; a store that never comes back does
        // not grow the chat's memory past a long conversation's worth.
        state.pending = Array((batch + state.pending).suffix(Self.pendingLimit))
        defer { state.warned = true }
        return !state.warned
      }
      guard first else { return nil }
      return Localizer(language)(
        .historyNotSaved, ["detail": TerminalSanitizer.clean(error.detail, keepNewlines: false)])
    }
  }

  /// The chat is ending: one last try at what failed writes held back (the process ends
  /// next, and the held lines with it); the warning to show when they still cannot be kept.
  public func flush(language: Language, at date: Date = Date()) -> String? {
    guard let batch = takeBatch() else { return nil }
    do throws(DirectoryError) {
      try write(batch, language: language, at: date)
      return nil
    } catch {
      state.withLock { $0.pending = batch }
      return Localizer(language)(
        .historyNotSavedAtExit,
        ["detail": TerminalSanitizer.clean(error.detail, keepNewlines: false)])
    }
  }

  /// What is to be written now, taken out of what is held: the entries held, then
  /// `entries`; nil while there is none, or the conversation is not to be begun yet.
  private func takeBatch(adding entries: [HistoryEntry] = [], talked: Bool = false)
    -> [HistoryEntry]?
  {
    state.withLock { state in
      state.pending += entries
      if talked { state.talked = true }
      guard !state.pending.isEmpty, state.conversation != nil || state.talked else { return nil }
      defer { state.pending = [] }
      return state.pending
    }
  }

  /// `batch` written to the conversation, begun first when it is not yet; in one
  /// transaction, so what is written is kept whole or not at all.
  private func write(
    _ batch: [HistoryEntry], language: Language, at date: Date
  ) throws(DirectoryError) {
    let id: Int64
    if let begun = conversation {
      id = begun
    } else {
      id = try store.begin(
        server: server, sender: state.withLock { $0.sender },
        language: batch.first?.language ?? language, at: batch.first?.at ?? date)
      state.withLock { $0.conversation = id }
      if let label = state.withLock({ $0.label }) { try store.setLabel(label, of: id) }
    }
    try store.appendAll(batch, to: id)
    state.withLock { $0.warned = false }
  }

  /// Entries held while the store cannot be written.
  static let pendingLimit = 5_000
}
