import Foundation
import TestSupport
import Testing

@testable import MigrantChatCore

/// The table-driven paths a sync takes for every contact give what the plain
/// definitions give: keys from `SearchText.spelling` one scalar at a time, sort
/// keys from folding the runs between alphabet letters.
@Suite struct ScalarSpellingsTests {
  static let written = [
    "Mečová 12, Brno", "Интеграционный центр Праха", "Центр ДЛЯ іноземців", "Zzzz Immigration",
    "Frýdek–Místek", "O’Brien ʼ x", "й decomposed и\u{0306}", "Ƕ ǅ ß Łódź Øresund", "😀 emoji 東京",
    "Ѣ ѣ Ґ ґ Ї ї Є є Ё ё", "tab\tnew\nline", "", "  ", "1000 2000", "Ünïcödé ÀÉÎÕÜ", "Ελλάδα ͺ;",
    "Карлсбад-Їглава", "Київ—Прага", "\u{0301}leading", "ﬁ ligature", "Ｆｕｌｌ width", "½ ² ١٢٣",
  ]

  /// The written strings and 2,000 random ones from letters of every kind the tables hold.
  static var strings: [String] {
    var generator = SeededRandom(seed: 15)
    let pool = Array("aбвгґдеєжзиіїйкlmnoПРСТÚŮýžšč ,.-'’ʼ\u{0306}\u{0301}😀–ЁёÄäß1234567890Ѣ")
    return written
      + (0..<2_000).map { _ in
        let count = Int(generator.next() % 20)
        return String((0..<count).map { _ in pool[Int(generator.next() % UInt64(pool.count))] })
      }
  }

  /// `SearchText.keys` as defined: each scalar spelled on its own, a letter
  /// doubled in a key written once (but not a longer run).
  static func referenceKeys(_ text: String) -> [String] {
    var keys: [String] = []
    var key: [UInt8] = []
    var last: UInt8 = 0
    var run = 0
    for scalar in SearchText.composed(text).unicodeScalars {
      guard let spelt = SearchText.spelling(scalar) else {
        if !key.isEmpty { keys.append(String(decoding: key, as: UTF8.self)) }
        (key, last, run) = ([], 0, 0)
        continue
      }
      for byte in spelt.utf8 {
        run = byte == last ? run + 1 : 1
        last = byte
        if run != 2 || !(0x61...0x7A).contains(byte) { key.append(byte) }
      }
    }
    if !key.isEmpty { keys.append(String(decoding: key, as: UTF8.self)) }
    return keys
  }

  @Test func keysAreEachScalarSpelled() {
    for text in Self.strings {
      #expect(SearchText.keys(text) == Self.referenceKeys(text), "\(text.debugDescription)")
    }
    #expect(SearchText.keys("Immigration Zzzz") == ["imigration", "zzz"])
  }

  @Test func keyTextJoinsTheKeysOfEveryText() {
    let texts = Array(Self.written.prefix(6))
    #expect(SearchText.keyText(texts) == texts.flatMap(SearchText.keys).joined(separator: " "))
    #expect(SearchText.keyText([]) == "")
    #expect(SearchText.keyText(["", "!!", "Brno"]) == "brno")
  }

  @Test func sortKeysAreTheRunsFolded() {
    for text in Self.strings {
      let composed = SearchText.composed(text)
      #expect(
        SortKey.make(text, language: .ru) == SortKey.byRuns(composed, places: SortKey.russian),
        "\(text.debugDescription)")
      #expect(
        SortKey.make(text, language: .uk) == SortKey.byRuns(composed, places: SortKey.ukrainian),
        "\(text.debugDescription)")
    }
  }

  @Test func foldUsesFoundationAboveTheTable() {
    for text in Self.strings where text.unicodeScalars.contains(where: { $0.value >= 0x500 }) {
      #expect(SearchText.fold(text) == SearchText.foundationFold(text), "\(text.debugDescription)")
    }
    #expect(SearchText.fold("Mečová ЦЕНТР") == "mecova центр")
  }

  /// Folded in one call to Foundation, every scalar is as folded on its own.
  @Test func scalarsFoldedTogetherAreFoldedAlone() {
    for value in 0..<ScalarSpellings.count {
      guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
      #expect(
        SearchText.foldedScalars[value] == SearchText.foundationFold(String(Character(scalar))),
        "U+\(String(value, radix: 16))")
    }
  }
}
