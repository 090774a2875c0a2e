import Foundation
import MigrantChatCore
import MigrantChatIO

/// Files a command writes where the user asked (`--report`, `--graph`,
/// `--write-nlu`): written whole or not at all, mode 0600, and a failure said
/// on stderr, translated, with the path and why.
enum UserFiles {
  /// Writes `text` to `path`; false (and said) when it could not be.
  static func save(_ text: String, to path: String, l10n: Localizer) -> Bool {
    do {
      try AtomicFile.writeUserFile(Data(utf8Of: text), to: path, mode: 0o600)
      return true
    } catch {
      sayNotSaved(path, error, l10n: l10n)
      return false
    }
  }

  static func sayNotSaved(_ path: String, _ error: any Error, l10n: Localizer) {
    ConsoleOutput.write(
      l10n(
        .exploreNotSaved,
        ["path": TerminalSanitizer.clean(path), "detail": TerminalSanitizer.clean("\(error)")])
        + "\n", to: STDERR_FILENO)
  }
}
