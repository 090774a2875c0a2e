import Foundation

/// A command line that swift-argument-parser refused, said in the user's language.
///
/// ArgumentParser reports in English and exits with 64; this client reports
/// every usage error the same way: a translated sentence, the usage line,
/// where to read on, exit status 2. The known shapes of ArgumentParser's
/// messages are read back into their parts; anything else is quoted inside
/// a translated sentence. Values come from the command line, so they are
/// sanitized like any outside text.
public struct UsageErrorText: Sendable {
  public var l10n: Localizer

  public init(_ l10n: Localizer) {
    self.l10n = l10n
  }

  /// - Parameters:
  ///   - message: ArgumentParser's message (`message(for:)`).
  ///   - fullMessage: the same with its usage lines (`fullMessage(for:)`).
  public func render(message: String, fullMessage: String) -> String {
    var output = "migrant-chat: " + sentence(for: message) + "\n"
    let lines = fullMessage.split(separator: "\n", omittingEmptySubsequences: false)
    if let start = lines.firstIndex(where: { $0.hasPrefix("Usage: ") }) {
      var usage = [String(lines[start].dropFirst("Usage: ".count))]
      var index = lines.index(after: start)
      while index < lines.endIndex, !lines[index].isEmpty,
        !lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("See '")
      {
        usage.append(String(lines[index]))
        index = lines.index(after: index)
      }
      output += l10n(.usageLine, ["usage": usage.joined(separator: "\n")]) + "\n"
    }
    if let see = lines.first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("See '") }),
      let command = Self.quoted(in: String(see)).first
    {
      let name = command.hasSuffix(" --help") ? String(command.dropLast(" --help".count)) : command
      output += l10n(.usageSeeHelp, ["command": name]) + "\n"
    }
    return output
  }

  /// The translated sentence for one of ArgumentParser's messages.
  public func sentence(for message: String) -> String {
    let text = TerminalSanitizer.clean(message)
    if let match = text.wholeMatch(
      of: #/Unknown option '(?<option>[^']+)'(?:\. Did you mean '(?<suggestion>[^']+)'\?)?/#)
    {
      var sentence = l10n(.usageUnknownOption, ["option": String(match.option)])
      if let suggestion = match.suggestion {
        sentence += " " + l10n(.usageDidYouMean, ["option": String(suggestion)])
      }
      return sentence
    }
    if let match = text.wholeMatch(
      of: #/The value '(?<value>.*)' is invalid for '(?<option>[^']*?)(?: <[^>]*>)?'(?<rest>.*)/#
        .dotMatchesNewlines())
    {
      let option = String(match.option)
      let value = String(match.value)
      let rest = String(match.rest)
      if rest.hasPrefix(": ") {
        // A reason from our own checks, already in the user's language: a whole sentence
        // that names the option and the value is said as it is, not wrapped in another.
        let reason = String(rest.dropFirst(2))
        if reason.hasPrefix(option + " ") {
          return reason
        }
        return l10n(
          .usageInvalidValue,
          ["option": option, "value": value, "expected": String(rest.dropFirst(2))])
      }
      let allowed = Self.allowedValues(in: rest)
      if !allowed.isEmpty {
        let values = l10n(.usageOneOf, ["values": allowed.joined(separator: ", ")])
        return l10n(.usageInvalidValue, ["option": option, "value": value, "expected": values])
      }
      return l10n(.usageInvalidValuePlain, ["option": option, "value": value])
    }
    if let match = text.wholeMatch(of: #/Missing value for '(?<option>[^' ]+)(?: <[^>]*>)?'/#) {
      return l10n(.usageMissingValue, ["option": String(match.option)])
    }
    if let match = text.wholeMatch(of: #/Missing expected argument '(?<argument>[^']+)'/#) {
      let argument = String(match.argument)
      let name = argument.hasSuffix(" ...") ? String(argument.dropLast(4)) : argument
      return l10n(.usageMissingArgument, ["argument": name])
    }
    if let match = text.wholeMatch(of: #/Unexpected argument '(?<value>.*)'/#) {
      return l10n(.usageUnexpectedArguments, ["values": "'\(match.value)'"])
    }
    if let match = text.wholeMatch(of: #/\d+ unexpected arguments: (?<values>.*)/#) {
      return l10n(.usageUnexpectedArguments, ["values": String(match.values)])
    }
    if let match = text.wholeMatch(
      of:
        #/The option '(?<option>[^']+)' does not take any value, but '(?<value>.*)' was specified\./#
    ) {
      return l10n(
        .usageTakesNoValue, ["option": String(match.option), "value": String(match.value)])
    }
    if let match = text.wholeMatch(
      of:
        #/Value to be set with flag '(?<second>[^']+)' had already been set with flag '(?<first>[^']+)'/#
    ) {
      return l10n(.usageExclusive, ["first": String(match.first), "second": String(match.second)])
    }
    return l10n(.usageOther, ["detail": text])
  }

  /// The values of ". Please provide one of 'a', 'b' or 'c'." or of its bulleted form.
  static func allowedValues(in rest: String) -> [String] {
    if rest.hasPrefix(". Please provide one of the following:") {
      return rest.split(separator: "\n").dropFirst().compactMap { line in
        let item = line.trimmingCharacters(in: .whitespaces)
        return item.hasPrefix("- ") ? String(item.dropFirst(2)) : nil
      }
    }
    guard rest.hasPrefix(". Please provide one of ") else { return [] }
    return quoted(in: rest)
  }

  /// The 'quoted' parts of a text, in order.
  static func quoted(in text: String) -> [String] {
    text.split(separator: "'", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }.map { String($0.element) }
  }
}
