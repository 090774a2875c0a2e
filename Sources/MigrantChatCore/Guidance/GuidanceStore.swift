/// Where the guidance tables are kept: the same rebuildable cache as contacts.
public protocol GuidanceStore: Sendable {
  /// Both tables as stored; empty when never loaded.
  func guidance() throws(DirectoryError) -> (tags: [FaqTag], items: [FaqItem])
  func replaceFaqTags(_ tags: [FaqTag], source: DirectorySource) throws(DirectoryError)
  func replaceFaqItems(_ items: [FaqItem], source: DirectorySource) throws(DirectoryError)
  /// Where each table came from (`faq_tags`, `faq_items`); nil when never loaded.
  func guidanceSource(_ table: String) throws(DirectoryError) -> DirectorySource?
  /// The topics, the guides' outlines, and whether the guides are the sample's: what
  /// a tree needs before its first guide is shown.
  func guidanceOutline() throws(DirectoryError) -> (
    tags: [FaqTag], outline: [FaqOutline], isSample: Bool
  )
}

extension GuidanceStore {
  /// The tree to walk: the stored tables, the guides read when first needed. A
  /// store that cannot be read then gives a tree without guides.
  public func tree() -> GuidanceTree {
    guard let (tags, outline, sample) = try? guidanceOutline() else { return .empty }
    return GuidanceTree(tags: tags, outline: outline, isSample: sample) {
      (try? guidance().items) ?? []
    }
  }

  public func guidanceOutline() throws(DirectoryError) -> (
    tags: [FaqTag], outline: [FaqOutline], isSample: Bool
  ) {
    let (tags, items) = try guidance()
    let sample = (try? guidanceSource("faq_items"))??.isSample == true
    return (tags, items.map(FaqOutline.init), sample)
  }
}
