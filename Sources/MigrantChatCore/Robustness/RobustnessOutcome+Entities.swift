import Foundation

extension TurnInsight {
  /// The entities found, as `robustness` compares them: `label=value`, the value as
  /// text after the bot's synonyms, case folded.
  var foundEntities: [String] {
    entities.map { $0.entity + "=" + NLUPrediction.text(of: $0.value).lowercased() }.sorted()
  }
}

extension RobustnessExample {
  /// What the marks say the bot must find (`label=value`): each mark with the value it
  /// states, else the bot's value for its words as written (its synonyms), else its
  /// words; a transcript's line, without marks, what the bot `found` as written.
  func marked(found: [String]) -> [String] {
    guard !entities.isEmpty else { return found }
    let characters = Array(text)
    var unclaimed = found
    return entities.compactMap { mark -> String? in
      let end = min(characters.count, mark.start + mark.length)
      let words = String(characters[mark.start..<end])
      guard let decoded = NLUTestExample.decode(mark.mark, text: words) else { return nil }
      let prefix = decoded.label + "="
      if decoded.valueStated {
        let entry = prefix + decoded.value.lowercased()
        if let index = unclaimed.firstIndex(of: entry) { unclaimed.remove(at: index) }
        return entry
      }
      if let index = unclaimed.firstIndex(of: prefix + words.lowercased())
        ?? unclaimed.firstIndex(where: { $0.hasPrefix(prefix) })
      {
        return unclaimed.remove(at: index)
      }
      return prefix + words.lowercased()
    }
  }

  /// Sets what variants must find: the marked entities the bot finds as written.
  /// Those it misses even so are a finding of their own (`entitiesMissedAsWritten`),
  /// never charged to each variant, as an example misunderstood as written is left out.
  mutating func judgeEntities(found: [String]) {
    foundEntities = found
    var left = found
    var kept: [String] = []
    var missed: [String] = []
    for entry in marked(found: found) {
      if let index = left.firstIndex(of: entry) {
        left.remove(at: index)
        kept.append(entry)
      } else {
        missed.append(entry)
      }
    }
    expectedEntities = kept
    entitiesMissedAsWritten = missed
  }
}

extension RobustnessOutcome {
  /// Whether the bot found in the variant the entities it found in the example as
  /// written (values after its synonyms); an entity-swap variant must have the new
  /// value instead of the old. True where entities were not asked for (answers).
  public var keepsEntities: Bool { lostEntities.isEmpty && extraEntities.isEmpty }

  /// What the example had that the variant lost (`city=brno`); for a swap, the new
  /// value when no entity of its label was found.
  public var lostEntities: [String] {
    guard var wanted = example.expectedEntities, var left = foundEntities else { return [] }
    var lost: [String] = []
    if let swap = variant.swap, !swap.label.isEmpty {
      // The old value goes (if the bot found it as written); another of the label
      // must come in its place, whatever the bot made of the old one.
      let prefix = swap.label + "="
      let old = wanted.firstIndex { $0.hasPrefix(prefix) }.map { wanted.remove(at: $0) }
      if let new = left.firstIndex(where: { $0.hasPrefix(prefix) && $0 != old }) {
        left.remove(at: new)
      } else {
        lost.append(prefix + swap.new.lowercased())
      }
    }
    return lost + Self.missing(wanted, from: left)
  }

  /// The entries of `wanted` that `have` does not hold, each counted as often as it
  /// stands (two cities wanted, one found: one missing).
  static func missing(_ wanted: [String], from have: [String]) -> [String] {
    var left = have
    return wanted.filter { entry in
      guard let index = left.firstIndex(of: entry) else { return true }
      left.remove(at: index)
      return false
    }
  }

  /// What the variant has that the example did not (an entity found in a typo); not
  /// the labels of marks the bot missed as written, nor a swap's new value.
  public var extraEntities: [String] {
    guard var left = example.expectedEntities, var found = foundEntities else { return [] }
    var excused = Set(
      example.entitiesMissedAsWritten.compactMap { $0.split(separator: "=").first.map(String.init) }
    )
    if let swap = variant.swap, !swap.label.isEmpty {
      excused.insert(swap.label)
      left.removeAll { $0.hasPrefix(swap.label + "=") }
    }
    found.removeAll { entry in excused.contains(String(entry.split(separator: "=").first ?? "")) }
    return Self.missing(found, from: left)
  }
}
