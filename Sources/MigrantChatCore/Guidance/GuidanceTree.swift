import Foundation
import Synchronization

/// What the tree's shape needs of a guide, without its texts: where it hangs.
public struct FaqOutline: Sendable, Hashable {
  public var id: Int64
  public var parentID: Int64?
  public var tags: [Int64]

  public init(id: Int64, parentID: Int64?, tags: [Int64]) {
    self.id = id
    self.parentID = parentID
    self.tags = tags
  }

  public init(_ item: FaqItem) {
    self.init(id: item.id, parentID: item.parentID, tags: item.tags)
  }
}

/// The guidance (FAQ) tree: topics, their guides, and each guide's answers and steps.
///
/// Built from the flat tables. A tree from the cache (`init(tags:outline:...)`)
/// knows its topics from the guides' outlines, and reads the guides themselves, with
/// their texts in every language, the first time one is asked for: the offline
/// assistant's first answer is the list of topics, and parsing every guide before it
/// was a quarter of its instructions (#50). Free-text search uses a per-language
/// index built the first time that language is searched.
public final class GuidanceTree: Sendable {
  /// Topics in their order, then by id.
  public let tags: [FaqTag]
  /// The topics that have guides.
  private let topicIDs: Set<Int64>
  private let hasGuides: Bool
  private let content: Mutex<Content?>
  private let load: @Sendable () -> [FaqItem]
  private let indexes = Mutex<[Language: SearchIndex]>([:])

  /// The guides, answers and steps, by id, and how they hang together.
  private struct Content: Sendable {
    let items: [Int64: FaqItem]
    /// Children in order: answers (not tasks) and steps (tasks) together.
    let children: [Int64: [FaqItem]]
    /// Top-level guides per tag; guides with no known tag are under `untaggedID`.
    let guidesByTag: [Int64: [FaqItem]]
  }

  /// The pseudo-topic of guides that have no known tag.
  public static let untaggedID: Int64 = -1

  /// The embedded sample's made-up guidance: every guide shown from it says so.
  public let isSample: Bool

  public convenience init(tags: [FaqTag], items: [FaqItem], isSample: Bool = false) {
    self.init(tags: tags, outline: items.map(FaqOutline.init), isSample: isSample) { items }
    _ = loaded
  }

  /// A tree whose guides are read by `load` when first needed; `outline` is theirs.
  ///
  /// The outline and the guides are read apart: when the guides have changed in
  /// between (a sync in another process), a topic the outline offered may have none
  /// left, which the assistant says.
  public init(
    tags: [FaqTag], outline: [FaqOutline], isSample: Bool = false,
    load: @escaping @Sendable () -> [FaqItem]
  ) {
    self.isSample = isSample
    self.tags = Self.ordered(tags, \.order, \.id)
    let tagIDs = Set(tags.map(\.id))
    var topics: Set<Int64> = []
    for guide in outline where guide.parentID == nil {
      let known = guide.tags.filter(tagIDs.contains)
      topics.formUnion(known.isEmpty ? [Self.untaggedID] : known)
    }
    topicIDs = topics
    hasGuides = !outline.isEmpty
    content = Mutex(nil)
    self.load = load
  }

  private static func ordered<T>(_ values: [T], _ order: (T) -> Int?, _ id: (T) -> Int64) -> [T] {
    values.sorted { (order($0) ?? Int.max, id($0)) < (order($1) ?? Int.max, id($1)) }
  }

  /// The guides, read (once) when first needed.
  private var loaded: Content {
    content.withLock { content in
      if let content { return content }
      let items = load()
      let byID = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
      var children: [Int64: [FaqItem]] = [:]
      var guides: [Int64: [FaqItem]] = [:]
      let tagIDs = Set(tags.map(\.id))
      for item in byID.values {
        if let parent = item.parentID, byID[parent] != nil, parent != item.id {
          children[parent, default: []].append(item)
        } else if item.parentID == nil {
          let known = item.tags.filter(tagIDs.contains)
          for tag in known.isEmpty ? [Self.untaggedID] : known {
            guides[tag, default: []].append(item)
          }
        }
      }
      let built = Content(
        items: byID, children: children.mapValues { Self.ordered($0, \.order, \.id) },
        guidesByTag: guides.mapValues { Self.ordered($0, \.order, \.id) })
      content = built
      return built
    }
  }

  public static let empty = GuidanceTree(tags: [], items: [])

  /// The guides, answers and steps by id (read from the cache on first use).
  public var items: [Int64: FaqItem] { loaded.items }

  public var isEmpty: Bool { !hasGuides }

  /// The topics to offer: tags that have guides, plus "other" when some guides have none.
  public var topics: [FaqTag] {
    tags.filter { topicIDs.contains($0.id) }
  }

  public var hasUntaggedGuides: Bool { topicIDs.contains(Self.untaggedID) }

  public func guides(tag: Int64) -> [FaqItem] { loaded.guidesByTag[tag] ?? [] }

  public func answers(of item: FaqItem) -> [FaqItem] {
    (loaded.children[item.id] ?? []).filter { !$0.isTask }
  }

  public func steps(of item: FaqItem) -> [FaqItem] {
    (loaded.children[item.id] ?? []).filter(\.isTask)
  }

  // MARK: - Search

  /// The guides that best match `query` in `language`, best first.
  ///
  /// The query goes through `SearchQuery` and `KeyVocabulary` as the contact
  /// search does (any script, other forms of a word, typos, small words left
  /// out). A word in a title counts three times as much as one in the text,
  /// one in the guide's topic name twice; an exact word more than a prefix, a
  /// prefix more than a stem, a stem more than a typo; rarer words count more,
  /// so "how do I get health insurance" ranks the insurance guide above
  /// everything that says "get". An answer or a step is never a result alone:
  /// it stands for the guide whose question it answers.
  public func search(
    _ query: String, language: Language, stemmer: any WordStemmer = LightStemmer(),
    limit: Int = 5
  ) -> [FaqItem] {
    searchReading(query, language: language, stemmer: stemmer, limit: limit).guides
  }

  /// `search`, and the query as it was read when not as typed: typed with the
  /// other keyboard layout on (`KeyboardLayout`, "cnhf[jdrf" read as "страховка").
  public func searchReading(
    _ query: String, language: Language, stemmer: any WordStemmer = LightStemmer(),
    limit: Int = 5
  ) -> (guides: [FaqItem], readAs: String?) {
    let parsed = SearchQuery(query, stemmer: stemmer)
    guard !parsed.isEmpty, !items.isEmpty else { return ([], nil) }
    let index = searchIndex(language)
    var (scores, unmatched) = Self.scores(parsed, index)
    var readAs: String?
    // A reading with fewer words that match nothing is the one meant.
    if unmatched > 0 || !parsed.isSubstantial {
      let readings = KeyboardLayout.readings(
        of: query, preferring: KeyboardLayout.preferred(for: language)
      ) { index.vocabulary.strength(of: SearchQuery($0, stemmer: stemmer)) }
      for reading in readings {
        let readQuery = SearchQuery(reading, stemmer: stemmer)
        guard readQuery.isSubstantial else { continue }
        let other = Self.scores(readQuery, index)
        // Fewer words found nowhere; or as many, when the words as typed were only
        // one- or two-letter starts ("[t," is хеб).
        let better =
          other.unmatched < unmatched || (other.unmatched == unmatched && !parsed.isSubstantial)
        if better && !other.scores.isEmpty {
          (scores, unmatched) = other
          readAs = reading
        }
      }
    }
    let ranked = scores.sorted { left, right in
      left.value != right.value
        ? left.value > right.value : index.ids[left.key] < index.ids[right.key]
    }
    // Weak matches (a common word alone) are left out when there are strong ones.
    let bestScore = ranked.first?.value ?? 0
    let guides = ranked.prefix(limit).filter { $0.value >= bestScore / 3 }.compactMap {
      items[index.ids[$0.key]]
    }
    return (guides, readAs)
  }

  /// Each guide's score for `query`, and how many of its words matched nothing.
  /// A group (an office kind's names, a postcode) counts as one word, with each
  /// guide's best alternative, an alternative weighing what its weakest word does.
  private static func scores(_ query: SearchQuery, _ index: SearchIndex) -> (
    scores: [Int: Double], unmatched: Int
  ) {
    /// Per guide, a word's best weight.
    func weights(_ term: SearchQuery.Term) -> [Int: Double] {
      var best: [Int: Double] = [:]
      index.vocabulary.matches(term) { word, match in
        let strength = [1.0, 0.8, 0.6, 0.4][match.rawValue]
        for (field, weight) in [(0, 3.0), (1, 2.0), (2, 1.0)] {
          for position in index.postings[field][word] {
            best[position] = max(best[position] ?? 0, strength * weight)
          }
        }
      }
      return best
    }
    let groups = query.groups.map { group in
      var best: [Int: Double] = [:]
      for alternative in group.alternatives {
        let each = alternative.map(weights)
        guard var weakest = each.first else { continue }
        for other in each.dropFirst() {
          weakest = weakest.reduce(into: [:]) { kept, entry in
            if let weight = other[entry.key] { kept[entry.key] = min(entry.value, weight) }
          }
        }
        for (position, weight) in weakest { best[position] = max(best[position] ?? 0, weight) }
      }
      return best
    }
    var scores: [Int: Double] = [:]
    var unmatched = 0
    for best in query.terms.map(weights) + groups {
      guard !best.isEmpty else {
        unmatched += 1
        continue
      }
      let rarity = log(1 + Double(index.ids.count) / Double(best.count))
      for (position, weight) in best { scores[position, default: 0] += rarity * weight }
    }
    return (scores, unmatched)
  }

  /// The item a search shows for `item`: an answer or a step, at any depth,
  /// stands for the top-level guide it belongs to.
  func searchResult(for item: FaqItem) -> FaqItem {
    var current = item
    var seen: Set<Int64> = [item.id]
    while let parent = current.parentID, let above = items[parent], seen.insert(parent).inserted {
      current = above
    }
    return current
  }

  private func searchIndex(_ language: Language) -> SearchIndex {
    if let built = indexes.withLock({ $0[language] }) { return built }
    let index = SearchIndex(tree: self, language: language)
    indexes.withLock { $0[language] = index }
    return index
  }
}

/// Keys of the guides' titles, topic names and texts, with the guides they occur in.
///
/// Answers and steps are indexed under the guide they belong to (their text
/// counts as that guide's text), so a search never shows them alone.
private struct SearchIndex: Sendable {
  /// Searchable guides: every item that is not an answer or a step.
  let ids: [Int64]
  let vocabulary: KeyVocabulary
  /// Per field (title, topic, text), per vocabulary key: positions in `ids`.
  let postings: [[[Int]]]

  init(tree: GuidanceTree, language: Language) {
    let guides = tree.items.values.filter { tree.searchResult(for: $0).id == $0.id }
      .sorted { $0.id < $1.id }
    let positions = Dictionary(
      guides.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
    let tagNames = Dictionary(
      tree.tags.map { ($0.id, $0.name(in: language)) }, uniquingKeysWith: { a, _ in a })
    var fields: [[String: Set<Int>]] = [[:], [:], [:]]
    func add(_ text: String, field: Int, position: Int) {
      for key in SearchText.keys(text) { fields[field][key, default: []].insert(position) }
    }
    for item in tree.items.values {
      guard let position = positions[tree.searchResult(for: item).id] else { continue }
      let isGuide = positions[item.id] != nil
      // An answer's title is part of its question's text; a guide's title is its title.
      add(item.title(in: language), field: isGuide ? 0 : 2, position: position)
      add(HTMLText.plain(item.text(in: language)), field: 2, position: position)
      add(item.question(in: language) ?? "", field: 2, position: position)
      add(HTMLText.plain(item.warning(in: language) ?? ""), field: 2, position: position)
      add(HTMLText.plain(item.help(in: language) ?? ""), field: 2, position: position)
      if isGuide {
        for tag in item.tags { add(tagNames[tag] ?? "", field: 1, position: position) }
      }
    }
    ids = guides.map(\.id)
    let vocabulary = KeyVocabulary(keys: fields.flatMap(\.keys))
    self.vocabulary = vocabulary
    postings = fields.map { field in
      vocabulary.keys.map { key in
        (field[String(decoding: key, as: UTF8.self)] ?? []).sorted()
      }
    }
  }
}
