/// How a run of text is shown on a colour terminal.
public enum TextStyle: Sendable, Hashable {
  case plain
  case bold
  case link
  case label
  case choiceNumber
  case error
  case notice
  /// A map's rivers.
  case water
  /// A map's numbered office markers.
  case marker
}

/// Text in runs of one style: what the wrapper lays out and the renderer colours.
public struct StyledText: Sendable, Hashable {
  public struct Run: Sendable, Hashable {
    public var text: String
    public var style: TextStyle
  }

  public var runs: [Run]

  public init(_ runs: [Run] = []) {
    self.runs = runs
  }

  public init(_ text: String, style: TextStyle = .plain) {
    self.runs = text.isEmpty ? [] : [Run(text: text, style: style)]
  }

  public var plainText: String { runs.map(\.text).joined() }

  public mutating func append(_ text: String, style: TextStyle = .plain) {
    guard !text.isEmpty else { return }
    // Indexing, not `if let last`: a copy of the last run would make the
    // string append below copy the whole run every time.
    if !runs.isEmpty && runs[runs.count - 1].style == style {
      runs[runs.count - 1].text += text
    } else {
      runs.append(Run(text: text, style: style))
    }
  }

  public static func + (lhs: StyledText, rhs: StyledText) -> StyledText {
    var result = lhs
    for run in rhs.runs { result.append(run.text, style: run.style) }
    return result
  }
}
