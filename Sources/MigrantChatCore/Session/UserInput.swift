import Foundation

/// What a line the user typed means.
public enum UserInput: Sendable, Hashable {
  case empty
  case command(ClientCommand)
  /// A button picked by number or by its title (as `TitleMatch` compares them).
  case choice(Button)
  /// A button's title typed with the other keyboard layout on
  /// (`vtlbwbycrfz cnhf[jdrf` for "Медицинская страховка"), and the text as read.
  case layoutChoice(Button, readAs: String)
  /// A line close to one button's title but not equal: the user is asked.
  case nearChoice(Button, number: Int)
  /// A number with no such button: nothing is sent.
  case noSuchChoice(number: Int, count: Int)
  /// Text for the bot, sent as it is (including `/intent` payloads).
  case text(String)
}

/// The client's own commands; any other `/text` goes to the bot.
public enum ClientCommand: Sendable, Hashable {
  case help
  case restart
  case newConversation
  case language(String?)
  case quit
  /// Search the directory; nil lists it.
  case contacts(String?)
  /// Show one contact; the argument is checked by the session.
  case contact(String?)
  case favourite(String?)
  case unfavourite(String?)
  case sync
  /// Write the conversation so far as a transcript.
  case save(String?)
  /// `/history [N]`: the conversations kept, or one of them.
  case history(String?)
  /// `/label [TEXT]`: the kept conversation's label, set or said.
  case label(String?)
  case todo(TodoCommand)
  /// Report the last guide shown as wrong; without text, the next line is asked for.
  case report(String?)
  /// `/inspect on|off` (nil: say whether it is on).
  case inspect(String?)
  case slots
  /// `/tracker [N]`: the last N events.
  case tracker(String?)
  /// `/parse TEXT`: what NLU makes of a text, not sent to the conversation.
  case parse(String?)
  /// `/near [PLACE]`: offices nearest to a place (nil: the remembered one).
  case near(String?)
  /// `/map [PLACE]`: the offices on a map.
  case map(String?)
  /// `/place [PLACE|off]`: remember where the user lives, or say it.
  case place(String?)

  /// Command words, for help and tab completion.
  public static let words = [
    "/help", "/restart", "/new", "/lang", "/contacts", "/contact", "/fav", "/unfav", "/sync",
    "/save", "/history", "/label", "/todo", "/report", "/inspect", "/slots", "/tracker", "/parse",
    "/near",
    "/map", "/place",
    "/quit",
    "/exit",
  ]
}

extension ClientCommand {
  /// Answered on this machine alone (`/map`, `/todo`, `/contacts`): the chat does not
  /// say it is waiting for the bot before its answer.
  public var isLocal: Bool {
    switch self {
    case .restart, .newConversation, .language, .sync, .slots, .tracker, .parse: false
    default: true
    }
  }
}

extension UserInput {
  /// Whether `line` is one of the client's own commands that asks no server.
  public static func isLocalCommand(_ line: String) -> Bool {
    if case .command(let command) = UserInput(line: line, choices: []) { return command.isLocal }
    return false
  }

  /// Interprets `line` against the choices of the latest message that had buttons.
  ///
  /// A number picks a button when there are buttons; with none at all it is
  /// text. `//text` sends `/text`, so payloads that collide with a client
  /// command can still reach the bot.
  public init(line: String, choices: [Button]) {
    let trimmed = line.trimmingWhitespace()
    if trimmed.isEmpty {
      self = .empty
      return
    }
    if trimmed.hasPrefix("//") {
      self = .text(String(trimmed.dropFirst()))
      return
    }
    if trimmed.hasPrefix("/"), let command = Self.command(trimmed) {
      self = .command(command)
      return
    }
    // A command typed with the Cyrillic layout on: "/сщтефсеі брно" is "/contacts брно"
    // (and "." is where the Russian layout puts "/"). The argument stays as typed.
    if let command = Self.layoutCommand(trimmed) {
      self = .command(command)
      return
    }
    if let exact = Self.exactChoice(trimmed, choices: choices) {
      self = exact
      return
    }
    // A payload no button shown has (`/health`, `/inform{"city":"Brno"}`) is meant for
    // the bot as it is: never read as a title, never asked about.
    guard !choices.isEmpty, !trimmed.hasPrefix("/") else {
      self = .text(trimmed)
      return
    }
    let key = TitleMatch.key(trimmed)
    let keys = choices.map { TitleMatch.key($0.title) }
    // The start of one title, two words or more: "сохранить эти шаги" for "Сохранить эти
    // шаги в мой список дел". One word ("insurance") may be meant for the bot; it is sent.
    let words = key.split(separator: " ")
    let starting = keys.indices.filter { keys[$0].hasPrefix(key + " ") }
    if starting.count == 1 {
      // One word that starts one title ("так" for "Так, я в Чехії") may still be meant
      // for the bot: asked about, as a title typed with a typo is.
      self =
        words.count >= 2
        ? .choice(choices[starting[0]]) : .nearChoice(choices[starting[0]], number: starting[0] + 1)
      return
    }
    // Typed with the other keyboard layout on (all of it, or some words): a title
    // read so, or words that name one title and no other, is chosen, saying so.
    // Unlike a word typed right (which may be meant for the bot), text in the other
    // layout is never meant as it is: "irjkf" (школа) names "Запись ребёнка в школу".
    let readings = Self.layoutReadings(trimmed, titles: keys)
    for reading in readings {
      let readKey = TitleMatch.key(reading)
      let naming = keys.indices.filter { TitleMatch.names(readKey, title: keys[$0]) }
      let starting = keys.indices.filter {
        readKey.count >= 2 && keys[$0].hasPrefix(readKey + " ")
      }
      if let index = keys.firstIndex(of: readKey) ?? (starting.count == 1 ? starting.first : nil)
        ?? (naming.count == 1 ? naming.first : nil)
      {
        self = .layoutChoice(choices[index], readAs: reading)
        return
      }
    }
    for typed in [key] + readings.map(TitleMatch.key) {
      let limit = TitleMatch.allowedEdits(typed)
      let close = keys.indices.compactMap { index -> (Int, Int)? in
        TitleMatch.distance(typed, keys[index], limit: limit).map { (index, $0) }
      }
      // Close to exactly one title (the nearest, when several): ask, rather than guess.
      if let best = close.min(by: { $0.1 < $1.1 }),
        close.filter({ $0.1 == best.1 }).count == 1
      {
        self = .nearChoice(choices[best.0], number: best.0 + 1)
        return
      }
    }
    self = .text(trimmed)
  }

  /// A transcript's `user:` line, taken literally: a client command acts; a button's
  /// number (while the latest answer offered buttons), its title as the chat compares
  /// titles, or its payload is that button; anything else is text sent exactly as
  /// written. No title is guessed at: no close title asked about, no start of one, no
  /// reading in the other keyboard layout.
  public init(literal line: String, choices: [Button]) {
    let trimmed = line.trimmingWhitespace()
    if trimmed.isEmpty {
      self = .empty
    } else if trimmed.hasPrefix("//") {
      self = .text(String(trimmed.dropFirst()))
    } else if trimmed.hasPrefix("/"), let command = Self.command(trimmed) {
      self = .command(command)
    } else {
      self = Self.exactChoice(trimmed, choices: choices) ?? .text(trimmed)
    }
  }

  /// A button named exactly: its number, its payload, or its title (as `TitleMatch`
  /// compares titles). A number with no such button is said, never sent.
  static func exactChoice(_ trimmed: String, choices: [Button]) -> UserInput? {
    guard !choices.isEmpty else { return nil }
    if let number = TitleMatch.number(trimmed) {
      return choices.indices.contains(number - 1)
        ? .choice(choices[number - 1]) : .noSuchChoice(number: number, count: choices.count)
    }
    if let button = choices.first(where: { $0.payload == trimmed }) { return .choice(button) }
    let key = TitleMatch.key(trimmed)
    guard !key.isEmpty, let button = choices.first(where: { TitleMatch.key($0.title) == key })
    else { return nil }
    return .choice(button)
  }

  /// `line` as the other keyboard layouts read it, chunk by chunk where a chunk
  /// then reads as words of the titles (`KeyboardLayout.readings`).
  static func layoutReadings(_ line: String, titles: [String]) -> [String] {
    let titleWords = Set(titles.flatMap { $0.split(separator: " ") })
    // Ukrainian titles: the Ukrainian layout first where both read alike (і, not ы).
    let ukrainian = titles.contains { $0.contains { "іїєґ".contains($0) } }
    return KeyboardLayout.readings(of: line, preferring: ukrainian ? .ukrainian : .russian) {
      chunk in
      let words = TitleMatch.key(chunk).split(separator: " ")
      guard !words.isEmpty else { return nil }
      var worst = 0
      for word in words where !titleWords.contains(word) {
        guard titleWords.contains(where: { $0.hasPrefix(word) }) else { return nil }
        worst = 1
      }
      return worst
    }
  }

  /// `line` as a command when its first word, typed with the Cyrillic layout on,
  /// is one (`/сщтефсеі`, `.сщтефсеі`).
  private static func layoutCommand(_ line: String) -> ClientCommand? {
    guard line.hasPrefix("/") || line.hasPrefix("."), line.count > 1 else { return nil }
    let parts = line.dropFirst().split(
      separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
    guard let word = parts.first, KeyboardLayout.isCyrillic(word),
      let latin = KeyboardLayout.russian.switched(word),
      ClientCommand.words.contains("/" + latin.lowercased())
    else { return nil }
    return command("/" + latin + (parts.count > 1 ? " " + parts[1] : ""))
  }

  private static func command(_ line: String) -> ClientCommand? {
    let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
    let argument = parts.count > 1 ? parts[1].trimmingWhitespace() : nil
    switch parts.first?.lowercased() {
    case "/help": return .help
    case "/restart": return argument == nil ? .restart : nil
    case "/new": return argument == nil ? .newConversation : nil
    case "/lang": return .language(argument)
    case "/quit", "/exit": return .quit
    case "/contacts": return .contacts(argument)
    case "/contact": return .contact(argument)
    case "/fav": return .favourite(argument)
    case "/unfav": return .unfavourite(argument)
    case "/sync": return argument == nil ? .sync : nil
    case "/save": return .save(argument)
    case "/history": return .history(argument)
    case "/label": return .label(argument)
    case "/todo": return .todo(TodoCommand(argument: argument))
    case "/report": return .report(argument)
    case "/inspect": return .inspect(argument)
    // Client-only: never sent to the bot, whatever follows it.
    case "/slots": return .slots
    case "/tracker": return .tracker(argument)
    case "/parse": return .parse(argument)
    case "/near": return .near(argument)
    case "/map": return .map(argument)
    case "/place": return .place(argument)
    default: return nil
    }
  }
}
