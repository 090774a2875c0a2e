import Testing

@testable import MigrantChatCore

/// The byte-by-byte paths for ASCII (#20: they run on every turn of the chat and
/// of `replay`) give what the Unicode paths give.
@Suite struct TitleMatchTests {
  /// Every ASCII byte, alone and between letters, and random ASCII lines.
  @Test func asciiKeysAreTheUnicodeKeys() {
    var texts: [String] = []
    for byte in UInt8(0)..<0x80 {
      let character = String(decoding: [byte], as: UTF8.self)
      texts += [character, "Ab" + character + "Cd", character + " x " + character]
    }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let length = Int.random(in: 0...24, using: &generator)
      texts.append(
        String(
          decoding: (0..<length).map { _ in UInt8.random(in: 0..<0x80, using: &generator) },
          as: UTF8.self))
    }
    texts += ["Yes, employed!", "  work -- permit  ", "it's", "`quoted`", "A_B", "tab\there"]
    for text in texts {
      #expect(TitleMatch.asciiKey(text) == TitleMatch.unicodeKey(text), "\(Array(text.utf8))")
    }
  }

  @Test func asciiDistancesAreTheCharacterDistances() {
    let words = [
      "", "a", "permit", "permits", "premit", "health insurance", "helth insurance",
      "residence", "residnce permit", "work", "wrok", "xyz",
    ]
    for a in words {
      for b in words {
        for limit in 0...3 {
          #expect(
            TitleMatch.distance(a, b, limit: limit)
              == TitleMatch.distance(Array(a), Array(b), limit: limit), "\(a) / \(b) / \(limit)")
        }
      }
    }
    #expect(TitleMatch.distance("permit", "premit", limit: 2) == 2)
    #expect(TitleMatch.distance("permit", "permits", limit: 1) == 1)
    #expect(TitleMatch.distance("work", "xyz", limit: 2) == nil)
    #expect(TitleMatch.distance("жилье", "жильё", limit: 1) == 1)
  }
}
