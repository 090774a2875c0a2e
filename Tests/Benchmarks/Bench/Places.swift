import Foundation
import MigrantChatCore

/// The place tables' first use, one lookup, and a map, in process: where
/// `contacts near`'s time goes beyond a process start.
func benchPlaces() {
  let clock = ContinuousClock()
  let tables = clock.measure { _ = (PlaceTable.czech.count, PlaceTable.abroad.count) }
  // The first lookup builds the names' keys and their index.
  let entries = clock.measure { _ = PlaceLookup.find("Olomouc") }
  let outline = clock.measure { _ = MapOutline.czechia.borders.count }
  let queries = ["Olomouc", "около Оломоуца", "u Brna", "jkjvjew", "Olomuc", "49.59,17.25"]
  var times: [Double] = []
  for _ in 0..<20 {
    for query in queries {
      times.append(milliseconds(clock.measure { _ = PlaceLookup.find(query) }))
    }
  }
  times.sort()
  let map = clock.measure {
    let office = try? OfficeFinder.map(
      SampleDirectory.contacts(), text: "Olomouc", home: nil, within: nil, isSample: true)
    _ = office?.drawing(columns: 120, maxRows: 40)
  }
  print(
    "place tables read: \(milliseconds(tables)) ms; first lookup (names' keys, index): "
      + "\(milliseconds(entries)) ms; outline: \(milliseconds(outline)) ms")
  print(
    "lookup p50 \(percentile(times, 0.5)) ms, p99 \(percentile(times, 0.99)) ms; map at 120 columns: \(milliseconds(map)) ms"
  )
  figure("places_tables_ms", milliseconds(tables))
  figure("places_keys_ms", milliseconds(entries))
  figure("places_lookup_p50_ms", percentile(times, 0.5))
}
