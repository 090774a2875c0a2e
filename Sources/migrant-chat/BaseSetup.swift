import Foundation
import MigrantChatCore
import MigrantChatIO

/// What every command resolves first: the files, the config file and the language.
struct BaseSetup {
  let paths: AppPaths
  let config: ConfigFile
  /// The state file, read once: it holds the remembered `/lang` and the sender ids.
  let state: FileSessionStore
  let language: Language
  /// The accessible mode (`Accessibility.enabled`), and whether escape sequences may
  /// be sent at all; both are in force for `ConsoleOutput` once this is made.
  let accessible: Bool
  let escapesAllowed: Bool

  /// `remembered`: whether the chat's remembered `/lang` counts (not for `history`, whose
  /// headings follow the command line, never what a client typed last).
  init(
    lang: Language?, environment: [String: String], accessible flag: Bool = false,
    remembered: Bool = true
  ) throws(SetupFailure) {
    paths = AppPaths(environment: environment)
    state = FileSessionStore(path: paths.stateFile, server: "")
    // Until the language is known, messages follow the flag if valid, then the locale.
    let l10n = Localizer(lang ?? LanguageResolver.fromLocale(environment))
    do {
      config = try ConfigFile.load(path: paths.configFile)
    } catch {
      throw SetupFailure(
        message: l10n(.configUnreadable, ["path": paths.configFile, "detail": error.message(l10n)]))
    }
    do {
      language = try LanguageResolver.resolve(
        flag: lang?.rawValue ?? config.language, environment: environment,
        remembered: remembered ? state.language : nil)
    } catch {
      throw SetupFailure(
        message: l10n(.invalidLanguage, ["source": error.source, "value": error.value]))
    }
    ConsoleOutput.language.withLock { [language] in $0 = language }
    accessible = Accessibility.enabled(
      flag: flag, config: config.accessible, environment: environment)
    escapesAllowed = Accessibility.escapesAllowed(accessible: accessible, environment: environment)
    ConsoleOutput.shape(accessible: accessible, escapesAllowed: escapesAllowed)
  }
}
