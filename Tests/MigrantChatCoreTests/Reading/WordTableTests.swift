import MigrantChatCore
import Testing

@Suite struct WordTableTests {
  /// More than one block of 16, with shared beginnings, Cyrillic and Latin.
  static let words: [String: Double] = {
    var words: [String: Double] = [
      "посвідки": 2.8, "посвідкою": 2.0, "посвідчення": 4.1, "привет": 4.5, "при": 6.0,
      "сім'я": 3.9, "ёлка": 3.0, "ґанок": 2.5, "residence": 4.2, "re-entry": 2.1,
    ]
    for index in 0..<40 { words["слово\(String(repeating: "а", count: index % 7))б\(index)"] = 2.0 }
    return words.filter { WordTable.key($0.key) != nil }
  }()

  @Test func everyWordIsFoundWithItsFrequency() throws {
    let table = WordTable(words: Self.words)
    #expect(table.count == Self.words.count)
    for (word, zipf) in Self.words {
      let found = try #require(table.zipf(word), "\(word)")
      // Kept in quarters of a Zipf step.
      #expect(abs(found - zipf) <= 0.125, "\(word)")
    }
    #expect(table.zipf("посвідка") == nil)
    #expect(table.zipf("прив") == nil)
    #expect(table.zipf("яяя") == nil)
    #expect(table.zipf("") == nil)
    #expect(table.zipf("hello!") == nil)
  }

  @Test func prefixesAndTheFormsOfAWord() throws {
    let table = WordTable(words: Self.words)
    func key(_ word: String) throws -> [UInt8] { try #require(WordTable.key(word)) }
    #expect(table.hasPrefix(try key("посвід")))
    #expect(table.hasPrefix(try key("при")))
    #expect(!table.hasPrefix(try key("посвідка")))
    #expect(!table.hasPrefix(try key("яя")))
    let starting = table.words(startingWith: try key("посвід"), limit: 10)
    #expect(starting.map { WordTable.word($0.key) } == ["посвідки", "посвідкою", "посвідчення"])
    // "посвідка" is read from "посвідки", a little rarer.
    let inflected = try #require(table.inflectedZipf(key: try key("посвідка")))
    #expect(abs(inflected - (2.75 - WordTable.inflectionCost)) < 0.01)
    #expect(table.inflectedZipf(key: try key("при")) == nil)
  }

  @Test func aTableOfNothingFindsNothing() {
    let table = WordTable(words: [:])
    #expect(table.count == 0)
    #expect(table.zipf("а") == nil)
    #expect(!table.hasPrefix([0x80]))
  }

  @Test func bytesThatAreNotATableAreRefused() {
    let junk: [UInt8] = Array("not a table at all".utf8)
    junk.withUnsafeBytes { bytes in
      #expect(WordTable(static: bytes) == nil)
    }
    let empty: [UInt8] = []
    empty.withUnsafeBytes { bytes in
      #expect(WordTable(static: bytes) == nil)
    }
  }
}
