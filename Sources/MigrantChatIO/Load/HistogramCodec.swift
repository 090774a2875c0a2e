internal import CZlib
import Foundation
import Histogram

/// HdrHistogram's V2 binary encoding, compressed, as in every HdrHistogram
/// implementation's interval logs (Java's `encodeIntoCompressedByteBuffer`,
/// Python's `hdrh`), so a `.hlog` written here opens in their tools.
///
/// The layout, big-endian: cookie `0x1c849314`, the compressed length, then
/// zlib's deflate of: cookie `0x1c849313`, the payload length, the normalizing
/// index offset (0), the significant digits, the lowest discernible and the
/// highest trackable value, the integer-to-double ratio (1.0), then the counts
/// of every bucket up to the last one used, ZigZag LEB128, a run of empty
/// buckets written as minus its length.
///
/// Histograms here always have a lowest discernible value of 1, so a bucket's
/// index follows from its value alone, which lets the encoding walk only the
/// recorded values that swift's `Histogram` exposes.
public enum HistogramCodec {
  /// The largest count, total or gap a decoded histogram may hold (2^50): far above
  /// any run, far below where sums of merged logs would overflow.
  static let maxCount = 1 << 50

  static let encodingCookie: UInt32 = 0x1c84_9313
  static let compressedCookie: UInt32 = 0x1c84_9314

  public enum DecodingError: Error, Equatable {
    case notBase64, tooShort, wrongCookie, notDeflated, unsupported(String), corrupt
  }

  /// The base64 text of `histogram`'s compressed encoding.
  public static func encode(_ histogram: Histogram<UInt64>) -> String {
    let digits = Int(histogram.numberOfSignificantValueDigits.rawValue)
    let layout = Layout(significantDigits: digits)
    var counts = Data()
    var nextIndex = 0
    for value in histogram.recordedValues() {
      let index = layout.index(of: value.value)
      let gap = index - nextIndex
      if gap == 1 {
        ZigZag.append(0, to: &counts)
      } else if gap > 1 {
        ZigZag.append(-Int64(gap), to: &counts)
      }
      ZigZag.append(Int64(value.count), to: &counts)
      nextIndex = index + 1
    }
    var plain = Data()
    plain.appendBigEndian(encodingCookie)
    plain.appendBigEndian(UInt32(counts.count))
    plain.appendBigEndian(UInt32(0))
    plain.appendBigEndian(UInt32(digits))
    plain.appendBigEndian(UInt64(1))
    plain.appendBigEndian(histogram.highestTrackableValue)
    plain.appendBigEndian((1.0 as Double).bitPattern)
    plain.append(counts)
    let deflated = deflate(plain)
    var whole = Data()
    whole.appendBigEndian(compressedCookie)
    whole.appendBigEndian(UInt32(deflated.count))
    whole.append(deflated)
    return whole.base64EncodedString()
  }

  /// The histogram encoded in `text` (base64 of the compressed encoding).
  public static func decode(_ text: some StringProtocol) throws(DecodingError) -> Histogram<UInt64>
  {
    guard let whole = Data(base64Encoded: String(text)) else { throw .notBase64 }
    var reader = ByteReader(Array(whole))
    guard let cookie = reader.uint32(), let length = reader.uint32() else { throw .tooShort }
    guard cookie == compressedCookie else { throw .wrongCookie }
    guard let compressed = reader.bytes(Int(length)), let plainData = inflate(compressed) else {
      throw .notDeflated
    }
    var plain = ByteReader(plainData)
    guard let inner = plain.uint32(), inner == encodingCookie else { throw .wrongCookie }
    guard let payloadLength = plain.uint32(), let offset = plain.uint32(),
      let digits = plain.uint32(), let lowest = plain.uint64(), let highest = plain.uint64(),
      plain.uint64() != nil, let payload = plain.bytes(Int(payloadLength))
    else { throw .tooShort }
    guard offset == 0 else { throw .unsupported("normalizing index offset \(offset)") }
    guard lowest == 1 else { throw .unsupported("lowest discernible value \(lowest)") }
    guard let significant = SignificantDigits(rawValue: Int8(clamping: digits)),
      highest >= 2
    else { throw .unsupported("\(Int32(bitPattern: digits)) significant digits") }
    let layout = Layout(significantDigits: Int(digits))
    var total: UInt64 = 0
    var histogram = Histogram<UInt64>(
      lowestDiscernibleValue: 1, highestTrackableValue: highest,
      numberOfSignificantValueDigits: significant)
    var counts = ByteReader(payload)
    var index = 0
    while !counts.atEnd {
      // Counts and gaps from a file stay in range: a gap of -Int64.min or 2^62, or a count
      // that would overflow the total, is a corrupt log, not a trap.
      guard let count = ZigZag.read(&counts), count > Int64.min, abs(count) <= Self.maxCount
      else { throw .corrupt }
      if count < 0 {
        let (next, overflow) = index.addingReportingOverflow(Int(-count))
        guard !overflow, next <= Self.maxCount else { throw .corrupt }
        index = next
      } else {
        if count > 0 {
          let (sum, overflow) = total.addingReportingOverflow(UInt64(count))
          guard !overflow, sum <= UInt64(Self.maxCount), let value = layout.value(at: index),
            value <= highest, histogram.record(value, count: UInt64(count))
          else { throw .corrupt }
          total = sum
        }
        index += 1
      }
    }
    return histogram
  }

  /// The bucket arithmetic of an HdrHistogram whose lowest discernible value is 1.
  struct Layout {
    let subBucketHalfCountMagnitude: Int
    let subBucketHalfCount: Int
    let subBucketMask: UInt64

    init(significantDigits: Int) {
      var largest = 2
      for _ in 0..<significantDigits { largest *= 10 }
      let magnitude = Int((log2(Double(largest))).rounded(.up))
      subBucketHalfCountMagnitude = max(magnitude, 1) - 1
      subBucketHalfCount = 1 << subBucketHalfCountMagnitude
      subBucketMask = UInt64(1 << (subBucketHalfCountMagnitude + 1)) - 1
    }

    func index(of value: UInt64) -> Int {
      let bucket =
        64 - subBucketHalfCountMagnitude - 1 - (value | subBucketMask).leadingZeroBitCount
      let subBucket = Int(value >> UInt64(bucket))
      return ((bucket + 1) << subBucketHalfCountMagnitude) + (subBucket - subBucketHalfCount)
    }

    func value(at index: Int) -> UInt64? {
      var bucket = (index >> subBucketHalfCountMagnitude) - 1
      var subBucket = (index & (subBucketHalfCount - 1)) + subBucketHalfCount
      if bucket < 0 {
        subBucket -= subBucketHalfCount
        bucket = 0
      }
      guard bucket < 63 - subBucketHalfCountMagnitude else { return nil }
      return UInt64(subBucket) << UInt64(bucket)
    }
  }

  static func deflate(_ data: Data) -> Data {
    var size = compressBound(uLong(data.count))
    var out = [UInt8](repeating: 0, count: Int(size))
    let status = data.withUnsafeBytes { source in
      compress2(
        &out, &size, source.bindMemory(to: UInt8.self).baseAddress, uLong(data.count),
        Z_DEFAULT_COMPRESSION)
    }
    // compressBound is always enough; anything else is a bug in zlib's contract.
    precondition(status == Z_OK, "zlib compress2 failed: \(status)")
    return Data(out.prefix(Int(size)))
  }

  /// zlib's inflate of a whole stream, growing the buffer as needed; nil if not zlib.
  private static func inflate(_ compressed: [UInt8]) -> [UInt8]? {
    var capacity = max(compressed.count * 4, 256)
    while capacity <= 64 * 1024 * 1024 {
      var out = [UInt8](repeating: 0, count: capacity)
      var size = uLong(capacity)
      let status = uncompress(&out, &size, compressed, uLong(compressed.count))
      if status == Z_OK { return Array(out.prefix(Int(size))) }
      guard status == Z_BUF_ERROR else { return nil }
      capacity *= 4
    }
    return nil
  }
}

/// HdrHistogram's ZigZag LEB128: seven bits a byte, the ninth byte whole.
enum ZigZag {
  static func append(_ signed: Int64, to data: inout Data) {
    var value = UInt64(bitPattern: (signed << 1) ^ (signed >> 63))
    for _ in 0..<8 {
      if value >> 7 == 0 {
        data.append(UInt8(value))
        return
      }
      data.append(UInt8(value & 0x7F) | 0x80)
      value >>= 7
    }
    data.append(UInt8(truncatingIfNeeded: value))
  }

  static func read(_ reader: inout ByteReader) -> Int64? {
    var value: UInt64 = 0
    for byteIndex in 0..<9 {
      guard let byte = reader.byte() else { return nil }
      if byteIndex == 8 {
        value |= UInt64(byte) << 56
        break
      }
      value |= UInt64(byte & 0x7F) << UInt64(7 * byteIndex)
      if byte & 0x80 == 0 { break }
    }
    return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
  }
}

struct ByteReader {
  private let bytes: [UInt8]
  private var offset = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var atEnd: Bool { offset >= bytes.count }

  mutating func byte() -> UInt8? {
    guard offset < bytes.count else { return nil }
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func bytes(_ count: Int) -> [UInt8]? {
    guard count >= 0, offset + count <= bytes.count else { return nil }
    defer { offset += count }
    return Array(bytes[offset..<offset + count])
  }

  mutating func uint32() -> UInt32? {
    bytes(4).map { $0.reduce(0) { $0 << 8 | UInt32($1) } }
  }

  mutating func uint64() -> UInt64? {
    bytes(8).map { $0.reduce(0) { $0 << 8 | UInt64($1) } }
  }
}

extension Data {
  mutating func appendBigEndian<Value: FixedWidthInteger>(_ value: Value) {
    Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
  }
}
