/// How many terminal columns text takes, by grapheme cluster.
///
/// Wide East Asian characters and emoji take two columns, combining marks and
/// format characters none; everything else one. This follows what terminals
/// based on wcwidth do, closely enough to wrap text without overflowing.
public enum DisplayWidth {
  public static func of(_ text: some StringProtocol) -> Int {
    text.reduce(0) { $0 + of($1) }
  }

  public static func of(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if scalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji {
      return 2
    }
    if first.properties.isEmojiPresentation || (0x1F1E6...0x1F1FF).contains(first.value) {
      return 2
    }
    switch first.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control:
      return 0
    default:
      return isWide(first.value) ? 2 : 1
    }
  }

  /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth.txt, condensed).
  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
    0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
    0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
    0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF,
    0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]

  private static func isWide(_ value: UInt32) -> Bool {
    guard value >= 0x1100 else { return false }
    return wideRanges.contains { $0.contains(value) }
  }
}
