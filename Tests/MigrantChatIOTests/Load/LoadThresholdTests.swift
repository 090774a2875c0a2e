import Foundation
import MigrantChatCore
import Testing

@testable import MigrantChatIO

@Suite struct LoadThresholdTests {
  @Test(arguments: [
    ("p99<300ms", LoadThreshold.Metric.percentile(99), LoadThreshold.Comparison.less, 300.0),
    ("p95 <= 1s", .percentile(95), .lessOrEqual, 1000),
    ("p99.9<2.5", .percentile(99.9), .less, 2.5),
    ("pass>=99%", .pass, .greaterOrEqual, 99), ("errors<1%", .errors, .less, 1),
    ("dropped==0", .dropped, .equal, 0), ("max<2s", .max, .less, 2000),
    ("Greeting#2:p95<1s", .percentile(95), .less, 1000),
  ])
  func readsWhatK6UsersWrite(
    text: String, metric: LoadThreshold.Metric, comparison: LoadThreshold.Comparison,
    value: Double
  ) throws {
    let threshold = try #require(LoadThreshold(text))
    #expect(threshold.metric == metric)
    #expect(threshold.comparison == comparison)
    #expect(threshold.value == value)
    #expect(threshold.description == text.trimmingCharacters(in: .whitespaces))
  }

  @Test(arguments: [
    "", "p99", "p99<<3", "p0<3", "p101<3", "pass>=99", "p99<3%", "rate<5", "p99<-1",
    "p99<nan", ":p99<3", "Greeting#1:pass>=99%", "p99<1e400",
  ])
  func refusesWhatItCannotRead(text: String) {
    #expect(LoadThreshold(text) == nil)
  }

  @Test func measuresTheRun() throws {
    var overall = LatencyHistogram.latency()
    for ms in 1...100 { overall.record(seconds: Double(ms) / 1000) }
    let counts = LoadCounts(
      conversations: 200, failed: 3, turns: 400, errors: ["connection_refused": 2],
      cpuSeconds: 1, peakRSSBytes: 1, dropped: 50)
    let summary = LoadSummary(counts: counts, seconds: 10, overall: overall, steps: [:])
    let p99 = try #require(LoadThreshold("p99<300ms"))
    #expect(p99.holds(p99.measured(summary)))
    #expect(try #require(LoadThreshold("p50<10ms")).holds(50) == false)
    #expect(try #require(LoadThreshold("pass>=99%")).measured(summary) == 98.5)
    #expect(try #require(LoadThreshold("errors<1%")).measured(summary) == 1)
    #expect(try #require(LoadThreshold("dropped==0")).measured(summary) == 50)
    #expect(try #require(LoadThreshold("dropped<30%")).measured(summary) == 20)
    let missing = try #require(LoadThreshold("Nope#1:p99<1s"))
    #expect(missing.measured(summary) == nil && !missing.holds(nil))
  }
}
