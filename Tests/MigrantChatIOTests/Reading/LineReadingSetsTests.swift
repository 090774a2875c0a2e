import Foundation
import MigrantChatCore
import Testing

@testable import MigrantChatIO

/// The typed-line reading (issue #48) as its users judge it, on two labelled sets
/// written by a helper who had not read the code (see SETS.md): `genuine.tsv`,
/// lines that must be sent as typed, and `garbled.tsv`, lines typed with the
/// English layout on or in Latin letters, with what was meant. The figures are
/// printed; the tests fail past the floors in docs/reading.md.
@Suite struct LineReadingSetsTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

  static func rows(_ file: String) throws -> [[String]] {
    let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
    return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
      $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }
  }

  /// The comparison SETS.md names: case, ё/е, the apostrophes and trailing stops aside.
  static func normalized(_ text: String) -> String {
    var text = text.lowercased().replacingOccurrences(of: "ё", with: "е")
    for apostrophe in ["’", "ʼ", "`"] {
      text = text.replacingOccurrences(of: apostrophe, with: "'")
    }
    while let last = text.last, ".?!,".contains(last) { text.removeLast() }
    return text.trimmingCharacters(in: .whitespaces)
  }

  static let reader = WordTables.builtIn.map { TypedLineReader(tables: $0) }

  @Test func theBuiltInTablesAreWhole() throws {
    let tables = try #require(WordTables.builtIn)
    // Tools/wordfreq's counts (its report); a word of each, and none made up.
    #expect(tables.english.count == 93_479)
    #expect(tables.czech.count == 191_746)
    #expect(tables.russian.count == 241_624)
    #expect(tables.ukrainian.count == 171_948)
    #expect(tables.english.zipf("residence") ?? 0 > 3)
    #expect(tables.czech.zipf("prodlouzeni") ?? 0 > 3)
    #expect(tables.russian.zipf("привет") ?? 0 > 4)
    #expect(tables.ukrainian.zipf("сім'я") ?? 0 > 3)
    #expect(tables.ukrainian.zipf("ghjljd;tyyz") == nil)
  }

  @Test func genuineLinesAreSentAsTyped() throws {
    let rows = try Self.rows("genuine.tsv")
    var rewritten: [String] = []
    for row in rows {
      let language = try #require(Language(code: row[0]))
      if let reading = try #require(Self.reader).reading(
        of: row[2], language: language, isName: KnownNames.isName)
      {
        rewritten.append("\(row[0]) \(row[1]): \(row[2]) → \(reading.text)")
      }
    }
    let share = Double(rewritten.count) / Double(rows.count)
    print(
      "genuine: \(rewritten.count) of \(rows.count) rewritten (\(String(format: "%.2f", share * 100)) %)"
    )
    for line in rewritten { print("  rewritten: \(line)") }
    #expect(rows.count >= 400)
    #expect(share <= 0.005)
  }

  @Test func garbledLinesAreReadAsMeant() throws {
    let rows = try Self.rows("garbled.tsv")
    var right: [String: (Int, Int)] = [:]
    var misses: [String] = []
    for row in rows {
      let language = try #require(Language(code: row[0]))
      let reading = try #require(Self.reader).reading(
        of: row[2], language: language, isName: KnownNames.isName)
      let ok = reading.map { Self.normalized($0.text) == Self.normalized(row[3]) } ?? false
      for key in [row[1], "\(row[1]) \(row[0])", "all"] {
        let (hits, total) = right[key] ?? (0, 0)
        right[key] = (hits + (ok ? 1 : 0), total + 1)
      }
      if !ok {
        misses.append(
          "\(row[0]) \(row[1]): \(row[2]) → \(reading?.text ?? "(as typed)") ≠ \(row[3])")
      }
    }
    for key in right.keys.sorted() {
      let (hits, total) = right[key]!
      print(
        "garbled \(key): \(hits) of \(total) read right (\(String(format: "%.1f", Double(hits) / Double(total) * 100)) %)"
      )
    }
    for line in misses { print("  missed: \(line)") }
    let (hits, total) = right["all"]!
    #expect(total >= 300)
    // The issue asks 90 %; the first run read 93.6 %, after fixes 96.7 % (docs/reading.md).
    #expect(Double(hits) / Double(total) >= 0.95)
    for kind in ["layout", "translit"] {
      let (kindHits, kindTotal) = right[kind]!
      #expect(Double(kindHits) / Double(kindTotal) >= 0.93, "\(kind)")
    }
  }
}
