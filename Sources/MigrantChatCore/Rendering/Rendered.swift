/// What one event prints: the conversation on stdout, diagnostics on stderr.
public struct Rendered: Sendable, Hashable {
  public var stdout: String
  public var stderr: String

  public init(stdout: String = "", stderr: String = "") {
    self.stdout = stdout
    self.stderr = stderr
  }

  public static func + (lhs: Rendered, rhs: Rendered) -> Rendered {
    Rendered(stdout: lhs.stdout + rhs.stdout, stderr: lhs.stderr + rhs.stderr)
  }
}

/// ANSI styling, used only when the caller decided colour is wanted.
enum ANSIStyle {
  static let reset = "\u{1B}[0m"

  static func start(_ style: TextStyle) -> String? {
    switch style {
    case .plain: nil
    case .bold: "\u{1B}[1m"
    case .link: "\u{1B}[4m"
    case .label: "\u{1B}[2m"
    case .choiceNumber: "\u{1B}[36m"
    case .error: "\u{1B}[31m"
    case .notice: "\u{1B}[33m"
    case .water: "\u{1B}[34m"
    case .marker: "\u{1B}[1;33m"
    }
  }

  static func apply(_ text: StyledText, color: Bool) -> String {
    guard color else { return text.plainText }
    var output = ""
    for run in text.runs {
      if let start = start(run.style) {
        output += start + run.text + reset
      } else {
        output += run.text
      }
    }
    return output
  }
}
