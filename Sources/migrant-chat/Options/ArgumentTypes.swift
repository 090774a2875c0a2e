import ArgumentParser
import MigrantChatCore

// Typed option values: ArgumentParser refuses a bad value while parsing, and
// `UsageErrorText` turns its report into the user's language.

extension ColorChoice: ExpressibleByArgument {}

extension Language: ExpressibleByArgument {
  /// `en`, `ru`, `uk`, and what `Language(code:)` also takes (`ua`, `uk_UA`).
  public init?(argument: String) {
    self.init(code: argument)
  }
}

/// `--offline-fallback`: on a terminal, offer the offline assistant when the server is down.
enum OfflineFallback: String, CaseIterable, ExpressibleByArgument {
  case auto, never
}

/// `--json` or `--csv` for the `contacts` commands; neither means text.
enum ContactsFormat: String, EnumerableFlag {
  case json, csv

  static func help(for value: ContactsFormat) -> ArgumentHelp? {
    switch value {
    case .json: HelpLanguage.help(.helpContactsJSON)
    case .csv: HelpLanguage.help(.helpCSV)
    }
  }
}

/// Checks for numbers with a range, used as `transform:`; the thrown reason
/// names the range in the user's language and ends up in the usage error.
enum ArgumentCheck {
  struct Problem: Error, CustomStringConvertible {
    var description: String
  }

  @Sendable static func timeout(_ text: String) throws -> Timeout {
    guard let timeout = Timeout(parsing: text) else {
      let range = Timeout.allowedText
      throw Problem(
        description: HelpLanguage.l10n(.usageSecondsRange, ["min": range.min, "max": range.max]))
    }
    return timeout
  }

  /// A whole number in `range`.
  static func count(in range: ClosedRange<Int>) -> @Sendable (String) throws -> Int {
    { text in
      guard let number = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(number)
      else {
        throw Problem(
          description: HelpLanguage.l10n(
            .usageWholeNumberRange,
            ["min": String(range.lowerBound), "max": String(range.upperBound)]))
      }
      return number
    }
  }
}
