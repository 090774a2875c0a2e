import ArgumentParser
import Foundation
import MigrantChatCore
import MigrantChatIO

/// `replay merge A.hlog B.hlog`: one summary from the interval logs of several shards.
struct ReplayMergeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    // Parsed as a root by `MigrantChat.main` (see there), named in full in its usage.
    _superCommandName: "migrant-chat replay",
    abstract: HelpLanguage.l10n(.helpMergeAbstract)
  )

  @Argument(help: HelpLanguage.help(.helpMergeFiles), completion: .file())
  var files: [String] = []

  @OptionGroup var language: LanguageOption

  @Option(help: HelpLanguage.help(.helpMergeReport), completion: .file())
  var report: String?

  func run() throws {
    let environment = ProcessEnvironment.current()
    let l10n: Localizer
    do {
      l10n = Localizer(try BaseSetup(lang: language.lang, environment: environment).language)
    } catch {
      ConsoleOutput.write(error.message + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }
    guard !files.isEmpty else {
      // No file: what the command takes, as `--help` says it.
      ConsoleOutput.write(
        HelpText(l10n).translate(Self.helpMessage()) + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }
    if let report {
      do { try AtomicFile.checkUserFile(report, inputs: files) } catch {
        ConsoleOutput.write(
          l10n(.reportNotSaved, ["detail": TerminalSanitizer.clean("\(error)")]) + "\n",
          to: STDERR_FILENO)
        throw ExitCode(2)
      }
    }
    var merged = HistogramLog.Contents()
    var spans: [ClosedRange<Double>] = []
    var seen: Set<String> = []
    for file in files {
      // The same log named twice would count its run twice.
      let real = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
      guard seen.insert(real).inserted else {
        ConsoleOutput.write(
          l10n(.loadMergeTwice, ["file": TerminalSanitizer.clean(file)]) + "\n", to: STDERR_FILENO)
        continue
      }
      let contents: HistogramLog.Contents
      do {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        contents = try HistogramLog.read(text)
      } catch let error as HistogramLog.ReadError {
        ConsoleOutput.write(
          l10n(
            .loadMergeUnreadable,
            [
              "file": TerminalSanitizer.clean(file), "line": "\(error.line)",
              "detail": TerminalSanitizer.clean(error.text(l10n)),
            ]) + "\n", to: STDERR_FILENO)
        throw ExitCode(2)
      } catch {
        // The system's reason, in a few words (Foundation's sentence is English prose).
        let reason =
          FileManager.default.fileExists(atPath: file)
          ? l10n(.fileUnreadable) : l10n(.fileMissing)
        ConsoleOutput.write(
          l10n(.loadMergeNoFile, ["path": TerminalSanitizer.clean(file), "detail": reason]) + "\n",
          to: STDERR_FILENO)
        throw ExitCode(2)
      }
      merged.add(contents)
      if let span = contents.span { spans.append(span) }
    }
    guard merged.overall.totalCount > 0 else {
      ConsoleOutput.write(l10n(.loadMergeEmpty) + "\n", to: STDERR_FILENO)
      throw ExitCode(2)
    }
    var counts = merged.counts ?? LoadCounts()
    if merged.counts == nil { counts.turns = Int(clamping: merged.overall.totalCount) }
    var seconds = merged.span.map { $0.upperBound - $0.lowerBound } ?? 0
    if let gap = Self.gap(spans) {
      // Shards of one run overlap in time; runs one after another do not, and the time
      // between them is no load: the rate is over the time they ran, said as such.
      ConsoleOutput.write(
        l10n(.loadMergeNoOverlap, ["seconds": String(format: "%.0f", gap)]) + "\n",
        to: STDERR_FILENO)
      seconds = Self.covered(spans)
    }
    let summary = LoadSummary(
      counts: counts, seconds: seconds, overall: merged.overall, steps: merged.steps)
    // `--report -` holds the report alone; the summary then goes to stderr.
    let summaryDescriptor = report == "-" ? STDERR_FILENO : STDOUT_FILENO
    ConsoleOutput.write(summary.text(l10n), to: summaryDescriptor)
    if counts.failed > 0 {
      // Why the exit status is 1, as a run says it.
      ConsoleOutput.write(
        l10n(.loadVerdictFailed, ["reasons": l10n.plural(.replayFailed, count: counts.failed)])
          + "\n", to: summaryDescriptor)
    }
    if let report {
      do {
        try AtomicFile.writeUserFile(
          Data(utf8Of: summary.json.compactText + "\n"), to: report, mode: 0o600, inputs: files)
      } catch {
        ConsoleOutput.write(
          l10n(.reportNotSaved, ["detail": TerminalSanitizer.clean("\(error)")]) + "\n",
          to: STDERR_FILENO)
        throw ExitCode(2)
      }
    }
    if counts.failed > 0 { throw ExitCode(1) }
  }

  /// The longest time no run covered, between the first start and the last end; nil
  /// when the runs overlap or touch (shards of one run).
  static func gap(_ spans: [ClosedRange<Double>]) -> Double? {
    let sorted = spans.sorted { $0.lowerBound < $1.lowerBound }
    var end = sorted.first?.upperBound ?? 0
    var longest = 0.0
    for span in sorted.dropFirst() {
      if span.lowerBound > end { longest = max(longest, span.lowerBound - end) }
      end = max(end, span.upperBound)
    }
    return longest > 1 ? longest : nil
  }

  /// Seconds covered by at least one run.
  static func covered(_ spans: [ClosedRange<Double>]) -> Double {
    let sorted = spans.sorted { $0.lowerBound < $1.lowerBound }
    var total = 0.0
    var current: ClosedRange<Double>?
    for span in sorted {
      if let open = current, span.lowerBound <= open.upperBound {
        current = open.lowerBound...max(open.upperBound, span.upperBound)
      } else {
        if let open = current { total += open.upperBound - open.lowerBound }
        current = span
      }
    }
    if let open = current { total += open.upperBound - open.lowerBound }
    return total
  }
}
