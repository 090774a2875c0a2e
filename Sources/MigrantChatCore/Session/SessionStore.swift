/// Where a session keeps what must survive a restart of the client.
public protocol SessionStore: Sendable {
  /// Remembers the sender id for the session's server, so a restart resumes.
  func rememberSender(_ id: String) throws
  /// Remembers a `/lang` choice.
  func rememberLanguage(_ language: Language) throws
  /// Remembers a `/place` choice (nil: `/place off`).
  func rememberPlace(_ place: HomePlace?) throws
}

/// A store that keeps nothing, for tests and `--sender`.
public struct TransientSessionStore: SessionStore {
  public init() {}
  public func rememberSender(_ id: String) throws {}
  public func rememberLanguage(_ language: Language) throws {}
  public func rememberPlace(_ place: HomePlace?) throws {}
}

/// Random conversation ids.
public enum SenderID {
  /// 128 random bits as 32 lowercase hex digits; never derived from the device.
  public static func random() -> String {
    var generator = SystemRandomNumberGenerator()
    let high = generator.next() as UInt64
    let low = generator.next() as UInt64
    return hex(high) + hex(low)
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
