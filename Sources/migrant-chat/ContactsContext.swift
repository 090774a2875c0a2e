import Foundation
import MigrantChatCore
import MigrantChatIO

/// What the `contacts` subcommands share: the directory, the language, the output format.
struct ContactsContext {
  enum Format {
    case text, json, csv

    /// `--json`, `--csv`, or text when neither flag is given.
    init(_ flag: ContactsFormat?) {
      switch flag {
      case nil: self = .text
      case .json: self = .json
      case .csv: self = .csv
      }
    }
  }

  let directory: ContactDirectory
  let language: Language
  let format: Format
  let renderer: Renderer
  let paths: AppPaths
  let dataAPI: String?
  let csvBOM: Bool
  /// Reports of wrong guides waiting in the queue go with a successful sync.
  let reports: ReportDesk
  /// The place set with `/place` in the chat: `near` and `map` start there, cards say
  /// how far offices are.
  let home: HomePlace?

  init(options: ContactsOptions, environment: [String: String]) throws(SetupFailure) {
    let base = try BaseSetup(
      lang: options.language.lang, environment: environment,
      accessible: options.accessibility.accessible)
    paths = base.paths
    language = base.language
    let config = base.config
    let l10n = Localizer(language)
    format = Format(options.format)
    csvBOM = options.csvBom
    let setup = try DirectorySetup(
      flag: options.dataAPI.dataApi, environment: environment, config: config, paths: paths,
      timeout: (options.network.timeout ?? config.timeout ?? .standard).seconds,
      insecure: options.network.insecure, policy: RetryPolicy(), l10n: l10n,
      progress: Self.progressLines(l10n, format: format))
    directory = setup.directory
    dataAPI = setup.dataAPI
    reports = setup.reportDesk
    let color =
      base.escapesAllowed
      && ColorChoice.auto.enabled(
        isTerminal: TerminalInfo.isTerminal(STDOUT_FILENO), environment: environment)
    home = base.state.place
    var renderer = Renderer(
      width: TerminalInfo.width(environment: environment), color: color, language: language)
    renderer.accessible = base.accessible
    renderer.home = home
    self.renderer = renderer
    for notice in setup.notices {
      ConsoleOutput.write(renderer.render(.directory(.notice(notice))).stderr, to: STDERR_FILENO)
    }
  }

  var l10n: Localizer { renderer.l10n }

  /// `--csv-bom`: a UTF-8 byte order mark first, so spreadsheets read Cyrillic right.
  var csvStart: String { csvBOM ? "\u{FEFF}" : "" }

  /// On a terminal, a line for each table fetched and each retry (not animated: screen
  /// readers read every line once); nothing in a pipe or with --json/--csv.
  static func progressLines(
    _ l10n: Localizer, format: Format
  ) -> (@Sendable (DirectorySync.SyncProgress) -> Void)? {
    guard format == .text, TerminalInfo.isTerminal(STDERR_FILENO) else { return nil }
    let total = RetryPolicy().attempts
    return { step in
      let line =
        switch step {
        case .fetching(let table):
          l10n(.syncFetching, ["table": l10n(SyncTableName.key(table))])
        case .retrying(_, let attempt, let seconds):
          l10n(
            .syncRetrying,
            [
              "seconds": l10n.number(seconds, fractionDigits: 1), "next": String(attempt + 1),
              "total": String(total),
            ])
        }
      ConsoleOutput.write("  " + line + "\n", to: STDERR_FILENO)
    }
  }

  /// Lists (query nil) or searches; exit status 1 when a search finds nothing.
  func printSearch(_ query: String?, limit: Int) async -> Int32 {
    let result: SearchResult
    let favourites: Set<Int64>
    do {
      result = try await directory.search(
        query ?? "", language: language, limit: limit > 0 ? limit : Int.max)
      favourites = try await directory.favourites()
    } catch {
      return fail(error.message(l10n))
    }
    let isSample = (try? await directory.status().source?.isSample) == true
    switch format {
    case .text:
      var listing = ContactListing(
        query: query, result: result, favourites: favourites, isSample: isSample)
      if query == nil { listing.narrowedBy = .limitOrSearch }
      write(renderer.render(.contactList(listing)))
    case .json:
      let objects = result.contacts.map {
        ContactExport.object($0, language: language, favourite: favourites.contains($0.id))
      }
      ConsoleOutput.write(JSONValue.array(objects).compactText + "\n")
    case .csv:
      var text = csvStart + ContactExport.csvHeader + "\r\n"
      for contact in result.contacts {
        text +=
          ContactExport.csvRow(
            contact, language: language, favourite: favourites.contains(contact.id)) + "\r\n"
      }
      ConsoleOutput.write(text)
    }
    // The data goes to stdout as asked; the hint, for a person, to stderr.
    if format != .text, let hint = renderer.didYouMean(result.suggestions) {
      ConsoleOutput.write(hint + "\n", to: STDERR_FILENO)
    }
    for hint in [renderer.readAs(result), renderer.leftOut(result)].compactMap({ $0 })
    where format != .text {
      ConsoleOutput.write(hint + "\n", to: STDERR_FILENO)
    }
    if format != .text && isSample {
      ConsoleOutput.write(l10n(.directorySample) + "\n", to: STDERR_FILENO)
    }
    return query != nil && result.contacts.isEmpty ? 1 : 0
  }

  func printContact(_ argument: String) async -> Int32 {
    guard let id = Contact.id(typed: argument) else {
      let example = await directory.exampleID()
      ConsoleOutput.write(
        renderer.message(for: .badContactID(argument, example: example)) + "\n",
        to: STDERR_FILENO)
      return 2
    }
    let contact: Contact?
    let favourite: Bool
    do {
      contact = try await directory.contact(id: id)
      favourite = try await directory.favourites().contains(id)
    } catch {
      return fail(error.message(l10n))
    }
    guard let contact else {
      return fail(
        l10n(dataAPI == nil ? .contactMissingNoAPI : .contactMissingCLI, ["id": String(id)]))
    }
    switch format {
    case .text:
      ConsoleOutput.write(renderer.card(contact, favourite: favourite, full: true))
    case .json:
      ConsoleOutput.write(
        ContactExport.object(contact, language: language, favourite: favourite).compactText + "\n")
    case .csv:
      ConsoleOutput.write(
        csvStart + ContactExport.csvHeader + "\r\n"
          + ContactExport.csvRow(contact, language: language, favourite: favourite) + "\r\n")
    }
    return 0
  }

  /// Syncs now: 0 when updated or unchanged, 1 when it failed, 2 with no data API.
  func sync() async -> Int32 {
    guard dataAPI != nil else {
      return fail(renderer.message(for: .notConfigured, configPath: paths.configFile), status: 2)
    }
    if format == .text, let dataAPI {
      ConsoleOutput.write(
        l10n(.syncing, ["server": TerminalSanitizer.clean(ServerEndpoint.redacted(dataAPI))])
          + "\n", to: STDERR_FILENO)
    }
    let outcome = await directory.syncNow()
    let sent =
      outcome.isFailure
      ? 0 : await reports.flush().filter { $0.1.isSent }.count
    if sent > 0 {
      ConsoleOutput.write(
        renderer.render(.report(.queueSent(count: sent))).stdout, to: STDERR_FILENO)
    }
    switch format {
    case .json:
      var fields: [String: JSONValue] = [
        "code": .string(DirectoryEvent.synced(outcome).code),
        "message": .string(renderer.message(for: outcome)),
      ]
      if case .updated(let count, let skipped) = outcome {
        fields["count"] = .number(Double(count))
        fields["skipped"] = .number(Double(skipped))
      }
      ConsoleOutput.write(JSONValue.object(fields).compactText + "\n")
    case .text, .csv:
      let text = renderer.message(for: outcome) + "\n"
      ConsoleOutput.write(text, to: outcome.isFailure ? STDERR_FILENO : STDOUT_FILENO)
    }
    return outcome.isFailure ? 1 : 0
  }

  func fail(_ message: String, status: Int32 = 1) -> Int32 {
    ConsoleOutput.write(message + "\n", to: STDERR_FILENO)
    return status
  }

  func write(_ rendered: Rendered) {
    ConsoleOutput.write(rendered.stdout)
    ConsoleOutput.write(rendered.stderr, to: STDERR_FILENO)
  }
}

/// The names of the data API's tables in progress lines.
enum SyncTableName {
  static func key(_ table: String) -> MessageKey {
    switch table {
    case "faq_tags": .syncTableTopics
    case "faq_items": .syncTableGuides
    case "data-version": .syncTableChanges
    default: .syncTableOffices
    }
  }
}
