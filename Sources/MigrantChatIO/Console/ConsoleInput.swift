import Dispatch
import Foundation
import MigrantChatCore

/// Lines from readline or a pipe, read off the chat's threads, with the prompt and
/// readline's Tab completions.
final class ConsoleInput: Sendable {
  let reader: any LineReader
  private let interactive: Bool
  private let color: Bool
  private let queue = DispatchQueue(label: "migrant-chat.input")

  init(reader: any LineReader, interactive: Bool, color: Bool) {
    self.reader = reader
    self.interactive = interactive
    self.color = color
  }

  /// One line. On a terminal Ctrl-C interrupts the read; in a pipe it terminates.
  func read(prompt: String) async -> LineInput {
    let reader = self.reader
    if let line = reader.bufferedLine() { return line }
    if interactive {
      SignalHub.shared.onInterrupt { reader.interrupt() }
    } else {
      SignalHub.shared.onInterrupt(nil)
    }
    return await withCheckedContinuation { continuation in
      queue.async { continuation.resume(returning: reader.readLine(prompt: prompt)) }
    }
  }

  func prompt(_ language: Language) -> String {
    guard interactive else { return "" }
    let text = Localizer(language)(.prompt)
    // \u{1} and \u{2} tell readline the escape codes take no columns.
    return color ? "\u{1}\u{1B}[1m\u{2}\(text)\u{1}\u{1B}[0m\u{2}" : text
  }

  /// Tab completes commands, button titles, `/lang` codes, and `/contact`, `/fav`,
  /// `/unfav` with the ids of the offices shown last and of the favourites.
  /// Nothing is asked of the session or the directory when the reader does not
  /// complete (input from a pipe): that was a read of the favourites every turn.
  func updateCompletions(session: ChatSession, directory: ContactDirectory?) async {
    guard reader.completes else { return }
    let titles = await session.choices.map {
      TerminalSanitizer.clean($0.title, keepNewlines: false)
    }
    var ids = await session.shownContactIDs
    if let favourites = try? await directory?.favourites() {
      ids += favourites.sorted().map(String.init)
    }
    var seen = Set<String>()
    let unique = ids.filter { seen.insert($0).inserted }
    let withIDs = ["/contact", "/fav", "/unfav"].flatMap { command in
      unique.map { "\(command) \($0)" }
    }
    let languages = Language.allCases.map { "/lang \($0.rawValue)" }
    reader.setCompletions(ClientCommand.words + titles + languages + withIDs)
  }
}
