/// Where the guidance tables are kept: the same rebuildable cache as contacts.
public protocol GuidanceStore: Sendable {
  /// Both tables as stored; empty when never loaded.
  func guidance() throws(DirectoryError) -> (tags: [FaqTag], items: [FaqItem])
  func replaceFaqTags(_ tags: [FaqTag], source: DirectorySource) throws(DirectoryError)
  func replaceFaqItems(_ items: [FaqItem], source: DirectorySource) throws(DirectoryError)
  /// Where each table came from (`faq_tags`, `faq_items`); nil when never loaded.
  func guidanceSource(_ table: String) throws(DirectoryError) -> DirectorySource?
}

extension GuidanceStore {
  /// The tree to walk: the stored tables.
  public func tree() -> GuidanceTree {
    guard let (tags, items) = try? guidance() else { return .empty }
    let sample = (try? guidanceSource("faq_items"))??.isSample == true
    return GuidanceTree(tags: tags, items: items, isSample: sample)
  }
}
