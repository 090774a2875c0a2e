extension StringProtocol {
  /// Without leading and trailing white space and line breaks (Unicode's
  /// White_Space), computed in Swift: Foundation's `trimmingCharacters` goes
  /// through NSString, which was a tenth of a turn's CPU time.
  public func trimmingWhitespace() -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !Self.isWhitespace($0) }),
      let last = scalars.lastIndex(where: { !Self.isWhitespace($0) })
    else { return "" }
    // Nothing to trim is the usual case; else one copy of the bytes between.
    // One copy of the bytes between (String and Substring share their indices).
    return String(self[first..<scalars.index(after: last)])
  }

  private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x20, 0x09...0x0D: true
    case 0..<0x80: false
    default: scalar.properties.isWhitespace
    }
  }
}
