import Foundation

extension Data {
  /// The UTF-8 bytes of `text`, copied at once. `Data(text.utf8)` goes through the
  /// generic sequence initializer, whose first use for each view type casts dynamically
  /// and walks every conformance record in the binary (350,000 instructions at start
  /// for each, #50).
  public init(utf8Of text: some StringProtocol) {
    self = text.utf8.withContiguousStorageIfAvailable { Data(buffer: $0) } ?? Data(text.utf8)
  }
}
