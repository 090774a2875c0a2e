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

  /// A well-formed envelope (both cookies, deflated) around a header and counts
  /// the test writes: what a damaged or hostile log's body looks like.
  static func envelope(
    digits: UInt32 = 3, lowest: UInt64 = 1, highest: UInt64 = 3_600_000_000,
    counts: [Int64], payloadLength: UInt32? = nil
  ) -> String {
    var payload = Data()
    for count in counts { ZigZag.append(count, to: &payload) }
    var plain = Data()
    plain.appendBigEndian(HistogramCodec.encodingCookie)
    plain.appendBigEndian(payloadLength ?? UInt32(payload.count))
    plain.appendBigEndian(UInt32(0))
    plain.appendBigEndian(digits)
    plain.appendBigEndian(lowest)
    plain.appendBigEndian(highest)
    plain.appendBigEndian((1.0 as Double).bitPattern)
    plain.append(payload)
    let deflated = HistogramCodec.deflate(plain)
    var whole = Data()
    whole.appendBigEndian(HistogramCodec.compressedCookie)
    whole.appendBigEndian(UInt32(deflated.count))
    whole.append(deflated)
    return whole.base64EncodedString()
  }

  /// The body, past a good header: each damage is its own error, never a trap.
  @Test func aDamagedBodyIsAnErrorNotACrash() throws {
    // The envelope itself is right: three counts of 2 at the first buckets.
    #expect(try HistogramCodec.decode(Self.envelope(counts: [2, 2, 2])).totalCount == 6)
    let corrupt: [[Int64]] = [
      [Int64.min],  // a count whose negation traps
      [-(1 << 62), 1],  // a gap past every bucket
      [1 << 51],  // a count past the bound
      [1 << 49, 1 << 49, 1 << 49],  // counts whose sum passes the bound
      [-(Int64(Int32.max)), 5],  // a value past the highest trackable
    ]
    for counts in corrupt {
      #expect(throws: HistogramCodec.DecodingError.corrupt, "\(counts)") {
        try HistogramCodec.decode(Self.envelope(counts: counts))
      }
    }
    // A payload shorter than its stated length, a header that is cut off.
    #expect(throws: HistogramCodec.DecodingError.tooShort) {
      try HistogramCodec.decode(Self.envelope(counts: [1], payloadLength: 1_000))
    }
    for (digits, lowest, highest) in [(9, 1, 1000), (3, 7, 1000), (3, 1, 1)]
      as [(UInt32, UInt64, UInt64)]
    {
      #expect(throws: (any Error).self, "\(digits) \(lowest) \(highest)") {
        try HistogramCodec.decode(
          Self.envelope(digits: digits, lowest: lowest, highest: highest, counts: [1]))
      }
    }
    // A damaged deflate stream inside a good envelope.
    var bytes = Array(try #require(Data(base64Encoded: Self.envelope(counts: [2, 2]))))
    bytes[bytes.count - 3] ^= 0x5A
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
