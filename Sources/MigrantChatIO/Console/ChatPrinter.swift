import Foundation
import MigrantChatCore
import Synchronization

/// What the chat prints: events as text or JSON lines, the echo of piped input, the
/// console's own lines, and directory news held until the next output.
final class ChatPrinter: Sendable {
  private let format: ChatConsole.OutputFormat
  private let color: Bool
  private let hasDataAPI: Bool
  private let directorySynced: Bool
  private let accessible: Bool
  /// Columns to wrap at: the setting at start, the terminal's own after a resize.
  private let width: Mutex<Int>
  /// Directory news (start-up notices, the background sync's failure), shown
  /// with the next output rather than over the line being typed.
  private let pending: Mutex<[ChatEvent]>
  /// The remembered place: cards say how far offices are from it.
  private let home: Mutex<HomePlace?>

  init(settings: ChatConsole.Settings, news: [ChatEvent]) {
    format = settings.format
    color = settings.color
    hasDataAPI = settings.hasDataAPI
    directorySynced = settings.directorySynced
    accessible = settings.accessible
    width = Mutex(settings.width)
    pending = Mutex(news)
    home = Mutex(settings.home)
  }

  var currentWidth: Int { width.withLock { $0 } }

  func resized(to columns: Int) { width.withLock { $0 = columns } }

  /// News to show with the next output (from a background task).
  func post(_ events: [ChatEvent]) { pending.withLock { $0.append(contentsOf: events) } }

  /// Prints events and any news; returns the language in force after them.
  /// `offering`: the offline assistant is about to be offered, whose question says
  /// why the server cannot be reached, so that failure is not shown on its own too.
  func show(_ events: [ChatEvent], language: Language, offering: Bool = false) -> Language {
    let events = offering ? events.filter { !$0.isUnreachable } : events
    var language = language
    let news = pending.withLock { queued in
      defer { queued.removeAll() }
      return queued
    }
    for event in events + news {
      if case .languageChanged(let new) = event {
        language = new
        ConsoleOutput.language.withLock { $0 = new }
      }
      if case .placeSet(let place) = event { home.withLock { $0 = place } }
      switch format {
      case .text:
        let rendered = renderer(language).render(event)
        ConsoleOutput.write(rendered.stdout)
        ConsoleOutput.write(rendered.stderr, to: STDERR_FILENO)
      case .jsonLines:
        ConsoleOutput.write(JSONLinesRenderer(language: language).render(event))
      }
    }
    return language
  }

  /// A piped line echoed as `> line`, so stdout reads as a log.
  func echo(_ line: String, language: Language) {
    switch format {
    case .text: ConsoleOutput.write(renderer(language).renderEcho(line))
    case .jsonLines: ConsoleOutput.write(JSONLinesRenderer(language: language).renderUser(line))
    }
  }

  /// A line of the console's own, wrapped at the current width (words whole).
  func writeWrapped(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
    ConsoleOutput.write(
      TextWrapper(width: currentWidth).wrap(StyledText(text)).map { $0.plainText + "\n" }.joined(),
      to: descriptor)
  }

  /// A reminder (due tasks): always text on stderr, never in `--json` or a pipe's stdout.
  func remind(_ events: [ChatEvent], language: Language) {
    var renderer = Renderer(
      width: currentWidth, color: color && format == .text, language: language)
    renderer.accessible = accessible
    for event in events { ConsoleOutput.write(renderer.render(event).stderr, to: STDERR_FILENO) }
  }

  private func renderer(_ language: Language) -> Renderer {
    var renderer = Renderer(
      width: currentWidth, color: color, language: language, canSync: hasDataAPI,
      directorySynced: directorySynced)
    renderer.home = home.withLock { $0 }
    renderer.accessible = accessible
    renderer.height = TerminalInfo.height()
    return renderer
  }
}
