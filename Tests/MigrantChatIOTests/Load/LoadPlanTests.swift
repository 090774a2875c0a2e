import Foundation
import Testing

@testable import MigrantChatIO

@Suite struct LoadPlanTests {
  @Test func arrivalsKeepTheRateAndRampUpLinearly() {
    let steady = LoadPlan(jobs: 10, arrivals: .open(rate: 50))
    #expect(steady.arrivalTime(0, rate: 50) == 0)
    #expect(abs(steady.arrivalTime(100, rate: 50) - 2) < 1e-9)
    let ramped = LoadPlan(jobs: 10, arrivals: .open(rate: 100), rampUp: 10)
    // Half the full rate's arrivals come during the ramp: 100 × 10 / 2.
    #expect(abs(ramped.arrivalTime(500, rate: 100) - 10) < 1e-9)
    #expect(abs(ramped.arrivalTime(600, rate: 100) - 11) < 1e-9)
    // A quarter of the way in time, a sixteenth... the count grows with the square.
    #expect(abs(ramped.arrivalTime(125, rate: 100) - 5) < 1e-9)
    var previous = -1.0
    for index in 0..<1_000 {
      let time = ramped.arrivalTime(index, rate: 100)
      #expect(time > previous)
      previous = time
    }
  }

  /// The count of arrivals due before a duration, per shard, is what walking
  /// the arrival times gives.
  @Test(arguments: [
    (50.0, 0.0, 1.0), (50.0, 0.0, 0.33), (7.5, 0.0, 3.0), (100.0, 10.0, 5.0), (100.0, 10.0, 12.5),
    (3.0, 2.0, 2.0), (1000.0, 1.0, 0.0),
  ])
  func arrivalsWithinADurationAreCounted(rate: Double, rampUp: Double, duration: Double) {
    for shard in [Shard.whole, Shard(index: 1, count: 3), Shard(index: 3, count: 3)] {
      let plan = LoadPlan(jobs: 1, arrivals: .open(rate: rate), rampUp: rampUp, shard: shard)
      var walked = 0
      var index = 0
      while plan.arrivalTime(index, rate: rate) < duration {
        if plan.runs(index) { walked += 1 }
        index += 1
      }
      #expect(
        plan.arrivals(within: duration, rate: rate) == walked, "\(rate) \(rampUp) \(duration)")
    }
  }

  @Test func shardsSplitTheWorkWithoutOverlap() throws {
    let items = Array(0..<10)
    let shards = (1...3).map { Shard(index: $0, count: 3) }
    let shares = shards.map { $0.share(of: items, repeats: 2) }
    #expect(shares.map(\.count) == [7, 7, 6])
    #expect(shares.flatMap { $0 }.sorted() == (items + items).sorted())
    let plans = shards.map { LoadPlan(jobs: 1, shard: $0) }
    for index in 0..<30 {
      #expect(plans.filter { $0.runs(index) }.count == 1)
    }
  }

  @Test func shardTextIsChecked() {
    #expect(Shard(parsing: "2/4") == Shard(index: 2, count: 4))
    #expect(Shard(parsing: "1/1") == .whole)
    for bad in ["", "0/2", "3/2", "1/0", "a/b", "1/2/3", "-1/2", "1/10001", " 1/2", "1/"] {
      #expect(Shard(parsing: bad) == nil, "\(bad)")
    }
  }

  @Test func durationsAsPeopleTypeThem() {
    let accepted: [(String, Double)] = [
      ("90", 90), ("90s", 90), ("1.5m", 90), ("2m30s", 150), ("1h", 3600), ("500ms", 0.5),
      ("0", 0), (" 10S ", 10),
    ]
    for (text, seconds) in accepted {
      #expect(DurationText.seconds(text) == seconds, "\(text)")
    }
    for bad in ["", "s", "10x", "-5", "1e400", "nan", "inf", "5 m", "m5", "1..5s"] {
      #expect(DurationText.seconds(bad) == nil, "\(bad)")
    }
  }
}
