import Foundation
import Synchronization

/// The guidance (FAQ) tree: topics, their guides, and each guide's answers and steps.
///
/// Built once from the flat tables; free-text search uses a per-language
/// index built the first time that language is searched.
public final class GuidanceTree: Sendable {
  /// Topics in their order, then by id.
  public let tags: [FaqTag]
  public let items: [Int64: FaqItem]
  /// Children in order: answers (not tasks) and steps (tasks) together.
  private let children: [Int64: [FaqItem]]
  /// Top-level guides per tag; guides with no known tag are under `untaggedID`.
  private let guidesByTag: [Int64: [FaqItem]]
  private let indexes = Mutex<[Language: SearchIndex]>([:])

  /// The pseudo-topic of guides that have no known tag.
  public static let untaggedID: Int64 = -1

  /// The embedded sample's made-up guidance: every guide shown from it says so.
  public let isSample: Bool

  public init(tags: [FaqTag], items: [FaqItem], isSample: Bool = false) {
    self.isSample = isSample
    func ordered<T>(_ values: [T], _ order: (T) -> Int?, _ id: (T) -> Int64) -> [T] {
      values.sorted { (order($0) ?? Int.max, id($0)) < (order($1) ?? Int.max, id($1)) }
    }
    self.tags = ordered(tags, \.order, \.id)
    let byID = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    self.items = byID
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
    self.children = children.mapValues { ordered($0, \.order, \.id) }
    self.guidesByTag = guides.mapValues { ordered($0, \.order, \.id) }
  }

  public static let empty = GuidanceTree(tags: [], items: [])

  public var isEmpty: Bool { items.isEmpty }

  /// The topics to offer: tags that have guides, plus "other" when some guides have none.
  public var topics: [FaqTag] {
    tags.filter { guidesByTag[$0.id] != nil }
  }

  public var hasUntaggedGuides: Bool { guidesByTag[Self.untaggedID] != nil }

  public func guides(tag: Int64) -> [FaqItem] { guidesByTag[tag] ?? [] }

  public func answers(of item: FaqItem) -> [FaqItem] {
    (children[item.id] ?? []).filter { !$0.isTask }
  }

  public func steps(of item: FaqItem) -> [FaqItem] {
    (children[item.id] ?? []).filter(\.isTask)
  }

  // MARK: - Search

  /// The items that best match `query` in `language`, best first.
  ///
  /// Every word of the query is a prefix ("insur" finds "insurance"), case
  /// and diacritics are ignored; a word in a title counts three times as much
  /// as one in the text, and rarer words count more, so "how do I get health
  /// insurance" ranks the insurance guide above everything that says "get".
  public func search(_ query: String, language: Language, limit: Int = 5) -> [FaqItem] {
    let terms = Array(Set(SearchText.terms(query).filter { $0.count >= 2 }))
    guard !terms.isEmpty, !items.isEmpty else { return [] }
    let index = searchIndex(language)
    var scores: [Int: Double] = [:]
    for term in terms {
      let (inTitle, inText) = index.matches(prefix: term)
      let found = inTitle.union(inText)
      guard !found.isEmpty else { continue }
      let rarity = log(1 + Double(index.ids.count) / Double(found.count))
      for position in found {
        scores[position, default: 0] += rarity * (inTitle.contains(position) ? 3 : 1)
      }
    }
    let ranked = scores.sorted { left, right in
      left.value != right.value
        ? left.value > right.value : index.ids[left.key] < index.ids[right.key]
    }
    // Weak matches (a common word alone) are left out when there are strong ones.
    let best = ranked.first?.value ?? 0
    return ranked.prefix(limit).filter { $0.value >= best / 3 }.compactMap {
      items[index.ids[$0.key]]
    }
  }

  private func searchIndex(_ language: Language) -> SearchIndex {
    if let built = indexes.withLock({ $0[language] }) { return built }
    let index = SearchIndex(items: items.values.sorted { $0.id < $1.id }, language: language)
    indexes.withLock { $0[language] = index }
    return index
  }
}

/// Folded words of titles and texts, sorted, with the items they occur in.
private struct SearchIndex: Sendable {
  let ids: [Int64]
  let words: [String]
  let titlePostings: [[Int]]
  let textPostings: [[Int]]

  init(items: [FaqItem], language: Language) {
    var title: [String: Set<Int>] = [:]
    var text: [String: Set<Int>] = [:]
    for (position, item) in items.enumerated() {
      for word in SearchText.terms(item.title(in: language)) {
        title[word, default: []].insert(position)
      }
      let body = HTMLText.plain(item.text(in: language)) + " " + (item.question(in: language) ?? "")
      for word in SearchText.terms(body) { text[word, default: []].insert(position) }
    }
    ids = items.map(\.id)
    words = Set(title.keys).union(text.keys).sorted()
    titlePostings = words.map { title[$0].map { Array($0) } ?? [] }
    textPostings = words.map { text[$0].map { Array($0) } ?? [] }
  }

  /// Items with a word starting with `prefix`, in titles and in texts.
  func matches(prefix: String) -> (title: Set<Int>, text: Set<Int>) {
    var low = 0
    var high = words.count
    while low < high {
      let middle = (low + high) / 2
      if words[middle] < prefix { low = middle + 1 } else { high = middle }
    }
    var inTitle = Set<Int>()
    var inText = Set<Int>()
    var position = low
    while position < words.count, words[position].hasPrefix(prefix) {
      inTitle.formUnion(titlePostings[position])
      inText.formUnion(textPostings[position])
      position += 1
    }
    return (inTitle, inText)
  }
}
