/// The contact ids of a reply, looked up in the directory, for the renderer.
public struct ContactCards: Sendable, Hashable {
  /// Contacts found, keyed by the id as the bot sent it.
  public var found: [String: Contact]
  public var favourites: Set<Int64>
  /// False when there is no directory to look in: ids are shown as they are.
  public var resolved: Bool

  public init(found: [String: Contact] = [:], favourites: Set<Int64> = [], resolved: Bool = false) {
    self.found = found
    self.favourites = favourites
    self.resolved = resolved
  }

  /// No directory: the renderer shows the bare ids.
  public static let unresolved = ContactCards()
}
