import ArgumentParser
import Foundation
import MigrantChatCore
import MigrantChatIO

/// `migrant-chat history`: the conversations kept on this machine.
struct HistoryCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history",
    abstract: HelpLanguage.l10n(.helpHistoryAbstract),
    discussion: HelpLanguage.l10n(.helpHistoryDiscussion),
    subcommands: [List.self, Show.self, Search.self, Export.self, Forget.self],
    defaultSubcommand: List.self
  )

  /// The store and the language, opened once per command.
  struct Context {
    let l10n: Localizer
    let store: HistoryStore
    let width: Int
    let paths: AppPaths
    let base: BaseSetup
    let environment: [String: String]

    init(lang: Language?, accessible: Bool) throws {
      let environment = ProcessEnvironment.current()
      self.environment = environment
      do throws(SetupFailure) {
        let base = try BaseSetup(
          lang: lang, environment: environment, accessible: accessible, remembered: false)
        self.base = base
        l10n = Localizer(base.language)
        paths = base.paths
        do {
          try FileManager.default.createDirectory(
            atPath: base.paths.stateDirectory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
          let (opened, setAside) = try HistoryStore.openSettingAside(
            path: base.paths.conversationsFile)
          store = opened
          if let setAside {
            ConsoleOutput.write(
              l10n(.historySetAside, ["aside": TerminalSanitizer.clean(setAside)]) + "\n",
              to: STDERR_FILENO)
          }
        } catch {
          throw SetupFailure(
            message: l10n(
              .historyCannotOpen,
              [
                "path": TerminalSanitizer.clean(base.paths.conversationsFile),
                "detail": TerminalSanitizer.clean(ChatSetup.detail(error)),
              ]))
        }
      } catch {
        ConsoleOutput.write(error.message + "\n", to: STDERR_FILENO)
        throw ExitCode(2)
      }
      width = TerminalInfo.width(environment: environment)
    }

    /// A conversation by its number, or a clear error: no such conversation (exit 1),
    /// or the history that could not be read, with why (exit 2).
    func conversation(_ number: Int64) throws -> HistoryConversation {
      let found: HistoryConversation?
      do throws(DirectoryError) {
        found = try store.conversation(number)
      } catch {
        throw failed(error)
      }
      guard let found else {
        ConsoleOutput.write(
          l10n(.historyNoSuchConversation, ["number": String(number)]) + "\n", to: STDERR_FILENO)
        throw ExitCode(1)
      }
      return found
    }

    func failed(_ error: DirectoryError) -> ExitCode {
      ConsoleOutput.write(
        l10n(.historyFailed, ["detail": TerminalSanitizer.clean(error.detail)]) + "\n",
        to: STDERR_FILENO)
      return ExitCode(2)
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: HelpLanguage.l10n(.helpHistoryList))
    @OptionGroup var language: LanguageOption

    @OptionGroup var accessibility: AccessibleOption
    @Option(
      help: HelpLanguage.help(.helpHistoryLimit), transform: ArgumentCheck.count(in: 1...100_000))
    var limit = 50
    @Flag(help: HelpLanguage.help(.helpHistoryJSON)) var json = false

    func run() async throws {
      let context = try Context(lang: language.lang, accessible: accessibility.accessible)
      do throws(DirectoryError) {
        let conversations = try context.store.conversations(limit: limit)
        if json {
          // For scripts: an array, empty when nothing is kept, never a sentence.
          let list = JSONValue.array(
            conversations.map { .object(HistoryExport.summaryJSON($0)) })
          ConsoleOutput.write(list.compactText + "\n")
          return
        }
        guard !conversations.isEmpty else {
          ConsoleOutput.write(context.l10n(.historyEmpty) + "\n")
          return
        }
        ConsoleOutput.write(
          conversations.map {
            HistoryExport.line(
              $0, l10n: context.l10n, width: context.width, accessible: context.base.accessible)
              + "\n"
          }.joined())
      } catch {
        throw context.failed(error)
      }
    }
  }

  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: HelpLanguage.l10n(.helpHistoryShow))
    @OptionGroup var language: LanguageOption

    @OptionGroup var accessibility: AccessibleOption
    @Argument(help: HelpLanguage.help(.helpHistoryNumber)) var number: Int64

    func run() async throws {
      let context = try Context(lang: language.lang, accessible: accessibility.accessible)
      let conversation = try context.conversation(number)
      do throws(DirectoryError) {
        let entries = try context.store.entries(of: conversation.id)
        let color =
          context.base.escapesAllowed
          && ColorChoice.auto.enabled(
            isTerminal: TerminalInfo.isTerminal(STDOUT_FILENO), environment: context.environment)
        ConsoleOutput.write(
          HistoryExport.text(
            conversation, entries: entries, l10n: context.l10n, width: context.width, color: color,
            accessible: context.base.accessible))
      } catch {
        throw context.failed(error)
      }
    }
  }

  struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "search", abstract: HelpLanguage.l10n(.helpHistorySearch))
    @OptionGroup var language: LanguageOption

    @OptionGroup var accessibility: AccessibleOption
    @Argument(help: HelpLanguage.help(.helpHistoryWords)) var words: [String]
    @Flag(help: HelpLanguage.help(.helpHistoryJSON)) var json = false

    func run() async throws {
      let context = try Context(lang: language.lang, accessible: accessibility.accessible)
      let query = words.joined(separator: " ")
      let hits: [HistoryStore.Hit]
      do throws(DirectoryError) {
        hits = try context.store.search(
          query, preferring: KeyboardLayout.preferred(for: context.l10n.language))
      } catch {
        throw context.failed(error)
      }
      if json {
        // Each conversation found, with the line that matched; `[]` and exit 1 for none.
        let found = JSONValue.array(
          hits.map { hit in
            var fields = HistoryExport.summaryJSON(hit.conversation)
            fields["line"] = .string(hit.line)
            return .object(fields)
          })
        ConsoleOutput.write(found.compactText + "\n")
        if hits.isEmpty { throw ExitCode(1) }
        return
      }
      guard !hits.isEmpty else {
        ConsoleOutput.write(
          context.l10n(
            .historyNothingFound, ["query": TerminalSanitizer.clean(String(query.prefix(80)))])
            + "\n")
        throw ExitCode(1)
      }
      do {
        for hit in hits {
          var said = TerminalSanitizer.clean(hit.line, keepNewlines: false)
          if said.count > context.width - 8 { said = said.prefix(max(context.width - 9, 10)) + "…" }
          ConsoleOutput.write(
            HistoryExport.line(
              hit.conversation, l10n: context.l10n, width: context.width,
              accessible: context.base.accessible) + "\n"
              + "      " + said + "\n")
        }
      }
    }
  }

  struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export", abstract: HelpLanguage.l10n(.helpHistoryExport))
    @OptionGroup var language: LanguageOption

    @OptionGroup var accessibility: AccessibleOption
    @Argument(help: HelpLanguage.help(.helpHistoryNumber)) var number: Int64
    @Flag(help: HelpLanguage.help(.helpHistoryFormat)) var format: ExportFormat = .markdown
    @Option(help: HelpLanguage.help(.helpHistoryTranscript), completion: .file())
    var transcript: String?
    @Option(
      name: .customLong("start-message"), help: HelpLanguage.help(.helpHistoryStartMessage))
    var startMessage: String?
    @Flag(name: .customLong("as-e2e"), help: HelpLanguage.help(.helpAsE2E)) var asE2E = false

    enum ExportFormat: String, EnumerableFlag {
      case markdown, json, text
    }

    func run() async throws {
      let context = try Context(lang: language.lang, accessible: accessibility.accessible)
      let conversation = try context.conversation(number)
      let entries: [HistoryEntry]
      do throws(DirectoryError) {
        entries = try context.store.entries(of: conversation.id)
      } catch {
        throw context.failed(error)
      }
      if let transcript {
        try write(conversation, entries: entries, to: transcript, l10n: context.l10n)
        return
      }
      switch format {
      case .markdown:
        ConsoleOutput.write(
          HistoryExport.markdown(conversation, entries: entries, l10n: context.l10n))
      case .json:
        ConsoleOutput.write(HistoryExport.json(conversation, entries: entries).compactText + "\n")
      case .text:
        ConsoleOutput.write(
          HistoryExport.text(conversation, entries: entries, l10n: context.l10n, width: 80))
      }
    }
  }

  struct Forget: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "forget", abstract: HelpLanguage.l10n(.helpHistoryForget))
    @OptionGroup var language: LanguageOption

    @OptionGroup var accessibility: AccessibleOption
    @Argument(help: HelpLanguage.help(.helpHistoryNumber)) var number: Int64?
    @Option(help: HelpLanguage.help(.helpHistoryBefore), transform: Forget.day) var before: Date?
    @Flag(help: HelpLanguage.help(.helpHistoryAll)) var all = false

    /// Takes `typed` out of the input history file at `path` (everything, `all`),
    /// rewritten whole; a file that cannot be rewritten is said, never half-written.
    static func forgetTyped(_ typed: Set<String>, all: Bool, path: String, l10n: Localizer) {
      guard all || !typed.isEmpty,
        let text = try? String(contentsOfFile: path, encoding: .utf8)
      else { return }
      let kept =
        all
        ? []
        : text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
          !typed.contains(String(line))
        }
      do {
        try AtomicFile.writeUserFile(
          Data(utf8Of: kept.joined(separator: "\n")), to: path, mode: 0o600)
      } catch {
        ConsoleOutput.write(
          l10n(.historyFailed, ["detail": TerminalSanitizer.clean("\(error)")]) + "\n",
          to: STDERR_FILENO)
      }
    }

    /// `2026-11-01`: the start of that day, here.
    @Sendable static func day(_ text: String) throws -> Date {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.dateFormat = "yyyy-MM-dd"
      formatter.isLenient = false
      guard let date = formatter.date(from: text.trimmingCharacters(in: .whitespaces)) else {
        throw ArgumentCheck.Problem(description: HelpLanguage.l10n(.historyBadDate))
      }
      return date
    }

    func run() async throws {
      let context = try Context(lang: language.lang, accessible: accessibility.accessible)
      let chosen = [number != nil, before != nil, all].filter { $0 }.count
      guard chosen == 1 else {
        ConsoleOutput.write(context.l10n(.historyForgetWhat) + "\n", to: STDERR_FILENO)
        throw ExitCode(2)
      }
      let what: HistoryStore.Forget
      var forgotten: [HistoryConversation] = []
      if let number {
        forgotten = [try context.conversation(number)]
        what = .conversation(number)
      } else if let before {
        what = .before(before)
      } else {
        what = .all
      }
      do throws(DirectoryError) {
        if number == nil {
          forgotten = try context.store.conversations(limit: Int.max).filter { conversation in
            before.map { conversation.updatedAt < $0 } ?? true
          }
        }
        // What was typed in them is also in readline's input history (the Up arrow):
        // those lines go too, and with --all the whole input history.
        var typed: Set<String> = []
        if let number {
          typed = Set(try context.store.entries(of: number).filter { $0.kind == .user }.map(\.text))
        } else if let before {
          typed = try context.store.typedLines(before: before)
        }
        let count = try context.store.forget(what)
        // A line also typed in a conversation that is kept (`1`, `housing`) stays.
        typed.subtract(try context.store.typedLines())
        Self.forgetTyped(
          typed, all: { if case .all = what { true } else { false } }(),
          path: context.paths.historyFile, l10n: context.l10n)
        if case .all = what {
          // A damaged history set aside still holds conversations: --all takes it too.
          HistoryStore.deleteDamagedCopies(beside: context.paths.conversationsFile)
        }
        ConsoleOutput.write(
          (count == 0
            ? context.l10n(.historyForgotNone) : context.l10n.plural(.historyForgot, count: count))
            + "\n")
      } catch .corrupt where all {
        // Damaged past its first pages (it opened, then a read failed): --all still
        // erases it, file, log and all, and the copies set aside.
        let file = context.paths.conversationsFile
        for suffix in ["", "-wal", "-shm"] { unlink(file + suffix) }
        HistoryStore.deleteDamagedCopies(beside: file)
        Forget.forgetTyped([], all: true, path: context.paths.historyFile, l10n: context.l10n)
        ConsoleOutput.write(context.l10n(.historyDamagedDeleted) + "\n")
        return
      } catch {
        throw context.failed(error)
      }
      await ServerForgetting(context: context).end(forgotten)
    }
  }
}

extension HistoryCommand.Export {
  /// `--transcript FILE`: the conversation as a transcript that replays against the same
  /// bot (`replay FILE --server URL`), its answers as exact checks, a button chosen by
  /// number as a `button:` step. The start message is `--start-message` (`/start`, the
  /// chat's default), sent when the bot answered before the first line.
  func write(
    _ conversation: HistoryConversation, entries: [HistoryEntry], to path: String,
    l10n: Localizer
  ) throws {
    let (start, turns) = HistoryExport.turns(entries)
    try TranscriptWriter.save(
      name: l10n(.historyTranscriptName, ["number": String(number), "topic": conversation.topic]),
      language: conversation.language,
      start: start.map { RecordedTurn(line: startMessage ?? "/start", messages: $0) },
      turns: turns, to: path, asE2E: asE2E, l10n: l10n)
  }
}

extension TranscriptWriter {
  /// Writes a conversation exported as a transcript (`history export --transcript`,
  /// `replay from-tracker`) and says so; a file that cannot be written is said, exit 1.
  static func save(
    name: String, language: Language, start: RecordedTurn? = nil, turns: [RecordedTurn],
    to path: String, asE2E: Bool, l10n: Localizer
  ) throws {
    do {
      try write(
        name: name, language: language, start: start, turns: turns, to: path, asE2E: asE2E)
    } catch {
      ConsoleOutput.write(
        l10n(
          .transcriptNotSaved,
          ["path": TerminalSanitizer.clean(path), "detail": TerminalSanitizer.clean("\(error)")])
          + "\n", to: STDERR_FILENO)
      throw ExitCode(1)
    }
    ConsoleOutput.write(
      l10n.plural(.transcriptSaved, count: turns.count, ["path": TerminalSanitizer.clean(path)])
        + "\n")
  }
}
