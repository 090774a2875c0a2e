import ArgumentParser
import Foundation
import MigrantChatCore
import MigrantChatIO

struct MigrantChat: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "migrant-chat",
    abstract: HelpLanguage.l10n(.helpAbstract),
    version: MigrantChatVersion.current,
    subcommands: [
      ChatCommand.self, ContactsCommand.self, ServeCommand.self, ReplayCommand.self,
      ExploreCommand.self, RobustnessCommand.self, EvaluateCommand.self, HistoryCommand.self,
      TodoCLI.self, ReportCLI.self,
    ],
    defaultSubcommand: ChatCommand.self
  )

  /// `replay PATH...` takes positional paths, which ArgumentParser fills before
  /// it looks for a subcommand, so `replay merge` is parsed on its own.
  static var routesToMerge: Bool {
    ProcessArguments.all.dropFirst().starts(with: ["replay", "merge"])
  }

  /// `replay from-tracker ...`: parsed as a root, as `replay merge` is.
  static var routesToFromTracker: Bool {
    ProcessArguments.all.dropFirst().starts(with: ["replay", "from-tracker"])
  }

  /// The entry point, after making a closed stdout (`| head`) non-fatal; usage errors
  /// are reported in the user's language with exit status 2.
  ///
  /// Synchronous: the chat runs its task on this thread (`MainThreadExecutor`), and every
  /// other command on Swift's global executor while this thread serves the main queue, as
  /// an async `main` did.
  static func start() {
    // A closed stdin, stdout or stderr is /dev/null by now (CProcess's constructor).
    SignalHub.ignoreBrokenPipes()
    // The full report (commit, library versions) rather than ArgumentParser's one line.
    if Array(ProcessArguments.all.dropFirst()) == ["--version"] {
      ConsoleOutput.write(MigrantChatVersion.report + "\n")
      return
    }
    // Without /proc, libdispatch would stop the program at a random moment: say so first.
    guard ProcFilesystem.isMounted else {
      let width = TerminalInfo.width(
        environment: ProcessEnvironment.current(), descriptor: STDERR_FILENO)
      let text = TextWrapper(width: width).wrap(StyledText(HelpLanguage.l10n(.errorProcMissing)))
      ConsoleOutput.write(text.map { $0.plainText + "\n" }.joined(), to: STDERR_FILENO)
      exit(withError: ExitCode.failure)
    }
    var arguments = Array(ProcessArguments.all.dropFirst())
    if let help = rootHelp(arguments) {
      ConsoleOutput.write(help)
      return
    }
    // `help chat --lang uk`, `todo --help --lang uk`: the language was read for the help
    // (`HelpLanguage`); left in, it would be parsed as an option of the default
    // subcommand (`todo list`) and show that one's help instead of the group's.
    if arguments.first == "help" || arguments.contains("--help") || arguments.contains("-h") {
      arguments = HelpLanguage.withoutLanguage(arguments)
    }
    // `--repeat -1`: a negative number after an option is its value, said out of range,
    // not ArgumentParser's "--repeat needs a value" (it reads `-1` as an option).
    arguments = Self.negativeValuesJoined(arguments)
    // `--lang uk todo`: the language before the command, as people type it.
    if arguments.count >= 3, arguments[0] == "--lang",
      configuration.subcommands.contains(where: { $0._commandName == arguments[2] })
    {
      arguments = [arguments[2], "--lang", arguments[1]] + arguments.dropFirst(3)
    }
    if let script = CompletionRoot.requestedScript(arguments) {
      ConsoleOutput.write(script + "\n")
      return
    }
    // The chat's common options read without swift-argument-parser: see `ChatArguments`.
    if let chat = ChatArguments.quickParse(arguments) {
      let outcome = MainThreadExecutor.run { () async -> Result<Void, any Error> in
        do {
          try await ChatCommand.run(chat)
          return .success(())
        } catch {
          return .failure(error)
        }
      }
      if case .failure(let error) = outcome { fail(with: error) }
      return
    }
    // Parsed here, and a synchronous command run here, as the async `main` did before its
    // first `await`; an async one on Swift's pool while this thread serves the main queue.
    var command: any ParsableCommand
    do {
      command = try parse(arguments)
    } catch {
      fail(with: error)
    }
    guard let asyncCommand = command as? any AsyncParsableCommand else {
      do {
        try command.run()
      } catch {
        fail(with: error)
      }
      return
    }
    let parsed = UncheckedSendable(asyncCommand)
    Task {
      do {
        var command = parsed.value
        try await command.run()
      } catch {
        fail(with: error)
      }
      Foundation.exit(EXIT_SUCCESS)
    }
    dispatchMain()
  }

  /// Every command but the chat's quick path, parsed by swift-argument-parser.
  private static func parse(_ arguments: [String]) throws -> any ParsableCommand {
    if routesToMerge {
      return try ReplayMergeCommand.parseAsRoot(Array(arguments.dropFirst(2)))
    }
    if routesToFromTracker {
      return try ReplayFromTrackerCommand.parseAsRoot(Array(arguments.dropFirst(2)))
    }
    return try parseAsRoot(arguments)
  }

  /// Ends the process for an error a command threw: ArgumentParser's usage errors (exit
  /// 64, English) become this client's, translated, with the usage line, exit 2, like
  /// every other usage error; help, with ArgumentParser's titles and own lines in the
  /// user's language too.
  private static func fail(with error: any Error) -> Never {
    if exitCode(for: error) == .success {
      let text = fullMessage(for: error)
      if !text.isEmpty, text != MigrantChatVersion.current {
        ConsoleOutput.write(HelpText(HelpLanguage.l10n).translate(text) + "\n")
        exit(withError: ExitCode.success)
      }
    }
    if exitCode(for: error) == .validationFailure {
      var full = fullMessage(for: error)
      if routesToMerge {
        full = full.replacingOccurrences(
          of: "'merge --help'", with: "'migrant-chat replay merge --help'")
      }
      let text = UsageErrorText(HelpLanguage.l10n).render(
        message: message(for: error), fullMessage: full)
      ConsoleOutput.write(text, to: STDERR_FILENO)
      exit(withError: ExitCode(2))
    }
    exit(withError: error)
  }
}

/// A parsed command handed to the task that runs it: it is used there only.
private struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// The process's entry point (see `MigrantChat.start`).
@main
enum MigrantChatMain {
  static func main() {
    MigrantChat.start()
  }
}

extension MigrantChat {
  /// `--option -5` as `--option=-5`: a word that is a negative number (`-1`, `-0.5`,
  /// `-1e3`) after a long option without `=` is that option's value. Nothing after `--`
  /// is touched.
  static func negativeValuesJoined(_ arguments: [String]) -> [String] {
    var result: [String] = []
    var index = 0
    while index < arguments.count {
      let word = arguments[index]
      if word == "--" { return result + arguments[index...] }
      if word.hasPrefix("--"), word.count > 2, !word.contains("="), index + 1 < arguments.count,
        isNegativeNumber(arguments[index + 1])
      {
        result.append(word + "=" + arguments[index + 1])
        index += 2
        continue
      }
      result.append(word)
      index += 1
    }
    return result
  }

  static func isNegativeNumber(_ word: String) -> Bool {
    guard word.hasPrefix("-"), word.count > 1 else { return false }
    let rest = word.dropFirst()
    guard let first = rest.first, first.isASCII, first.isNumber || first == "." else {
      return false
    }
    return Double(word) != nil || rest.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
  }

  /// `migrant-chat --help` (with `--lang` or not): the commands, then the chat's
  /// options, since the chat is what runs when no command is named. Nil for other lines.
  static func rootHelp(_ arguments: [String]) -> String? {
    let rest = HelpLanguage.withoutLanguage(arguments)
    guard rest == ["--help"] || rest == ["-h"] else { return nil }
    let l10n = HelpLanguage.l10n
    let columns = TerminalInfo.width(environment: ProcessEnvironment.current())
    let commands = helpMessage(columns: columns)
    let chat = ChatCommand.helpMessage(columns: columns)
    guard let options = chat.range(of: "\nOPTIONS:\n") else { return nil }
    // The chat's options without the last two lines every command has (--version, --help).
    let chatOptions = chat[options.upperBound...].split(
      separator: "\n", omittingEmptySubsequences: false
    )
    .prefix { !$0.hasPrefix("  --version") && !$0.hasPrefix("  -h, --help") }
    .joined(separator: "\n")
    let text =
      commands.trimmingCharacters(in: .newlines) + "\n\n" + l10n(.helpTitleChatOptions) + "\n"
      + chatOptions.trimmingCharacters(in: .newlines) + "\n"
    return HelpText(l10n).translate(text) + "\n"
  }
}

/// The command tree the completion scripts are written from: the root's
/// subcommands, and the chat's options beside them, since the chat runs when
/// no subcommand is named. Written from the root itself, they offered only the
/// subcommands after `migrant-chat` (`migrant-chat --lang <TAB>` listed them
/// rather than the languages).
struct CompletionRoot: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: MigrantChat.configuration.commandName,
    version: MigrantChat.configuration.version,
    subcommands: MigrantChat.configuration.subcommands
  )

  @OptionGroup var chat: ChatOptions

  /// The script `--generate-completion-script [SHELL]` asks for, wherever it is
  /// given, as swift-argument-parser reads the request; nil when none is asked
  /// for or it cannot be made (an unknown shell), which the root's parse reports.
  static func requestedScript(_ arguments: [String]) -> String? {
    let option = "--generate-completion-script"
    guard arguments.contains(where: { $0 == option || $0.hasPrefix(option + "=") }) else {
      return nil
    }
    do {
      _ = try parseAsRoot(arguments)
      return nil
    } catch {
      guard exitCode(for: error) == .success else { return nil }
      let script = fullMessage(for: error)
      return script.hasPrefix("#compdef") ? ZshCompletionRoot.completionScript(for: .zsh) : script
    }
  }
}

/// zsh's script: `replay` takes paths and has a subcommand (`merge`), which
/// swift-argument-parser writes as two rest arguments, and zsh then refuses to
/// complete anything after `replay` ("doubled rest argument definition"). Here
/// `replay` has no subcommand: its paths complete as files, and so do merge's.
struct ZshCompletionRoot: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: CompletionRoot.configuration.commandName,
    version: CompletionRoot.configuration.version,
    subcommands: CompletionRoot.configuration.subcommands.map {
      $0 == ReplayCommand.self ? ReplayWithoutMerge.self : $0
    }
  )

  @OptionGroup var chat: ChatOptions

  struct ReplayWithoutMerge: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: ReplayCommand.configuration.commandName,
      abstract: ReplayCommand.configuration.abstract)

    @OptionGroup var replay: ReplayCommand
  }
}
