import Foundation
import Histogram
import MigrantChatCore

/// HdrHistogram's interval log (`.hlog`, format 1.3), as Java's
/// `HistogramLogWriter` writes it and `HistogramLogReader` reads it.
///
/// One line per interval: `[Tag=NAME,]start,length,max,histogram`, with start
/// in seconds since the epoch (so logs of several machines line up), the
/// interval's maximum in milliseconds and the histogram compressed and base64
/// encoded (`HistogramCodec`). Values are microseconds. Untagged lines hold
/// every turn; a line tagged with a step's name holds that step's turns. The
/// run's counts (conversations, failures, errors by kind, client CPU) go in a
/// `#[migrant-chat ...]` comment at the end, which other tools skip.
public enum HistogramLog {
  public static let header =
    "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\""
  static let countsPrefix = "#[migrant-chat "

  public struct OpenError: Error, CustomStringConvertible {
    public var description: String
  }

  /// Creates (or empties) the log file at `path`, readable by its owner only.
  public static func create(_ path: String) throws(OpenError) -> FileHandle {
    if path == "-" { return FileHandle.standardOutput }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw OpenError(description: String(cString: strerror(errno))) }
    return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
  }

  /// The lines that open a log started at `start` (seconds since the epoch).
  public static func opening(start: Double) -> String {
    let date = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: start))
    return """
      #[Histogram log format version 1.3]
      #[StartTime: \(String(format: "%.3f", start)) (seconds since epoch), \(date)]
      #[Written by migrant-chat replay: values in microseconds, Interval_Max in milliseconds]
      \(header)

      """
  }

  /// One interval's line (`tag` nil: every turn).
  public static func line(
    tag: String?, start: Double, length: Double, histogram: LatencyHistogram
  ) -> String {
    let prefix = tag.map { "Tag=\(safeTag($0))," } ?? ""
    let max = Double(histogram.max) / 1000
    return prefix
      + String(format: "%.3f,%.3f,%.3f,", start, length, max)
      + HistogramCodec.encode(histogram) + "\n"
  }

  /// A tag may hold no comma or white space.
  /// A tag HdrHistogram's readers take (no comma, space or `=`), and that a terminal
  /// showing the log (`cat out.hlog`) never acts on: controls and bidi marks dropped.
  public static func safeTag(_ name: String) -> String {
    let clean = TerminalSanitizer.clean(name, keepNewlines: false)
    return String(clean.map { $0 == "," || $0.isWhitespace || $0 == "=" ? "_" : $0 })
  }

  public static func countsLine(_ counts: LoadCounts) -> String {
    countsPrefix + counts.json.compactText + "]\n"
  }

  /// What a log holds: every turn, each step, and the counts if written here.
  public struct Contents: Sendable {
    public var overall = LatencyHistogram.latency()
    public var steps: [String: LatencyHistogram] = [:]
    /// The earliest interval start and the latest interval end, in epoch seconds.
    public var span: ClosedRange<Double>?
    public var counts: LoadCounts?

    public init() {}

    /// Adds another log's contents (another shard's).
    public mutating func add(_ other: Contents) {
      overall.merge(other.overall)
      for (step, histogram) in other.steps { steps[step, default: .latency()].merge(histogram) }
      if let range = other.span {
        span =
          span.map { min($0.lowerBound, range.lowerBound)...max($0.upperBound, range.upperBound) }
          ?? range
      }
      if let more = other.counts { counts = (counts ?? LoadCounts()).adding(more) }
    }
  }

  public struct ReadError: Error, Equatable {
    public var line: Int
    public var problem: Problem

    public enum Problem: Sendable, Equatable {
      case counts
      case fields
      case times
      case histogram(HistogramCodec.DecodingError)
    }

    /// In English, for logs and tests.
    public var detail: String { text(Localizer(.en)) }

    /// What is wrong with the line, in the user's language.
    public func text(_ l10n: Localizer) -> String {
      switch problem {
      case .counts: l10n(.loadReadCounts)
      case .fields: l10n(.loadReadFields)
      case .times: l10n(.loadReadTimes)
      case .histogram(let error):
        l10n(.loadReadHistogram, ["why": Self.why(error, l10n)])
      }
    }

    private static func why(_ error: HistogramCodec.DecodingError, _ l10n: Localizer) -> String {
      switch error {
      case .notBase64: l10n(.loadHistogramNotBase64)
      case .tooShort: l10n(.loadHistogramCut)
      case .wrongCookie: l10n(.loadHistogramNotHdr)
      case .notDeflated: l10n(.loadHistogramNotDeflated)
      case .unsupported(let what): l10n(.loadHistogramUnsupported, ["what": what])
      case .corrupt: l10n(.loadHistogramCorrupt)
      }
    }
  }

  /// Reads a log; lines it does not know (comments, the CSV header, blanks) are skipped.
  public static func read(_ text: String) throws(ReadError) -> Contents {
    var contents = Contents()
    var lineNumber = 0
    for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      lineNumber += 1
      // CRLF line ends (a log edited on Windows) read as LF ones.
      let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
      if line.hasPrefix(countsPrefix), line.hasSuffix("]") {
        let json = line.dropFirst(countsPrefix.count).dropLast()
        guard let value = try? JSONParser.parse(Data(utf8Of: json)), let counts = LoadCounts(value)
        else { throw ReadError(line: lineNumber, problem: .counts) }
        contents.counts = (contents.counts ?? LoadCounts()).adding(counts)
        continue
      }
      if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("\"") { continue }
      var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      var tag: String?
      if let first = fields.first, first.hasPrefix("Tag=") {
        tag = String(first.dropFirst(4))
        fields.removeFirst()
      }
      guard fields.count == 4, let start = Double(fields[0]), let length = Double(fields[1]) else {
        throw ReadError(line: lineNumber, problem: .fields)
      }
      // A negative, NaN or infinite time would make `start...end` trap.
      // Epoch seconds before the year 5000, intervals shorter than 30 years: anything
      // else is damage (1e300 printed a 300-digit gap between runs).
      guard start.isFinite, length.isFinite, length >= 0, abs(start) < 1e11, length < 1e9
      else {
        throw ReadError(line: lineNumber, problem: .times)
      }
      let histogram: LatencyHistogram
      do {
        histogram = try HistogramCodec.decode(fields[3])
      } catch {
        throw ReadError(line: lineNumber, problem: .histogram(error))
      }
      if let tag {
        contents.steps[tag, default: .latency()].merge(histogram)
      } else {
        contents.overall.merge(histogram)
      }
      let end = start + length
      contents.span =
        contents.span.map { min($0.lowerBound, start)...max($0.upperBound, end) }
        ?? start...end
    }
    return contents
  }
}

extension Histogram where Count == UInt64 {
  /// Adds `other`'s values, whatever its precision and range (a log written
  /// by another tool may differ); values past this histogram's range are clamped.
  mutating func merge(_ other: Histogram<UInt64>) {
    for value in other.recordedValues() {
      _ = record(Swift.min(value.value, highestTrackableValue), count: value.count)
    }
  }
}
