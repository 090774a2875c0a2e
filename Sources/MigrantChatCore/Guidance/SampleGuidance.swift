import Foundation

/// The sample guidance embedded in the binary: five topics, marked as sample
/// in its JSON (`sample`, `notice`), so the offline assistant works on first run.
public enum SampleGuidance {
  public static var tagsPayload: Data { Data(PackageResources.faq_tags_json) }
  public static var itemsPayload: Data { Data(PackageResources.faq_items_json) }

  public static func tree() -> GuidanceTree {
    GuidanceTree(
      tags: (try? ItemsPayloadDecoder.faqTags(tagsPayload).items) ?? [],
      items: (try? ItemsPayloadDecoder.faqItems(itemsPayload).items) ?? [], isSample: true)
  }
}
