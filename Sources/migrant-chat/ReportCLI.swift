import ArgumentParser
import Foundation
import MigrantChatCore
import MigrantChatIO

/// `migrant-chat report ITEM_ID TEXT`, `report --pending`, `--send`, `--drop ID`.
struct ReportCLI: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report", abstract: HelpLanguage.l10n(.helpReportAbstract))

  @OptionGroup var dataAPI: DataAPIOption
  @OptionGroup var language: LanguageOption
  @OptionGroup var network: NetworkOptions

  @Flag(help: HelpLanguage.help(.helpReportPending)) var pending = false
  @Flag(help: HelpLanguage.help(.helpReportSend)) var send = false
  @Option(help: HelpLanguage.help(.helpReportDrop)) var drop: Int64?

  @Argument(help: HelpLanguage.help(.helpReportItem)) var item: String?
  @Argument(help: HelpLanguage.help(.helpReportText)) var text: [String] = []

  func run() async throws {
    let environment = ProcessEnvironment.current()
    let setup: DirectorySetup
    let renderer: Renderer
    do {
      let base = try BaseSetup(lang: language.lang, environment: environment)
      let l10n = Localizer(base.language)
      setup = try DirectorySetup(
        flag: dataAPI.dataApi, environment: environment, config: base.config, paths: base.paths,
        timeout: (network.timeout ?? base.config.timeout ?? .standard).seconds,
        insecure: network.insecure, policy: RetryPolicy(), l10n: l10n)
      renderer = Renderer(
        width: TerminalInfo.width(environment: environment), color: false,
        language: base.language)
    } catch {
      ConsoleOutput.write(error.message + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }
    let l10n = renderer.l10n
    let desk = setup.reportDesk
    if let drop {
      guard (try? desk.queue?.remove(id: drop)) == true else {
        ConsoleOutput.write(l10n(.reportNoSuch, ["id": String(drop)]) + "\n", to: STDERR_FILENO)
        throw ExitCode(1)
      }
      ConsoleOutput.write(l10n(.reportDropped, ["id": String(drop)]) + "\n")
      return
    }
    if send {
      let waiting = (try? desk.queue?.pending()) ?? []
      if desk.api == nil, !waiting.isEmpty {
        // Nothing can be sent: as documented, that is a failure, not "all sent".
        ConsoleOutput.write(
          l10n(.reportCannotSend, ["reason": l10n(.reportNoAPI)]) + "\n", to: STDERR_FILENO)
        printPending(desk, renderer, setup)
        throw ExitCode(1)
      }
      let results = await desk.flush(includingRefused: true)
      let sent = results.filter { $0.1.isSent }.count
      if sent > 0 {
        ConsoleOutput.write(renderer.render(.report(.queueSent(count: sent))).stdout)
      }
      for case (let report, let outcome) in results where sent == 0 || !outcome.isSent {
        write(
          renderer.render(
            .report(.outcome(outcome, guideTitle: title(report.itemID, setup, l10n.language)))))
      }
      printPending(desk, renderer, setup)
      throw ExitCode(results.allSatisfy { $0.1.isSent } ? 0 : 1)
    }
    if pending {
      printPending(desk, renderer, setup)
      return
    }
    guard let item else {
      ConsoleOutput.write(l10n(.reportNeedsText) + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }
    guard let itemID = Contact.id(typed: item) else {
      ConsoleOutput.write(
        l10n(.reportBadItem, ["id": TerminalSanitizer.clean(item, keepNewlines: false)]) + "\n",
        to: STDERR_FILENO)
      throw ExitCode(2)
    }
    let description = text.joined(separator: " ").trimmingWhitespace()
    guard !description.isEmpty else {
      ConsoleOutput.write(l10n(.reportNeedsText) + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }
    guard description.count <= PendingReport.maxText else {
      ConsoleOutput.write(
        renderer.message(for: .tooLong(limit: PendingReport.maxText)) + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }
    let outcome = await desk.submit(itemID: itemID, text: description)
    write(
      renderer.render(.report(.outcome(outcome, guideTitle: title(itemID, setup, l10n.language)))))
    throw ExitCode(outcome.isSent ? 0 : 1)
  }

  /// The guide's title in the cache, or its id.
  private func title(_ id: Int64, _ setup: DirectorySetup, _ language: Language) -> String {
    guard let item = setup.guidanceTree().items[id] else { return "#\(id)" }
    return HTMLText.plain(item.title(in: language))
  }

  private func printPending(_ desk: ReportDesk, _ renderer: Renderer, _ setup: DirectorySetup) {
    let l10n = renderer.l10n
    let waiting = (try? desk.queue?.pending()) ?? []
    guard !waiting.isEmpty else {
      ConsoleOutput.write(l10n(.reportPendingEmpty) + "\n")
      return
    }
    for report in waiting {
      // The queue keeps the reason in English; the one every user meets is said in theirs.
      let reason =
        report.lastError == ReportDesk.describe(.noDataAPI)
        ? l10n(.reportNoAPI) : TerminalSanitizer.clean(report.lastError ?? "-", keepNewlines: false)
      let state = l10n(
        report.refused ? .reportPendingRefused : .reportPendingWaiting, ["error": reason])
      let day = DueDateText.format(DayDate(report.createdAt), l10n.language)
      let id = String(report.itemID)
      let guide =
        setup.guidanceTree().items[report.itemID].map {
          l10n(
            .reportPendingGuide,
            ["title": renderer.oneLine(HTMLText.plain($0.title(in: l10n.language))), "id": id])
        } ?? l10n(.reportPendingUnknownGuide, ["id": id])
      ConsoleOutput.write(
        "\(report.id). \(guide), \(day): "
          + TerminalSanitizer.clean(report.text, keepNewlines: false) + "\n    " + state + "\n")
    }
  }

  private func write(_ rendered: Rendered) {
    ConsoleOutput.write(rendered.stdout)
    ConsoleOutput.write(rendered.stderr, to: STDERR_FILENO)
  }
}
