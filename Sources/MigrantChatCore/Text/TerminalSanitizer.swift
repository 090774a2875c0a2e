/// Makes server-supplied text safe to print on a terminal.
///
/// Removes everything that could move the cursor, change colours, set the
/// window title, write OSC 8 hyperlinks or reorder text: C0 controls (except
/// newline; a tab becomes spaces), DEL, C1 controls, whole ESC sequences (CSI,
/// OSC, DCS, SOS, PM, APC and two-character escapes), and the bidi embedding,
/// override and isolate characters. Invalid UTF-8 was already replaced by
/// U+FFFD when the bytes became a `String`.
public enum TerminalSanitizer {
  public static func clean(_ text: String, keepNewlines: Bool = true) -> String {
    var output = String.UnicodeScalarView()
    let scalars = Array(text.unicodeScalars)
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      switch scalar.value {
      case 0x0A, 0x2028, 0x2029:
        output.append(keepNewlines ? "\n" : " ")
      case 0x09:
        output.append(contentsOf: "    ".unicodeScalars)
      case 0x1B:
        index = skipEscapeSequence(scalars, from: index)
      case 0x9B:  // 8-bit CSI
        index = skipControlSequence(scalars, from: index)
      case 0x90, 0x98, 0x9D, 0x9E, 0x9F:  // 8-bit DCS, SOS, OSC, PM, APC
        index = skipControlString(scalars, from: index)
      case 0x00...0x1F, 0x7F...0x9F:
        continue
      case 0x202A...0x202E, 0x2066...0x2069:
        continue
      default:
        output.append(scalar)
      }
    }
    return String(output)
  }

  /// Skips what follows an ESC; `index` points just past the ESC.
  private static func skipEscapeSequence(_ scalars: [Unicode.Scalar], from index: Int) -> Int {
    guard index < scalars.count else { return index }
    switch scalars[index] {
    case "[":
      return skipControlSequence(scalars, from: index + 1)
    case "]", "P", "X", "^", "_":
      return skipControlString(scalars, from: index + 1)
    default:
      var position = index
      // nF escapes: intermediate bytes, then one final byte.
      while position < scalars.count, (0x20...0x2F).contains(scalars[position].value) {
        position += 1
      }
      return min(position + 1, scalars.count)
    }
  }

  /// Skips a CSI's parameter and intermediate bytes and its final byte.
  private static func skipControlSequence(_ scalars: [Unicode.Scalar], from index: Int) -> Int {
    var position = index
    while position < scalars.count {
      let value = scalars[position].value
      if (0x20...0x3F).contains(value) {
        position += 1
      } else if (0x40...0x7E).contains(value) {
        return position + 1
      } else {
        return position  // malformed: stop, and let the main loop judge this scalar
      }
    }
    return position
  }

  /// Skips an OSC or DCS-like string up to its terminator (BEL, ESC \ or ST).
  private static func skipControlString(_ scalars: [Unicode.Scalar], from index: Int) -> Int {
    var position = index
    while position < scalars.count {
      switch scalars[position].value {
      case 0x07, 0x9C:
        return position + 1
      case 0x1B:
        let next = position + 1
        return next < scalars.count && scalars[next] == "\\" ? next + 1 : next
      default:
        position += 1
      }
    }
    return position
  }
}

extension JSONValue {
  /// The same value with every string and key sanitized for the terminal.
  public var sanitized: JSONValue {
    switch self {
    case .string(let string): .string(TerminalSanitizer.clean(string))
    case .array(let values): .array(values.map(\.sanitized))
    case .object(let members):
      .object(
        Dictionary(
          members.map { (TerminalSanitizer.clean($0.key), $0.value.sanitized) },
          uniquingKeysWith: { first, _ in first }))
    default: self
    }
  }
}
