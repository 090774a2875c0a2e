import Foundation
import Testing

@testable import MigrantChatCore

/// Place names as people type them: a labelled set written by a tester who had not
/// read the lookup (`Fixtures/place-queries.tsv`: 240 queries in Russian, Ukrainian,
/// Czech, English, German and others, the wrong keyboard layout, coordinates, and
/// places that are not Czech towns). Measured once before the lookup was tuned
/// (91.2 %), then tuned against it; docs/places.md gives both figures.
@Suite struct PlaceQuerySetTests {
  struct Case: Sendable {
    var query: String
    var expected: String
    var category: String
  }

  static let cases = load("place-queries")
  static let heldOut = load("place-queries-heldout")

  static func load(_ name: String) -> [Case] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/\(name).tsv")
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").compactMap { line in
      guard !line.hasPrefix("#") else { return nil }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count >= 2 else { return nil }
      let note = fields.count > 2 ? fields[2] : ""
      return Case(
        query: fields[0], expected: fields[1],
        category: String(note.split(separator: " ").first ?? "?"))
    }
  }

  /// The Czech town a query was read as: the place found, or the town coordinates
  /// fall in; nil for none (unknown, abroad, out of range).
  static func answer(_ query: String) -> String? {
    guard let reading = try? NearbyPlace.resolve(query) else { return nil }
    switch reading.place {
    case .place(let place): return place.isAbroad ? nil : place.name
    case .point(let point):
      return MapOutline.czechia.holds(point) ? PlaceTable.nearest(to: point)?.place.name : nil
    case .home(let home): return home.name
    }
  }

  /// The share read as labelled, printed by category; the misses, for the message.
  static func score(_ cases: [Case], name: String) -> (share: Double, misses: [String]) {
    var byCategory: [String: (right: Int, all: Int)] = [:]
    var misses: [String] = []
    for item in cases {
      let got = Self.answer(item.query)
      let right = item.expected == "-" ? got == nil : got == item.expected
      byCategory[item.category, default: (0, 0)].all += 1
      if right {
        byCategory[item.category, default: (0, 0)].right += 1
      } else {
        misses.append("\(item.query) -> \(got ?? "none") (want \(item.expected))")
      }
    }
    let right = byCategory.values.map(\.right).reduce(0, +)
    let share = Double(right) / Double(max(1, cases.count))
    print(
      "\(name): \(right) of \(cases.count) (\(String(format: "%.1f", share * 100)) %); "
        + byCategory.sorted { $0.key < $1.key }.map {
          "\($0.key) \($0.value.right)/\($0.value.all)"
        }
        .joined(separator: ", "))
    return (share, misses)
  }

  @Test func theSetIsReadAsLabelled() {
    #expect(Self.cases.count == 240)
    let (share, misses) = Self.score(Self.cases, name: "place queries")
    #expect(share >= 0.97, "misses: \(misses.joined(separator: "; "))")
    // Never a Czech town for what is not one (a capital abroad, gibberish, an emoji).
    let none = Self.cases.filter { $0.expected == "-" }
    #expect(none.allSatisfy { Self.answer($0.query) == nil })
  }

  /// The second set, written after the lookup was tuned and measured once untouched
  /// (94.0 %); generic fixes since (endings as phones spell them, `N 49.5, E 17.2`)
  /// raised it, so it is no longer clean, and its floor is the first figure.
  @Test func theHeldOutSetIsReadAsLabelled() {
    #expect(Self.heldOut.count == 150)
    let (share, misses) = Self.score(Self.heldOut, name: "held-out place queries")
    #expect(share >= 0.94, "misses: \(misses.joined(separator: "; "))")
    #expect(Self.heldOut.filter { $0.expected == "-" }.allSatisfy { Self.answer($0.query) == nil })
  }
}
