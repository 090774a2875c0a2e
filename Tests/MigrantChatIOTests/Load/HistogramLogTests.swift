import Foundation
import Histogram
import MigrantChatCore
import Testing

@testable import MigrantChatIO

@Suite struct HistogramLogTests {
  func histogram(_ values: [UInt64]) -> LatencyHistogram {
    var histogram = LatencyHistogram.latency()
    for value in values { _ = histogram.record(value) }
    return histogram
  }

  func log(start: Double, values: [UInt64], step: [UInt64], counts: LoadCounts) -> String {
    HistogramLog.opening(start: start)
      + HistogramLog.line(tag: nil, start: start, length: 1, histogram: histogram(values))
      + HistogramLog.line(
        tag: "greet, then #1", start: start, length: 1, histogram: histogram(step))
      + HistogramLog.countsLine(counts)
  }

  @Test func aLogReadsBackWithItsStepsAndCounts() throws {
    let counts = LoadCounts(
      conversations: 3, failed: 1, turns: 4, errors: ["timeout": 1], cpuSeconds: 0.5,
      peakRSSBytes: 1000, dropped: 7)
    let text = log(start: 100, values: [1000, 2000, 3000, 4000], step: [1000], counts: counts)
    #expect(text.contains("\nTag=greet__then_#1,100.000,1.000,1.000,HISTF"))
    let read = try HistogramLog.read(text)
    #expect(read.overall.totalCount == 4)
    #expect(read.steps["greet__then_#1"]?.totalCount == 1)
    #expect(read.counts == counts)
    #expect(read.span == 100...101)
  }

  @Test func shardsMergeIntoOneRun() throws {
    let one = LoadCounts(
      conversations: 2, failed: 0, turns: 2, errors: [:], cpuSeconds: 1, peakRSSBytes: 10)
    let two = LoadCounts(
      conversations: 3, failed: 1, turns: 3, errors: ["http_503": 1], cpuSeconds: 2,
      peakRSSBytes: 30, dropped: 4)
    var merged = HistogramLog.Contents()
    merged.add(try HistogramLog.read(log(start: 100, values: [1, 2], step: [1], counts: one)))
    merged.add(
      try HistogramLog.read(log(start: 100.5, values: [3, 4, 5], step: [2, 3], counts: two)))
    #expect(merged.overall.totalCount == 5)
    #expect(merged.overall.max == 5)
    #expect(merged.steps["greet__then_#1"]?.totalCount == 3)
    #expect(merged.span == 100...101.5)
    #expect(merged.counts?.conversations == 5)
    #expect(merged.counts?.errors == ["http_503": 1])
    #expect(merged.counts?.cpuSeconds == 3)
    #expect(merged.counts?.peakRSSBytes == 30)
    #expect(merged.counts?.dropped == 4)
  }

  /// Counts written before `dropped` existed read as none dropped.
  @Test func countsWithoutDroppedReadAsNone() throws {
    let line =
      #"#[migrant-chat {"conversations":2,"cpu_seconds":1,"errors":{},"failed":0,"#
      + #""peak_rss_bytes":10,"turns":2}]"#
    let read = try HistogramLog.read("#[Histogram log format version 1.3]\n" + line + "\n")
    #expect(read.counts?.dropped == 0)
    #expect(read.counts?.conversations == 2)
  }

  /// A log from another tool: other comments, a base time, no counts, 2 significant digits.
  @Test func aForeignLogIsRead() throws {
    var twoDigits = Histogram<UInt64>(
      highestTrackableValue: 10_000_000, numberOfSignificantValueDigits: .two)
    _ = twoDigits.record(12_345, count: 2)
    let text = """
      #[Histogram log format version 1.3]
      #[BaseTime: 0.000 (seconds since epoch)]
      #[StartTime: 1000.000 (seconds since epoch), Thu Jan 01 00:16:40 UTC 1970]
      "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
      1000.000,5.000,12.345,\(HistogramCodec.encode(twoDigits))

      """
    let read = try HistogramLog.read(text)
    #expect(read.overall.totalCount == 2)
    #expect(read.counts == nil)
    #expect(read.span == 1000...1005)
  }

  @Test func aBadLineIsNamedByNumber() {
    let text = HistogramLog.opening(start: 1) + "1.0,1.0,HISTFAAAA\n"
    #expect(throws: HistogramLog.ReadError.self) { try HistogramLog.read(text) }
    do {
      _ = try HistogramLog.read(text)
    } catch {
      #expect(error.line == 5)
    }
    #expect(throws: HistogramLog.ReadError.self) {
      try HistogramLog.read("1.0,1.0,2.0,@@@\n")
    }
    #expect(throws: HistogramLog.ReadError.self) {
      try HistogramLog.read("#[migrant-chat {\"turns\": \"many\"}]\n")
    }
  }

  /// Numbers from a file are checked, never trapped on: a negative, NaN or infinite
  /// interval; counts of 1e300, negative or fractional; sums past Int.max saturate.
  @Test func numbersFromAFileAreCheckedNotTrapped() throws {
    let line = try #require(
      HistogramLog.line(tag: nil, start: 0, length: 1, histogram: histogram([5])).split(
        separator: ",", maxSplits: 2
      ).last)
    let good = "#[Histogram log format version 1.3]\n0.0,1.0,\(line)"
    #expect(try HistogramLog.read(good).overall.totalCount == 1, "the line is well made")
    for (start, length) in [
      ("0.0", "-5"), ("nan", "1"), ("inf", "1"), ("1e308", "1e308"), ("1e300", "1"), ("0", "1e12"),
    ] {
      let text = "#[Histogram log format version 1.3]\n\(start),\(length),\(line)"
      #expect(throws: HistogramLog.ReadError.self) { try HistogramLog.read(text) }
    }
    for bad in ["1e300", "-1", "1.5", "9.3e18"] {
      let json =
        #"{"conversations":\#(bad),"failed":0,"turns":1,"errors":{},"cpu_seconds":0,"peak_rss_bytes":0}"#
      let value = try JSONParser.parse(Data(json.utf8))
      #expect(LoadCounts(value) == nil, "\(bad)")
    }
    // More failed than there were conversations ("-8 passed").
    let impossible = try JSONParser.parse(
      Data(
        #"{"conversations":1,"failed":9,"turns":0,"errors":{},"cpu_seconds":0,"peak_rss_bytes":0}"#
          .utf8))
    #expect(LoadCounts(impossible) == nil)
    // A log with CRLF line ends reads as with LF ones.
    let crlf = good.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n"
    #expect(try HistogramLog.read(crlf).overall.totalCount == 1)
    // A transcript's name as a tag: nothing a terminal showing the log would act on.
    let tag = HistogramLog.safeTag("evil \u{1B}[31mRED \u{1B}]52;c;aGVsbG8=\u{07}\u{202E} x,y=z")
    #expect(!tag.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" }, "\(tag)")
    #expect(!tag.contains(",") && !tag.contains(" ") && !tag.contains("="))
    var huge = LoadCounts()
    huge.turns = LoadCounts.maxCount
    #expect(huge.adding(huge).turns == LoadCounts.maxCount, "saturates, does not overflow")
  }

  /// What is wrong with a line is said in the user's language, not as Swift's case names.
  @Test func aBadLineIsExplainedInTheUsersLanguage() {
    let text = "#[Histogram log format version 1.3]\n0.0,1.0,1.0,not*base64"
    do {
      _ = try HistogramLog.read(text)
      Issue.record("read")
    } catch {
      #expect(error.line == 2)
      #expect(error.problem == .histogram(.notBase64))
      let uk = error.text(Localizer(.uk))
      #expect(uk == "не вдається прочитати гістограму: це не base64", "\(uk)")
      #expect(error.detail == "the histogram cannot be read: it is not base64")
    }
  }

  /// Error names read from a log reach the terminal cleaned (`replay merge`).
  @Test func errorNamesFromALogAreCleaned() {
    var counts = LoadCounts()
    counts.errors = ["\u{1B}]0;PWNED\u{07}\u{1B}[2J": 3]
    let text = LoadSummary(counts: counts, seconds: 1, overall: histogram([5]), steps: [:])
      .text(Localizer(.en))
    #expect(!text.contains("\u{1B}") && !text.contains("\u{07}"), "\(text.debugDescription)")
  }
}
