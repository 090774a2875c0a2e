import Foundation
import Histogram
import Testing

@testable import MigrantChatIO

/// The interval log's histograms are HdrHistogram's own encoding, read and
/// written the way the reference implementations do.
@Suite struct HistogramCodecTests {
  /// Encoded by Python's `hdrh` 0.10.8 (`HdrHistogram(1, 3_600_000_000, 3)`, each
  /// value below recorded 3 times, `encode()`), so a mistake made the same way in
  /// our encoder and decoder cannot pass.
  static let fromPython =
    "HISTFAAAADJ4nJNpmSzMwMAAwiDADKUZQcS1yUsY7D9ABdhY2Q7ys7GtFmBj649ju3iekQ0AzPkI6Q=="
  static let pythonValues: [UInt64] = [1, 5, 999, 1000, 2047, 2048, 123_456, 1_000_000_000]

  @Test func decodesWhatTheReferenceImplementationWrote() throws {
    let histogram = try HistogramCodec.decode(Self.fromPython)
    #expect(histogram.totalCount == 24)
    for value in Self.pythonValues {
      #expect(histogram.countForValue(value) == 3, "value \(value)")
    }
    #expect(histogram.valuesAreEquivalent(histogram.max, 1_000_000_000))
    #expect(histogram.valueAtPercentile(50) == 1000)
  }

  @Test func encodesWhatItDecodesAgainAndSoDoesTheReference() throws {
    var histogram = LatencyHistogram.latency()
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<5_000 {
      _ = histogram.record(UInt64.random(in: 1...3_000_000_000, using: &generator))
    }
    _ = histogram.record(1, count: 7)
    let again = try HistogramCodec.decode(HistogramCodec.encode(histogram))
    #expect(again == histogram)
    // The same values as the reference encodes them: the same text, byte for byte.
    var same = LatencyHistogram.latency()
    for value in Self.pythonValues { _ = same.record(value, count: 3) }
    let decoded = try HistogramCodec.decode(HistogramCodec.encode(same))
    #expect(decoded == (try HistogramCodec.decode(Self.fromPython)))
  }

  @Test func anEmptyHistogramRoundTrips() throws {
    let empty = LatencyHistogram.latency()
    #expect(try HistogramCodec.decode(HistogramCodec.encode(empty)).totalCount == 0)
  }

  @Test func badTextIsAnErrorNotACrash() {
    #expect(throws: HistogramCodec.DecodingError.notBase64) {
      try HistogramCodec.decode("not base64!")
    }
    #expect(throws: HistogramCodec.DecodingError.tooShort) { try HistogramCodec.decode("AAAA") }
    #expect(throws: HistogramCodec.DecodingError.wrongCookie) {
      try HistogramCodec.decode(Data(repeating: 7, count: 40).base64EncodedString())
    }
    // A good header over a cut-off or damaged body.
    var bytes = Array(Data(base64Encoded: Self.fromPython) ?? Data())
    #expect(throws: HistogramCodec.DecodingError.notDeflated) {
      try HistogramCodec.decode(Data(bytes.prefix(20)).base64EncodedString())
    }
    bytes[12] ^= 0xFF
    #expect(throws: (any Error).self) {
      try HistogramCodec.decode(Data(bytes).base64EncodedString())
    }
  }

  @Test func zigZagCoversTheWholeRange() {
    for value: Int64 in [0, 1, -1, 63, -64, 64, 1 << 20, -(1 << 40), .max, .min] {
      var data = Data()
      ZigZag.append(value, to: &data)
      #expect(data.count <= 9)
      var reader = ByteReader(Array(data))
      #expect(ZigZag.read(&reader) == value)
      #expect(reader.atEnd)
    }
  }
}
