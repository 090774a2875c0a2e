import Foundation
import MigrantChatCore
import Synchronization

/// Sender ids per server, the remembered `/lang` choice and `/place`, in `state.json`.
///
/// A file that cannot be read or parsed counts as empty: losing a sender id
/// only starts a new conversation, and the next write replaces the file whole.
public final class FileSessionStore: SessionStore {
  private struct State: Encodable {
    var senders: [String: String] = [:]
    var language: Language?
    var place: HomePlace?

    init() {}

    /// The file's fields, read one by one: one field edited by hand into nonsense (a
    /// place's latitude of "x") loses that field only, not the language and the
    /// conversations with it. Servers go by their shown address: a password kept by an
    /// older version is dropped here and gone from the file at its next write. The
    /// project's own parser, not JSONDecoder, whose generic containers cost 1.2 million
    /// instructions at every start (#50). `senderKeys`: the servers as the file has them.
    static func read(_ data: Data) -> (state: State, senderKeys: [String])? {
      guard case .object(let fields)? = try? JSONParser.parse(data) else { return nil }
      var state = State()
      var keys: [String] = []
      if case .object(let senders)? = fields["senders"] {
        keys = Array(senders.keys)
        // A value that is not a string is dropped alone (the decoder dropped them all).
        let ids = senders.compactMapValues(\.stringValue)
        state.senders = Dictionary(
          ids.map { (ServerEndpoint.redacted($0.key), $0.value) }, uniquingKeysWith: { $1 })
      }
      state.language = fields["language"]?.stringValue.flatMap(Language.init(rawValue:))
      if case .object(let place)? = fields["place"], let name = place["name"]?.stringValue,
        let latitude = place["latitude"]?.numberValue,
        let longitude = place["longitude"]?.numberValue
      {
        let home = HomePlace(name: name, point: GeoPoint(latitude: latitude, longitude: longitude))
        state.place = home.point.isValid ? home : nil
      }
      return (state, keys)
    }
  }

  private let path: String
  private let server: String
  private let state: Mutex<State>

  /// A store for the conversation with `server` (its base URL).
  public convenience init(path: String, server: String) {
    // A write killed before its rename left a temporary file: not needed now.
    AtomicFile.removeStaleTemporaries(of: path)
    let loaded = (try? Data(contentsOf: URL(fileURLWithPath: path))).flatMap(State.read)
    self.init(path: path, server: server, state: loaded?.state ?? State())
    // A password an older version wrote (a server's address as a key) is taken out of
    // the file now, not at the next change.
    if let loaded, loaded.senderKeys.contains(where: { ServerEndpoint.redacted($0) != $0 }) {
      try? update { $0.senders = loaded.state.senders }
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
    let current = (try? Data(contentsOf: URL(fileURLWithPath: path))).flatMap(State.read)?.state
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
