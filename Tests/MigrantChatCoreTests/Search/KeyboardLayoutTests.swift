import Testing

@testable import MigrantChatCore

/// The layouts against US QWERTY, row by row as xkeyboard-config's `symbols/ru`
/// (basic) and `symbols/ua` (basic) lay them out, and Windows' Russian and
/// "Ukrainian (Enhanced)" layouts agree.
@Suite struct KeyboardLayoutTests {
  @Test(arguments: [
    (KeyboardLayout.russian, "`qwertyuiop[]", "ёйцукенгшщзхъ"),
    (.russian, "asdfghjkl;'", "фывапролджэ"),
    (.russian, "zxcvbnm,.", "ячсмитьбю"),
    (.russian, "~QWERTYUIOP{}", "ЁЙЦУКЕНГШЩЗХЪ"),
    (.russian, "ASDFGHJKL:\"ZXCVBNM<>", "ФЫВАПРОЛДЖЭЯЧСМИТЬБЮ"),
    (.ukrainian, "qwertyuiop[]\\", "йцукенгшщзхїґ"),
    (.ukrainian, "asdfghjkl;'", "фівапролджє"),
    (.ukrainian, "zxcvbnm,.", "ячсмитьбю"),
    (.ukrainian, "S}\"|", "ІЇЄҐ"),
  ])
  func latinKeysReadAsCyrillic(layout: KeyboardLayout, keys: String, letters: String) {
    #expect(layout.switched(keys) == letters)
  }

  /// The issue's examples, and the other way: Cyrillic read as the Latin keys.
  @Test(arguments: [
    ("ghfuf", "прага"), (",hyj", "брно"), ("vtlbwbycrfz cnhf[jdrf", "медицинская страховка"),
    ("иктщ", "brno"), ("ЗКФРФ", "PRAHA"), ("щфьз ыуксу", "oamp serce"),
  ])
  func issueExamples(typed: String, meant: String) {
    #expect(KeyboardLayout.russian.switched(typed) == meant)
  }

  @Test func ukrainianLettersAreReadBack() {
    #expect(KeyboardLayout.ukrainian.switched("]ukfdf") == "їглава")
    #expect(KeyboardLayout.russian.switched("їглава") == "]ukfdf")
    #expect(KeyboardLayout.russian.switched("сіія") == "cssz")
    #expect(KeyboardLayout.russian.switched("сыыя") == "cssz")
  }

  @Test func whatNoKeyChangesStays() {
    #expect(KeyboardLayout.russian.switched("602 00") == nil)
    #expect(KeyboardLayout.russian.switched("") == nil)
    #expect(KeyboardLayout.russian.switched("  ") == nil)
    #expect(KeyboardLayout.russian.switched("ghfuf  602 00\t") == "прага  602 00\t")
    #expect(KeyboardLayout.russian.switched("😀 ghfuf") == "😀 прага")
  }

  /// Chunk by chunk: a chunk is switched only when a layout reads it better.
  @Test func readingSwitchesOnlyTheChunksThatReadBetter() {
    let known = ["прага": 0, "brno": 0, "policie": 0, "cizinecka": 0, "в": 1, "d": 1]
    let strength: (String) -> Int? = { known[$0] }
    #expect(KeyboardLayout.reading(of: "ghfuf brno", strength: strength) == "прага brno")
    #expect(
      KeyboardLayout.reading(of: "ghfuf cizinecka policie", strength: strength)
        == "прага cizinecka policie")
    // A chunk of one or two letters goes with the others ("d" is a word start alone).
    #expect(KeyboardLayout.reading(of: "d ghfuf", strength: strength) == "в прага")
    #expect(KeyboardLayout.reading(of: "d brno", strength: strength) == nil)
    // Only in the same alphabet, and only a word unmatched as typed or a small word.
    let city: (String) -> Int? = { ["брно": 0, "mv": 0, "в": 1, "прагу": 0][$0.lowercased()] }
    #expect(KeyboardLayout.reading(of: "MV ,hyj", strength: city) == "MV брно")
    #expect(KeyboardLayout.reading(of: "в ghfue", strength: city) == "в прагу")
    #expect(KeyboardLayout.reading(of: "brno", strength: strength) == nil)
    #expect(KeyboardLayout.reading(of: "qqq", strength: strength) == nil)
  }

  @Test func readingsAreEachOnceAndNeverAsTyped() {
    let readings = KeyboardLayout.readings(of: "d ghfuf", strength: { $0 == "прага" ? 0 : nil })
    #expect(readings == ["в прага"])
    // The interface's layout first where both read alike.
    let cyrillic: (String) -> Int? = { KeyboardLayout.isCyrillic(Substring($0)) ? 0 : nil }
    let ukrainian = KeyboardLayout.readings(
      of: "wtynh pfqyznjcns", preferring: .ukrainian, strength: cyrillic)
    #expect(ukrainian.first == "центр зайнятості")
    #expect(
      KeyboardLayout.readings(of: "wtynh pfqyznjcns", strength: cyrillic).first
        == "центр зайнятосты")
    // A word typed right: the whole text is not switched, only the other word.
    let known: (String) -> Int? = { ["brno", "прага"].contains($0) ? 0 : nil }
    #expect(KeyboardLayout.readings(of: "ghfuf brno", strength: known) == ["прага brno"])
    #expect(KeyboardLayout.readings(of: "qwqw brno", strength: known).isEmpty)
    #expect(KeyboardLayout.readings(of: "602 00", strength: { _ in 0 }).isEmpty)
    // A pasted page costs what a query does.
    let long = String(repeating: "ghfuf ", count: 2_000)
    #expect(KeyboardLayout.reading(of: long, strength: { _ in nil }) == nil)
  }
}
