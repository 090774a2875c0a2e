import Foundation
import MigrantChatCore
import Synchronization

/// Sender ids per server, the remembered `/lang` choice and `/place`, in `state.json`.
///
/// A file that cannot be read or parsed counts as empty: losing a sender id
/// only starts a new conversation, and the next write replaces the file whole.
public final class FileSessionStore: SessionStore {
  private struct State: Codable {
    var senders: [String: String] = [:]
    var language: Language?
    var place: HomePlace?

    init() {}

    /// Field by field: one field edited by hand into nonsense (a place's latitude of
    /// "x") loses that field only, not the language and the conversations with it.
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      // Servers by their shown address: a password kept by an older version is
      // dropped here and gone from the file at its next write.
      let decoded = (try? container.decode([String: String].self, forKey: .senders)) ?? [:]
      senders = Dictionary(
        decoded.map { (ServerEndpoint.redacted($0.key), $0.value) }, uniquingKeysWith: { $1 })
      language = try? container.decode(Language.self, forKey: .language)
      place = (try? container.decode(HomePlace.self, forKey: .place)).flatMap {
        $0.point.isValid ? $0 : nil
      }
    }
  }

  private let path: String
  private let server: String
  private let state: Mutex<State>

  /// A store for the conversation with `server` (its base URL).
  public convenience init(path: String, server: String) {
    // A write killed before its rename left a temporary file: not needed now.
    AtomicFile.removeStaleTemporaries(of: path)
    let data = try? Data(contentsOf: URL(fileURLWithPath: path))
    let loaded = data.flatMap { try? JSONDecoder().decode(State.self, from: $0) }
    self.init(path: path, server: server, state: loaded ?? State())
    // A password an older version wrote (a server's address as a key) is taken out of
    // the file now, not at the next change.
    if let data, let loaded,
      let raw = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let senders = raw["senders"] as? [String: Any],
      senders.keys.contains(where: { ServerEndpoint.redacted($0) != $0 })
    {
      try? update { $0.senders = loaded.senders }
    }
  }

  private init(path: String, server: String, state: State) {
    self.path = path
    self.server = server
    self.state = Mutex(state)
  }

  /// The same file's state for another server, without reading the file again.
  public func scoped(to server: String) -> FileSessionStore {
    FileSessionStore(path: path, server: server, state: state.withLock { $0 })
  }

  /// The sender id remembered for this server, if any.
  public var senderID: String? {
    state.withLock { $0.senders[server] }
  }

  /// The remembered `/lang` choice, if any.
  public var language: Language? {
    state.withLock { $0.language }
  }

  /// The remembered `/place`, if any.
  public var place: HomePlace? {
    state.withLock { $0.place }
  }

  public func rememberPlace(_ place: HomePlace?) throws {
    try update { $0.place = place }
  }

  public func rememberSender(_ id: String) throws {
    try update { $0.senders[server] = id }
  }

  /// Drops the sender id remembered for this server when it is `id` (a conversation
  /// forgotten): the next chat with the server begins a new conversation. Whether it was.
  @discardableResult
  public func forgetSender(_ id: String) throws -> Bool {
    var forgotten = false
    try update { state in
      guard state.senders[server] == id else { return }
      state.senders[server] = nil
      forgotten = true
    }
    return forgotten
  }

  public func rememberLanguage(_ language: Language) throws {
    try update { $0.language = language }
  }

  private func update(_ change: (inout State) -> Void) throws {
    // What another chat wrote meanwhile (its /place, its /lang) is kept: the change is
    // made to the file as it is now, not to what this one read at its start.
    let current = (try? Data(contentsOf: URL(fileURLWithPath: path)))
      .flatMap { try? JSONDecoder().decode(State.self, from: $0) }
    let data = try state.withLock { state -> Data in
      if let current { state = current }
      change(&state)
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      return try encoder.encode(state)
    }
    try AtomicFile.write(data, to: path)
  }
}
