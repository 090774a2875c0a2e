import Foundation

/// The operator of a pass mark (`p99<300ms`, `f1>=0.9`), longest spelling first so
/// `<=` is not read as `<`.
public enum ThresholdComparison: String, Sendable, Hashable, CaseIterable {
  case lessOrEqual = "<="
  case greaterOrEqual = ">="
  case equal = "=="
  case less = "<"
  case greater = ">"

  /// Whether `measured` keeps the mark `value`.
  public func holds(_ measured: Double, _ value: Double) -> Bool {
    switch self {
    case .less: measured < value
    case .lessOrEqual: measured <= value
    case .greater: measured > value
    case .greaterOrEqual: measured >= value
    case .equal: measured == value
    }
  }
}
