import Foundation

/// Values that change from run to run (a balance, a date, an order number), masked
/// before answers are compared: `replay --ignore REGEX` and a transcript's `ignore:`.
///
/// Every match of a pattern becomes `‹…›`, in the answer and in an `exact` or
/// `contains` expectation alike, so `text: "Your balance is 120 CZK"` with
/// `--ignore '[0-9]+'` passes on "Your balance is 87 CZK". `regex` and `glob`
/// expectations already say what may vary and see the text as it came. The channel
/// comparison (`--channel rest,socketio`) masks each answer line the same way.
public struct TextMask: Sendable, Hashable {
  public var patterns: [String]

  public static let none = TextMask(patterns: [])
  /// What a masked value reads as.
  public static let placeholder = "‹…›"

  public init(patterns: [String]) {
    self.patterns = patterns
  }

  public var isEmpty: Bool { patterns.isEmpty }

  /// Both masks' patterns: the run's `--ignore` and a transcript's own.
  public func adding(_ patterns: [String]) -> TextMask {
    TextMask(patterns: self.patterns + patterns.filter { !self.patterns.contains($0) })
  }

  /// Why `pattern` cannot mask anything (the caller says it in the user's language);
  /// nil when it can. A pattern that matches the empty text would put a mask between
  /// every two letters.
  public static func problem(with pattern: String) -> Problem? {
    guard (try? NSRegularExpression(pattern: pattern)) != nil else { return .notARegex }
    if "".range(of: pattern, options: .regularExpression) != nil { return .matchesEmpty }
    return nil
  }

  public enum Problem: Sendable, Hashable {
    case notARegex
    case matchesEmpty
  }

  /// `text` with every match of every pattern replaced by `‹…›`.
  public func apply(_ text: String) -> String {
    var masked = text
    for pattern in patterns {
      masked = masked.replacingOccurrences(
        of: pattern, with: Self.placeholder, options: .regularExpression)
    }
    return masked
  }

  public func apply(_ text: String?) -> String? {
    text.map { apply($0) }
  }
}

extension TextMatch {
  /// Whether `actual` matches with `mask`'s values masked on both sides (`exact` and
  /// `contains`); `regex` and `glob` see the text as it came.
  public func matches(_ actual: String?, mask: TextMask) -> Bool {
    guard !mask.isEmpty else { return matches(actual) }
    switch self {
    case .exact(let expected, let ignoreCase):
      return TextMatch.exact(mask.apply(expected), ignoreCase: ignoreCase).matches(
        mask.apply(actual))
    case .contains(let expected, let ignoreCase):
      return TextMatch.contains(mask.apply(expected), ignoreCase: ignoreCase).matches(
        mask.apply(actual))
    case .regex, .glob:
      return matches(actual)
    case .anyOf(let choices):
      return choices.contains { $0.matches(actual, mask: mask) }
    }
  }
}
