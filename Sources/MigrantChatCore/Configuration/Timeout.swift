import Foundation

/// How long to wait for a server: a finite number of seconds in `allowed`.
///
/// One validation for the flag of every command and for `timeout:` in the
/// config file. Out of range, a value either traps when converted to
/// libcurl's milliseconds (`1e16`, `inf`) or rounds to 0 ms, which libcurl
/// reads as "wait forever" (`0.0004`).
public struct Timeout: Sendable, Hashable {
  public static let allowed: ClosedRange<Double> = 0.1...3600
  public static let standard = Timeout(checked: 30)

  public let seconds: Double

  public init?(seconds: Double) {
    guard seconds.isFinite, Self.allowed.contains(seconds) else { return nil }
    self.seconds = seconds
  }

  /// A number as typed (`20`, `2.5`, `1e1`); nil for anything else or out of range.
  public init?(parsing text: String) {
    guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)) else { return nil }
    self.init(seconds: seconds)
  }

  private init(checked seconds: Double) {
    self.seconds = seconds
  }

  /// The allowed range as the error messages name it, "0.1" and "3600".
  public static var allowedText: (min: String, max: String) {
    (JSONValue.format(allowed.lowerBound), JSONValue.format(allowed.upperBound))
  }
}
