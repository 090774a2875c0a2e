/// `--help` in the user's language.
///
/// The option and command descriptions come translated from the tables; what
/// ArgumentParser adds around them (the section titles, the `--version` and
/// `--help` lines, the pointer to `help <subcommand>`) is English and is put
/// into the user's language here, on the finished text. The replacements are
/// whole titles at the start of a line and whole sentences, so an option's own
/// text is never touched; none is longer than the English by more than the
/// padding it sits in.
public struct HelpText: Sendable {
  public let l10n: Localizer

  public init(_ l10n: Localizer) {
    self.l10n = l10n
  }

  public func translate(_ help: String) -> String {
    guard l10n.language != .en else { return help }
    let titles: [(String, MessageKey)] = [
      ("OVERVIEW:", .helpTitleOverview), ("USAGE:", .helpTitleUsage),
      ("ARGUMENTS:", .helpTitleArguments), ("OPTIONS:", .helpTitleOptions),
      ("SUBCOMMANDS:", .helpTitleSubcommands),
    ]
    let sentences: [(String, MessageKey)] = [
      ("Show the version.", .helpShowVersion), ("Show help information.", .helpShowHelp),
    ]
    var lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for index in lines.indices {
      var line = lines[index]
      for (title, key) in titles where line.hasPrefix(title) {
        line = l10n(key) + line.dropFirst(title.count)
      }
      for (sentence, key) in sentences where line.hasSuffix(" " + sentence) {
        line = line.dropLast(sentence.count) + l10n(key)
      }
      if line.hasPrefix("  See '"), line.hasSuffix("' for detailed help."),
        let open = line.firstIndex(of: "'"), let close = line.lastIndex(of: "'"), open < close
      {
        let command = line[line.index(after: open)..<close]
        line = "  " + l10n(.helpSeeSubcommand, ["command": String(command)])
      }
      // ArgumentParser's placeholders and the default command's mark.
      for (word, key) in [
        ("<subcommand>", MessageKey.helpWordCommand), ("<options>", .helpWordOptions),
        (" (default) ", .helpWordDefault),
      ] where line.contains(word) {
        let translated = l10n(key)
        // Kept in its column: the description after it starts where it started.
        var replaced = line.replacingOccurrences(of: word, with: translated)
        if word == " (default) ", translated.count < word.count {
          replaced = line.replacingOccurrences(
            of: word,
            with: translated + String(repeating: " ", count: word.count - translated.count))
        }
        line = replaced
      }
      lines[index] = line
    }
    return lines.joined(separator: "\n")
  }
}
