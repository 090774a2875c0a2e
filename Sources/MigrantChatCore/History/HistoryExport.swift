import Foundation

/// A kept conversation as the user shares it or reads it again:
/// `history show` (as it was seen, at the terminal's width), `history export
/// --text`, `--markdown` and `--json`.
public enum HistoryExport {
  public enum Format: String, Sendable, CaseIterable {
    case text, markdown, json
  }

  /// `2026-11-03 14:05`, the machine's time zone: the same in every language.
  public static func time(_ date: Date, timeZone: TimeZone = .current) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = timeZone
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return formatter.string(from: date)
  }

  /// One line of `history`: number, time, server (or "offline"), language, topic. In
  /// the accessible mode the topic first, then the rest as a sentence, wrapped at
  /// `width` (never a column cut): "client 42: housing. Conversation 3, 2026-11-03
  /// 14:05, offline".
  public static func line(
    _ conversation: HistoryConversation, l10n: Localizer, width: Int, accessible: Bool = false,
    timeZone: TimeZone = .current
  ) -> String {
    // The label first, so two clients' conversations are told apart.
    var topic = clean(conversation.labelledTopic)
    if accessible {
      var renderer = Renderer(width: width, color: false, language: l10n.language)
      renderer.accessible = true
      let sentence =
        (topic.isEmpty ? "" : topic + ". ") + header(conversation, l10n: l10n, timeZone: timeZone)
      return String(renderer.lines(StyledText(sentence)).dropLast())
    }
    let server = conversation.shownServer ?? l10n(.historyOffline)
    let head =
      String(conversation.id).leftPadded(to: 4) + "  "
      + time(conversation.updatedAt, timeZone: timeZone)
      + "  " + server + "  " + conversation.language.rawValue + "  "
    let room = max(width - head.count, 20)
    if topic.count > room { topic = topic.prefix(room - 1) + "…" }
    return head + topic
  }

  /// The conversation as the chat showed it, at `width` (every line wrapped there);
  /// `accessible`: as the accessible mode shows it (`Renderer.accessible`).
  public static func text(
    _ conversation: HistoryConversation, entries: [HistoryEntry], l10n: Localizer, width: Int,
    color: Bool = false, accessible: Bool = false, timeZone: TimeZone = .current
  ) -> String {
    var base = Renderer(width: width, color: color, language: l10n.language)
    base.accessible = accessible
    var output = base.lines(StyledText(header(conversation, l10n: l10n, timeZone: timeZone)))
    if let label = conversation.label {
      output += base.lines(StyledText(l10n(.historyLabelLine, ["label": clean(label)])))
    }
    output += "\n"
    for entry in entries {
      var renderer = Renderer(width: width, color: color, language: entry.language)
      renderer.accessible = accessible
      renderer.endsAnswers = false  // read back: nothing to choose
      switch entry.kind {
      case .user:
        output += renderer.renderEcho(entry.text, chose: entry.chose, sent: entry.sent)
      case .failure:
        output += renderer.lines(StyledText(clean(entry.text)))
      case .shown:
        // Shown at 80 columns: re-wrapped here, so it fits the width asked for.
        for line in clean(entry.text, keepNewlines: true).split(
          separator: "\n", omittingEmptySubsequences: false
        ).dropLast() {
          let indent = String(line.prefix { $0 == " " })
          output += renderer.lines(
            StyledText(String(line.dropFirst(indent.count))), indent: indent,
            hangingIndent: indent + "  ")
        }
      case .bot, .late, .language:
        for event in entry.events { output += renderer.render(event).stdout }
      }
    }
    return output
  }

  /// What `--resume` shows of a conversation: the bot's last answer and the lines
  /// leading to it, at most `count` entries. The client's own commands (`/todo add`,
  /// `/quit`, `/contacts`), which asked the bot nothing, are left out, and so is
  /// everything after that answer: the advice must not have scrolled away.
  public static func resumed(_ entries: [HistoryEntry], count: Int) -> [HistoryEntry] {
    let asked = entries.filter { entry in
      !(entry.kind == .user && UserInput.isLocalCommand(entry.text)) && entry.kind != .shown
    }
    guard let last = asked.lastIndex(where: { !$0.messages.isEmpty }) else {
      return Array(asked.suffix(count))
    }
    var shown = Array(asked[...last].suffix(count))
    // Begin with what was typed, not in the middle of an answer.
    if let first = shown.firstIndex(where: { $0.kind == .user }), first > 0,
      shown.count == count
    {
      shown.removeFirst(first)
    }
    return shown
  }

  /// "Conversation 3, 2026-11-26 02:32, offline".
  static func header(
    _ conversation: HistoryConversation, l10n: Localizer, timeZone: TimeZone
  ) -> String {
    l10n(
      .historyHeader,
      [
        "number": String(conversation.id),
        "time": time(conversation.startedAt, timeZone: timeZone),
        "server": conversation.shownServer ?? l10n(.historyOffline),
      ])
  }

  public static func markdown(
    _ conversation: HistoryConversation, entries: [HistoryEntry], l10n: Localizer,
    timeZone: TimeZone = .current
  ) -> String {
    var output = "# " + header(conversation, l10n: l10n, timeZone: timeZone) + "\n"
    if let label = conversation.label {
      output += "\n" + markdownText(l10n(.historyLabelLine, ["label": label])) + "\n"
    }
    for entry in entries {
      switch entry.kind {
      case .user:
        output +=
          "\n**" + l10n(.historyYou) + ":** " + markdownText(entry.text)
          + ((entry.chose ?? entry.sent).map { " (" + markdownText($0) + ")" } ?? "") + "\n"
      case .failure:
        output += "\n> " + markdownText(entry.text) + "\n"
      case .shown:
        // The client's own output as it was shown, verbatim: nothing in it is markup.
        let text = clean(entry.text, keepNewlines: true).replacingOccurrences(
          of: "```", with: "'''")
        output += "\n```text\n" + text + (text.hasSuffix("\n") ? "" : "\n") + "```\n"
      case .language:
        output += "\n*" + l10n(.historyLanguage, ["language": entry.text]) + "*\n"
      case .bot, .late:
        for message in entry.messages {
          output += "\n"
          // Made-up sample guides and offices say so here as in the chat: a reader of a
          // shared export must not take them for real advice.
          if message.isSample {
            output += "*" + markdownText(l10n(.sampleGuide)) + "*  \n"  // a line of its own
          }
          // The bot's own Markdown stays Markdown (bold, http(s) links), its line breaks
          // stay breaks, and the message says who speaks, as the user's lines do.
          let text = message.text.map { clean($0, keepNewlines: true) } ?? ""
          output += "**" + markdownText(l10n(.a11yBot)) + "**"
          output += text.isEmpty ? "\n" : " " + markdownLines(text) + "\n"
          // A blank line before a list: not every Markdown reader starts one mid-paragraph.
          if !text.isEmpty && (!message.buttons.isEmpty || !message.contactIDs.isEmpty) {
            output += "\n"
          }
          for button in message.buttons { output += "- " + markdownText(button.title) + "\n" }
          for id in message.contactIDs {
            guard let contact = entry.contacts[id] else {
              output += "- #" + markdownText(id) + "\n"
              continue
            }
            output += markdownCard(contact, language: entry.language, l10n: l10n)
          }
        }
      }
    }
    return output
  }

  /// The conversation as a transcript's turns (`history export N --transcript FILE`):
  /// what the bot answered before the first line is the start message's answer; each
  /// line typed is a step, a button chosen by its number a `button:` step (replayed by
  /// title), with the answers that followed, late ones too. A failed turn expects no
  /// answer. Language changes are the `/lang` lines themselves.
  public static func turns(_ entries: [HistoryEntry]) -> (
    start: [BotMessage]?, turns: [RecordedTurn]
  ) {
    var start: [BotMessage]?
    var turns: [RecordedTurn] = []
    for entry in entries {
      switch entry.kind {
      case .user:
        turns.append(
          RecordedTurn(line: entry.sent ?? entry.text, messages: [], button: entry.chose))
      case .bot, .late:
        if turns.isEmpty {
          start = (start ?? []) + entry.messages
        } else {
          turns[turns.count - 1].messages += entry.messages
        }
      case .language, .failure, .shown:
        continue
      }
    }
    return (start, turns)
  }

  /// A conversation as `history list --json` and `search --json` give it, for a
  /// caseworker's scripts: its number, times, server, language, topic and line count.
  public static func summaryJSON(_ conversation: HistoryConversation) -> [String: JSONValue] {
    [
      "number": .number(Double(conversation.id)),
      "started_at": .string(ISO8601DateFormatter().string(from: conversation.startedAt)),
      "updated_at": .string(ISO8601DateFormatter().string(from: conversation.updatedAt)),
      // Never the sender id: the one handle on a Rasa REST conversation, not to be shared.
      "server": conversation.shownServer.map(JSONValue.string) ?? .null,
      "language": .string(conversation.language.rawValue),
      "topic": .string(conversation.shownTopic),
      "lines": .number(Double(conversation.entries)),
      "label": conversation.label.map(JSONValue.string) ?? .null,
    ]
  }

  public static func json(_ conversation: HistoryConversation, entries: [HistoryEntry]) -> JSONValue
  {
    var fields = summaryJSON(conversation)
    fields["lines"] = nil
    fields["entries"] = .array(
      entries.map { entry in
        var fields: [String: JSONValue] = [
          "kind": .string(entry.kind.rawValue),
          "at": .string(ISO8601DateFormatter().string(from: entry.at)),
          "language": .string(entry.language.rawValue),
        ]
        if !entry.text.isEmpty { fields["text"] = .string(entry.text) }
        if let sent = entry.sent { fields["sent"] = .string(sent) }
        if !entry.messages.isEmpty { fields["messages"] = HistoryEntry.rasaJSON(entry.messages) }
        if !entry.contacts.isEmpty {
          // The cards as `contacts --json` writes them, in the language they were shown in.
          fields["contacts"] = .object(
            entry.contacts.mapValues { contact in
              ContactExport.object(contact, language: entry.language, favourite: nil)
            })
        }
        return .object(fields)
      })
    return .object(fields)
  }

  static func clean(_ text: String) -> String { clean(text, keepNewlines: false) }

  static func clean(_ text: String, keepNewlines: Bool) -> String {
    TerminalSanitizer.clean(text, keepNewlines: keepNewlines)
  }

  /// A bot's text as Markdown: its own bold and http(s) links kept, the rest escaped
  /// (`markdownText`), each line break a hard break (two spaces), a blank line a new
  /// paragraph.
  static func markdownLines(_ text: String) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
      InlineMarkup.markdown(String($0), escape: markdownText)
    }
    var output = ""
    for (index, line) in lines.enumerated() {
      output += line
      guard index + 1 < lines.count else { break }
      let next = lines[index + 1]
      output += line.isEmpty || next.isEmpty ? "\n" : "  \n"
    }
    return output
  }

  /// A card as a list item with one labelled line per field, in the language the
  /// conversation was in (as the chat showed it); an http(s) address is a link.
  static func markdownCard(_ contact: Contact, language: Language, l10n: Localizer) -> String {
    var output =
      "- **" + markdownText(contact.name(in: language)) + "**"
      + (contact.isSample ? " " + markdownText(l10n(.sampleCard)) : "") + "\n"
    func link(_ value: String) -> String {
      let lowered = value.lowercased()
      return lowered.hasPrefix("https://") || lowered.hasPrefix("http://")
        ? InlineMarkup.markdown("[\(value)](\(value))", escape: markdownText) : markdownText(value)
    }
    if let address = contact.address(in: language), !address.isEmpty {
      output += "  - " + markdownText(address) + "\n"
    } else if let city = contact.city, !city.isEmpty {
      output += "  - " + markdownText(city) + "\n"
    }
    let hours = contact.openingHours(in: language).flatMap { $0.isEmpty ? nil : $0 }
    let fields: [(MessageKey, String?, Bool)] = [
      (.labelPhone, contact.phone, false), (.labelEmail, contact.email, false),
      (.labelWeb, contact.web, true), (.labelFacebook, contact.facebook, true),
      (.labelHours, hours ?? l10n(.cardHoursUnknown), false), (.labelMap, contact.mapURL, true),
    ]
    for (label, value, isLink) in fields {
      guard let value, !value.isEmpty else { continue }
      output +=
        "  - " + markdownText(l10n(label)) + ": " + (isLink ? link(value) : markdownText(value))
        + "\n"
    }
    return output
  }

  /// Text on one line with the signs escaped that make Markdown of it (links,
  /// emphasis, HTML, code, a heading at its start), so a bot's or user's words
  /// cannot; phones, addresses and e-mails stay readable as they are.
  static func markdownText(_ text: String) -> String {
    var output = ""
    for character in clean(text) {
      if "\\`*_[]<>|".contains(character) { output.append("\\") }
      output.append(character)
    }
    if output.hasPrefix("#") { output = "\\" + output }
    return output
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
