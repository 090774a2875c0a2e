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

  /// A number as typed (`20`, `2.5`, `2,5`, `1e1`); nil for anything else or out of range.
  ///
  /// A decimal comma is accepted: Russian and Ukrainian messages show the range with one.
  public init?(parsing text: String) {
    let typed = text.trimmingWhitespace()
    let number =
      typed.filter { $0 == "," }.count == 1 && !typed.contains(".")
      ? typed.replacingOccurrences(of: ",", with: ".") : typed
    guard let seconds = Double(number) else { return nil }
    self.init(seconds: seconds)
  }

  private init(checked seconds: Double) {
    self.seconds = seconds
  }

  /// The allowed range as the error messages name it: "0.1" and "3600" ("0,1" in ru/uk).
  public static func allowedText(_ l10n: Localizer) -> (min: String, max: String) {
    (l10n.number(allowed.lowerBound), l10n.number(allowed.upperBound))
  }
}
