import Foundation

extension TurnInsight {
  /// The entities found, as `robustness` compares them: `label=value`, the value as
  /// text after the bot's synonyms, case folded.
  var foundEntities: [String] {
    entities.map { $0.entity + "=" + NLUPrediction.text(of: $0.value).lowercased() }.sorted()
  }
}

extension RobustnessOutcome {
  /// Whether the bot found in the variant the entities it found in the example as
  /// written (values after its synonyms); an entity-swap variant must have the new
  /// value instead of the old. True where entities were not asked for (answers).
  public var keepsEntities: Bool { lostEntities.isEmpty && extraEntities.isEmpty }

  /// What the example had that the variant lost (`city=brno`); for a swap, the new
  /// value not found (`city≠praha`).
  public var lostEntities: [String] {
    guard let expected = example.foundEntities, let found = foundEntities else { return [] }
    var left = found
    var lost: [String] = []
    var wanted = expected
    if let swap = variant.swap {
      // The old value goes; any other value of the label must come in its place.
      let prefix = swap.label + "="
      let old =
        wanted.firstIndex(of: prefix + swap.old.lowercased())
        ?? wanted.firstIndex { $0.hasPrefix(prefix) }
      if let old {
        let oldEntry = wanted.remove(at: old)
        if let new = left.firstIndex(where: { $0.hasPrefix(prefix) && $0 != oldEntry }) {
          left.remove(at: new)
        } else {
          lost.append(swap.label + "=" + swap.new.lowercased())
        }
      }
    }
    for entry in wanted {
      if let index = left.firstIndex(of: entry) {
        left.remove(at: index)
      } else {
        lost.append(entry)
      }
    }
    return lost
  }

  /// What the variant has that the example did not (an entity found in a typo).
  public var extraEntities: [String] {
    guard let expected = example.foundEntities, let found = foundEntities else { return [] }
    var left = expected
    var extra: [String] = []
    var candidates = found
    if let swap = variant.swap {
      let prefix = swap.label + "="
      if let old = left.firstIndex(where: { $0.hasPrefix(prefix) }),
        let new = candidates.firstIndex(where: { $0.hasPrefix(prefix) && $0 != left[old] })
      {
        left.remove(at: old)
        candidates.remove(at: new)
      }
    }
    for entry in candidates {
      if let index = left.firstIndex(of: entry) {
        left.remove(at: index)
      } else {
        extra.append(entry)
      }
    }
    return extra
  }
}
