import ArgumentParser
import MigrantChatCore
import MigrantChatIO

// Typed option values: ArgumentParser refuses a bad value while parsing, and
// `UsageErrorText` turns its report into the user's language.

//
// Choices (`--lang`, `--color`, `--offline-fallback`) are read by `ArgumentCheck.choice`
// rather than as `ExpressibleByArgument`: ArgumentParser would add "(values: ...)" to the
// help in English, where the translated help texts already name them.

/// `--offline-fallback`: on a terminal, offer the offline assistant when the server is down.
enum OfflineFallback: String, CaseIterable, Sendable {
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

  /// `a,b,c`: each item read by `item`, each once, in the order given; any item it
  /// cannot read is `problem` (the whole text said back).
  static func commaList<Item: Equatable>(
    _ text: String, problem: MessageKey, item: (String) -> Item?
  ) throws -> [Item] {
    var items: [Item] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      guard let found = item(part.trimmingCharacters(in: .whitespaces).lowercased()) else {
        throw Problem(description: HelpLanguage.l10n(problem, ["value": text]))
      }
      if !items.contains(found) { items.append(found) }
    }
    return items
  }

  @Sendable static func timeout(_ text: String) throws -> Timeout {
    guard let timeout = Timeout(parsing: text) else {
      let range = Timeout.allowedText(HelpLanguage.l10n)
      throw Problem(
        description: HelpLanguage.l10n(.usageSecondsRange, ["min": range.min, "max": range.max]))
    }
    return timeout
  }

  /// One of `values`, read by `parse`; the error names the values in the user's language.
  static func choice<T>(
    _ values: [String], _ parse: @escaping @Sendable (String) -> T?
  ) -> @Sendable (String) throws -> T {
    { text in
      guard let value = parse(text) else {
        throw Problem(
          description: HelpLanguage.l10n(
            .usageOneOf, ["values": values.joined(separator: ", ")]))
      }
      return value
    }
  }

  /// A distance in km: above 0, at most 20,000 (half the way round the Earth).
  @Sendable static func kilometres(_ text: String) throws -> Double {
    guard let km = PlaceDistance.kilometres(text) else {
      throw Problem(description: HelpLanguage.l10n(.usageKilometres))
    }
    return km
  }

  @Sendable static func rate(_ text: String) throws -> Double {
    guard let rate = Double(text), rate.isFinite, rate > 0, rate <= 100_000 else {
      throw Problem(description: HelpLanguage.l10n(.loadBadRate, ["value": text]))
    }
    return rate
  }

  /// The longest run: seven days.
  static let longestDuration: Double = 7 * 86_400

  /// A duration as people type it (`90`, `90s`, `5m`, `1h`), at most seven days.
  static func duration(option: String) -> @Sendable (String) throws -> Double {
    { text in
      guard let seconds = DurationText.seconds(text), seconds <= longestDuration else {
        throw Problem(
          description: HelpLanguage.l10n(.loadBadDuration, ["option": option, "value": text]))
      }
      return seconds
    }
  }

  @Sendable static func threshold(_ text: String) throws -> LoadThreshold {
    guard let threshold = LoadThreshold(text) else {
      throw Problem(description: HelpLanguage.l10n(.loadBadThreshold, ["value": text]))
    }
    return threshold
  }

  /// `--ignore REGEX`: a pattern that compiles and needs at least one character.
  @Sendable static func ignorePattern(_ text: String) throws -> String {
    switch TextMask.problem(with: text) {
    case .notARegex?:
      throw Problem(description: HelpLanguage.l10n(.ignoreBadRegex, ["pattern": text]))
    case .matchesEmpty?:
      throw Problem(description: HelpLanguage.l10n(.ignoreMatchesEmpty, ["pattern": text]))
    case nil:
      return text
    }
  }

  @Sendable static func shard(_ text: String) throws -> Shard {
    guard let shard = Shard(parsing: text) else {
      throw Problem(description: HelpLanguage.l10n(.loadBadShard, ["value": text]))
    }
    return shard
  }

  @Sendable static func language(_ text: String) throws -> Language {
    try choice(Language.allCases.map(\.rawValue)) { Language(code: $0) }(text)
  }

  @Sendable static func color(_ text: String) throws -> ColorChoice {
    try choice(ColorChoice.allCases.map(\.rawValue)) { ColorChoice(rawValue: $0) }(text)
  }

  @Sendable static func offlineFallback(_ text: String) throws -> OfflineFallback {
    try choice(OfflineFallback.allCases.map(\.rawValue)) { OfflineFallback(rawValue: $0) }(text)
  }

  @Sendable static func storyMode(_ text: String) throws -> StoryMode {
    try choice(StoryMode.allCases.map(\.rawValue)) { StoryMode(rawValue: $0) }(text)
  }

  /// `rest`, `socketio`, or both for `replay`'s comparison (`rest,socketio`).
  @Sendable static func channels(_ text: String) throws -> [BotChannel] {
    guard let channels = BotChannel.list(text) else {
      throw Problem(
        description: HelpLanguage.l10n(.usageOneOf, ["values": "rest, socketio, rest,socketio"]))
    }
    return channels
  }

  /// The settle time of a socket.io answer: 0.05 to 60 seconds.
  @Sendable static func settle(_ text: String) throws -> Double {
    guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds.isFinite,
      (0.05...60).contains(seconds)
    else {
      throw Problem(
        description: HelpLanguage.l10n(.usageSecondsRange, ["min": "0.05", "max": "60"]))
    }
    return seconds
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
