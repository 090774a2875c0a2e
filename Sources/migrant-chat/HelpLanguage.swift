import ArgumentParser
import Foundation
import MigrantChatCore
import MigrantChatIO

/// The language of `--help` and ArgumentParser's texts.
///
/// Help is built before the options are parsed, so `--lang` is looked up in
/// the raw arguments; then `MIGRANT_CHAT_LANG`, the language last chosen in the
/// chat, and the locale, as for the chat (an invalid value falls back to the
/// locale here; the chat reports it).
enum HelpLanguage {
  static let l10n: Localizer = {
    let arguments = ProcessArguments.all
    var flag: String?
    // `explore --lang` and `robustness --lang` list the bot's languages to walk or
    // vary: they do not choose the language a run speaks (only its `--help`'s).
    let listsLanguages = arguments.dropFirst().first.map { ["explore", "robustness"].contains($0) }
    let help = arguments.contains("--help") || arguments.contains("-h")
    if listsLanguages == true, !help {
      flag = nil
    } else if let index = arguments.firstIndex(of: "--lang"), index + 1 < arguments.count {
      flag = arguments[index + 1]
    } else if let joined = arguments.first(where: { $0.hasPrefix("--lang=") }) {
      flag = String(joined.dropFirst("--lang=".count))
    }
    let environment = ProcessEnvironment.current()
    // The language the user chose last in the chat (`/lang`), as every command's output
    // follows it: help and usage errors too. Read only when no flag or variable says.
    var remembered: Language?
    if flag == nil, (environment["MIGRANT_CHAT_LANG"] ?? "").isEmpty {
      let paths = AppPaths(environment: environment)
      remembered = FileSessionStore(path: paths.stateFile, server: "").language
    }
    let language =
      (try? LanguageResolver.resolve(flag: flag, environment: environment, remembered: remembered))
      ?? LanguageResolver.fromLocale(environment)
    return Localizer(language)
  }()

  /// `arguments` without `--lang X` and `--lang=X`.
  static func withoutLanguage(_ arguments: [String]) -> [String] {
    var rest: [String] = []
    var index = 0
    while index < arguments.count {
      if arguments[index] == "--lang" {
        index += 2
        continue
      }
      if !arguments[index].hasPrefix("--lang=") { rest.append(arguments[index]) }
      index += 1
    }
    return rest
  }

  static func help(_ key: MessageKey) -> ArgumentHelp {
    ArgumentHelp(l10n(key))
  }
}
