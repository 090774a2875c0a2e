/// Something about the directory the user should hear once.
public enum DirectoryNotice: Sendable, Hashable {
  /// The cache was damaged, moved aside to `movedTo`, and rebuilt.
  case rebuilt(movedTo: String)
  /// The cache cannot be opened; this run uses the sample in memory.
  case cacheUnavailable(detail: String)
  /// The favourites database cannot be opened; it is left as it is.
  case favouritesUnavailable(detail: String)
  /// The directory holds the bundled sample, not real offices.
  case sample

  public func message(_ l10n: Localizer) -> String {
    switch self {
    case .rebuilt(let path): l10n(.directoryRebuilt, ["path": path])
    case .cacheUnavailable(let detail): l10n(.directoryCacheUnavailable, ["detail": detail])
    case .favouritesUnavailable(let detail):
      l10n(.directoryFavouritesUnavailable, ["detail": detail])
    case .sample: l10n(.directorySample)
    }
  }
}

extension DirectoryError {
  public var detail: String {
    switch self {
    case .storage(let detail), .corrupt(let detail): detail
    }
  }

  public func message(_ l10n: Localizer) -> String {
    l10n(.directoryStorageFailed, ["detail": TerminalSanitizer.clean(detail, keepNewlines: false)])
  }
}
