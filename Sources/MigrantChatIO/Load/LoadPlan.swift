import Foundation

/// How `replay` runs transcripts as load: how many conversations at once, how
/// they arrive, for how long, and which share of them this process runs.
///
/// Arrivals are numbered across every shard, and arrival *i* runs transcript
/// *i* modulo their count; shard *I* of *N* runs the arrivals whose number is
/// *I* − 1 modulo *N*, so N processes started with the same options together
/// make the load one process would, interleaved evenly.
public struct LoadPlan: Sendable, Equatable {
  public enum Arrivals: Sendable, Equatable {
    /// `jobs` conversations, each starting the next as it ends (no `--rate`).
    case closed
    /// New conversations at `rate` a second whatever the answers (`--rate`).
    case open(rate: Double)
  }

  /// Conversations at once in the closed model.
  public var jobs: Int
  /// The open model's cap: conversations in flight grow as the rate needs, up to this;
  /// an arrival due past it is dropped (and counted), as k6 drops iterations.
  public var maxInFlight: Int
  public var arrivals: Arrivals
  /// Seconds of arrivals; nil: every transcript `repeats` times, then stop.
  public var duration: Double?
  /// Seconds over which the rate grows linearly from 0 to `rate`.
  public var rampUp: Double
  public var shard: Shard
  public var repeats: Int

  public init(
    jobs: Int, arrivals: Arrivals = .closed, duration: Double? = nil, rampUp: Double = 0,
    shard: Shard = .whole, repeats: Int = 1, maxInFlight: Int = LoadPlan.defaultMaxInFlight
  ) {
    self.jobs = jobs
    self.maxInFlight = maxInFlight
    self.arrivals = arrivals
    self.duration = duration
    self.rampUp = rampUp
    self.shard = shard
    self.repeats = repeats
  }

  public static let defaultMaxInFlight = 10_000

  /// Seconds after the start at which arrival `index` (counted across every
  /// shard) is due in the open model: the integral of a rate that ramps from
  /// 0 to `rate` over `rampUp` seconds, then stays.
  public func arrivalTime(_ index: Int, rate: Double) -> Double {
    let position = Double(index)
    guard rampUp > 0 else { return position / rate }
    let duringRamp = rate * rampUp / 2
    if position < duringRamp { return (2 * rampUp * position / rate).squareRoot() }
    return rampUp + (position - duringRamp) / rate
  }

  /// How many arrivals of this shard are due before `duration` at `rate`.
  public func arrivals(within duration: Double, rate: Double) -> Int {
    // The arrival times' inverse, then the boundary checked against arrivalTime.
    var all: Double
    if rampUp > 0 && duration <= rampUp {
      all = rate * duration * duration / (2 * rampUp)
    } else {
      all = rate * (duration - rampUp / 2)
    }
    guard all.isFinite, all > 0 else { return 0 }
    all = min(all.rounded(.up), Double(Int.max / 2))
    var count = Int(all)
    while count > 0 && arrivalTime(count - 1, rate: rate) >= duration { count -= 1 }
    while arrivalTime(count, rate: rate) < duration { count += 1 }
    let first = shard.index - 1
    return count > first ? (count - first + shard.count - 1) / shard.count : 0
  }

  /// Whether this process runs arrival `index`.
  public func runs(_ index: Int) -> Bool {
    index % shard.count == shard.index - 1
  }

  /// How many arrivals there are in all shards when no `duration` bounds them.
  public func totalArrivals(transcripts: Int) -> Int { transcripts * max(repeats, 1) }
}

/// `I/N`: this process is shard I (from 1) of N.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
  public var index: Int
  public var count: Int

  public static let whole = Shard(index: 1, count: 1)

  public init(index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  /// Reads `I/N` with 1 ≤ I ≤ N ≤ 10,000; nil for anything else.
  public init?(parsing text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
      (1...10_000).contains(count), (1...count).contains(index)
    else { return nil }
    self.init(index: index, count: count)
  }

  public var description: String { "\(index)/\(count)" }

  /// This shard's share of every item `repeats` times over, in that order.
  public func share<Item>(of items: [Item], repeats: Int) -> [Item] {
    let all = (0..<max(repeats, 1)).flatMap { _ in items }
    return all.indices.filter { $0 % count == index - 1 }.map { all[$0] }
  }
}

/// Durations as people type them: `90`, `90s`, `1.5m`, `2m30s`, `1h`, `500ms`.
public enum DurationText {
  /// Seconds, or nil when `text` is not a duration.
  public static func seconds(_ text: String) -> Double? {
    let units: [(String, Double)] = [("ms", 0.001), ("h", 3600), ("m", 60), ("s", 1)]
    var rest = Substring(text.trimmingCharacters(in: .whitespaces).lowercased())
    guard !rest.isEmpty else { return nil }
    if let plain = Double(rest) { return plain.isFinite && plain >= 0 ? plain : nil }
    var total = 0.0
    while !rest.isEmpty {
      let number = rest.prefix(while: { $0.isASCII && ($0.isNumber || $0 == ".") })
      guard !number.isEmpty, let value = Double(number) else { return nil }
      rest = rest.dropFirst(number.count)
      guard let (unit, scale) = units.first(where: { rest.hasPrefix($0.0) }) else { return nil }
      rest = rest.dropFirst(unit.count)
      total += value * scale
    }
    return total.isFinite ? total : nil
  }
}
