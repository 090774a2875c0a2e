import ArgumentParser
import Foundation
import MigrantChatCore
import MigrantChatIO

// Options more than one command takes, each declared and validated once.

/// `--lang`: chat, contacts, replay, serve.
struct LanguageOption: ParsableArguments {
  @Option(
    help: HelpLanguage.help(.helpLang), completion: .list(Language.allCases.map(\.rawValue)),
    transform: ArgumentCheck.language)
  var lang: Language?
}

/// `--accessible`: every command that prints for a person (`Accessibility`).
struct AccessibleOption: ParsableArguments {
  @Flag(help: HelpLanguage.help(.helpAccessible))
  var accessible = false
}

/// The bot's address: chat, replay.
struct BotOptions: ParsableArguments {
  @Option(help: HelpLanguage.help(.helpServer))
  var server: String?

  @Option(help: HelpLanguage.help(.helpWebhookPath))
  var webhookPath: String?

  @Option(
    help: HelpLanguage.help(.helpChannel),
    completion: .list(["rest", "socketio", "rest,socketio"]),
    transform: ArgumentCheck.channels)
  var channel: [BotChannel]?

  @Option(help: HelpLanguage.help(.helpSocketPath))
  var socketPath: String?

  @Option(help: HelpLanguage.help(.helpUserEvent))
  var userEvent: String?

  @Option(help: HelpLanguage.help(.helpBotEvent))
  var botEvent: String?

  @Option(help: HelpLanguage.help(.helpMetadataKey))
  var metadataKey: String?

  @Option(help: HelpLanguage.help(.helpSettle), transform: ArgumentCheck.settle)
  var settle: Double?
}

/// How requests to a server are made: chat, contacts, replay.
struct NetworkOptions: ParsableArguments {
  @Option(help: HelpLanguage.help(.helpTimeout), transform: ArgumentCheck.timeout)
  var timeout: Timeout?

  @Flag(help: HelpLanguage.help(.helpInsecure))
  var insecure = false
}

/// The data API for the contact directory and the guidance: chat, contacts.
struct DataAPIOption: ParsableArguments {
  @Option(help: HelpLanguage.help(.helpDataAPI))
  var dataApi: String?
}

/// `--coverage DOMAIN` and `--coverage-report FILE` (replay, explore): what of a Rasa
/// domain the run's conversations reached, read from their trackers.
struct CoverageOptions: ParsableArguments {
  @Option(
    name: .customLong("coverage"), help: HelpLanguage.help(.helpCoverage),
    completion: .file(extensions: ["yml", "yaml"]))
  var domain: String?

  @Option(
    name: .customLong("coverage-report"), help: HelpLanguage.help(.helpCoverageReport),
    completion: .file())
  var report: String?

  func validate() throws {
    if report != nil && domain == nil {
      throw ValidationError(HelpLanguage.l10n(.coverageReportWithoutDomain))
    }
  }

  /// The domain's names, once the bot is known to give trackers (a tracker asked for
  /// a new id answers); nil without `--coverage`. Said before the run, not after it.
  func domainNames(tracker: (any TrackerSource)?, l10n: Localizer) async throws(SetupFailure)
    -> TrackerCoverage.Names?
  {
    guard let path = domain else { return nil }
    guard FileManager.default.fileExists(atPath: path) else {
      throw SetupFailure(message: l10n(.replayNoSuchPath, ["path": TerminalSanitizer.clean(path)]))
    }
    let names: TrackerCoverage.Names
    do {
      names = try DomainFile.names(path: path)
    } catch {
      throw SetupFailure(
        message: l10n(
          .coverageBadDomain,
          [
            "path": TerminalSanitizer.clean(path),
            "detail": TerminalSanitizer.clean(error.message(l10n)),
          ]))
    }
    guard let tracker,
      await tracker.events(sender: "migrant-chat-coverage-" + UUID().uuidString) != nil
    else {
      throw SetupFailure(message: l10n(.coverageNoTracker))
    }
    return names
  }
}
