/// How many terminal columns text takes, by grapheme cluster.
///
/// Wide East Asian characters and emoji take two columns, combining marks and
/// format characters none; everything else one. This follows what terminals
/// based on wcwidth do, closely enough to wrap text without overflowing.
public enum DisplayWidth {
  public static func of(_ text: some StringProtocol) -> Int {
    // Printable ASCII is one column a byte.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
    return text.reduce(0) { $0 + of($1) }
  }

  public static func of(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    // Fast path: one scalar of Latin or Cyrillic letters, digits and
    // punctuation, most of what a bot says, without Unicode property lookups.
    if scalars.count == 1 {
      switch first.value {
      case 0x20..<0x7F, 0xA0..<0xAD, 0xAE..<0x300, 0x370..<0x483, 0x48A..<0x530: return 1
      case 0..<0x20, 0x7F..<0xA0: return 0
      default: break
      }
    }
    return measured(character)
  }

  /// The width from Unicode properties (the fast path above must agree with it).
  static func measured(_ character: Character) -> Int {
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
