import Foundation
import MigrantChatCore
import Testing

/// The guidance cache's rows read by hand (`FaqItem.stored`) as `JSONDecoder` reads them.
struct FaqItemStoredTests {
  static func encoded<T: Encodable>(_ value: T) throws -> String {
    String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
  }

  @Test func everySampleRowReadsAsJSONDecoderReadsIt() throws {
    let tree = SampleGuidance.tree()
    let items = tree.items.values.sorted { $0.id < $1.id }
    let tags = tree.tags
    #expect(items.count >= 20)
    #expect(!tags.isEmpty)
    for item in items {
      let text = try Self.encoded(item)
      #expect(FaqItem.stored(text) == item, "\(item.id)")
      #expect(
        FaqItem.stored(text) == (try JSONDecoder().decode(FaqItem.self, from: Data(text.utf8))))
    }
    for tag in tags {
      #expect(FaqTag.stored(try Self.encoded(tag)) == tag, "\(tag.id)")
    }
  }

  @Test func unusualValuesRoundTrip() throws {
    var item = FaqItem(
      id: 9_007_199_254_740_993,  // past 2^53: a Double rounds it, so JSONDecoder reads it
      parentID: -4, title: "Ж\u{301}\"quoted\"\\ 🇨🇿 \u{0}\u{1F}", text: "", isTask: true)
    item.tags = [1, 2, 9_007_199_254_740_992]
    item.contacts = []
    item.question = ""
    item.order = -7
    item.localized = [
      .uk: FaqItem.Texts(title: "Дозвіл", text: "<p>текст</p>"), .en: FaqItem.Texts(),
    ]
    #expect(FaqItem.stored(try Self.encoded(item)) == item)
    let tag = FaqTag(id: 3, name: "Робота", order: nil, localizedNames: [.ru: "Работа"])
    #expect(FaqTag.stored(try Self.encoded(tag)) == tag)
  }

  @Test(arguments: [
    // What JSONDecoder refuses is refused: a missing field, another type, not an object.
    #"{"id":1,"text":"","isTask":false,"tags":[],"contacts":[],"localized":{}}"#,
    #"{"id":1,"title":"t","text":"","isTask":"yes","tags":[],"contacts":[],"localized":{}}"#,
    #"{"id":1.5,"title":"t","text":"","isTask":false,"tags":[],"contacts":[],"localized":{}}"#,
    #"{"id":1,"title":"t","text":"","isTask":false,"tags":["1"],"contacts":[],"localized":{}}"#,
    #"{"id":1,"title":"t","text":"","isTask":false,"tags":[],"contacts":[],"localized":[]}"#,
    #"{"id":1,"title":"t","text":"","isTask":false,"tags":[],"contacts":[]}"#,
    #"[1]"#, "not json", "",
  ])
  func whatJSONDecoderRefusesIsNoRow(text: String) {
    #expect(FaqItem.stored(text) == nil)
    #expect((try? JSONDecoder().decode(FaqItem.self, from: Data(text.utf8))) == nil)
  }

  @Test func nullsAndUnknownKeysAndLanguagesAreReadAsJSONDecoderReadsThem() throws {
    let text = #"""
      {"id":5,"parentID":null,"title":"t","text":"x","question":null,"isTask":false,
       "tags":[],"contacts":[138512],"order":null,"extra":{"a":[1]},
       "localized":{"de":{"title":"nein"},"ru":{"title":"да","help":null}}}
      """#
    let decoded = try JSONDecoder().decode(FaqItem.self, from: Data(text.utf8))
    #expect(FaqItem.stored(text) == decoded)
    #expect(decoded.localized.keys.sorted { $0.rawValue < $1.rawValue } == [.ru])
  }
}
