import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct GeoPointTests {
  static let olomouc = GeoPoint(latitude: 49.59552, longitude: 17.25175)
  static let brno = GeoPoint(latitude: 49.19522, longitude: 16.60796)
  static let prague = GeoPoint(latitude: 50.08804, longitude: 14.42076)

  /// Straight-line distances as published (Olomouc–Brno about 64 km, Prague–Brno
  /// about 185 km, Prague–Olomouc about 210 km), and a distance to itself.
  @Test(arguments: [
    (olomouc, brno, 64.4), (prague, brno, 185.2), (prague, olomouc, 209.3), (brno, brno, 0.0),
  ])
  func knownDistances(from: GeoPoint, to: GeoPoint, km: Double) {
    #expect(abs(from.distance(to: to) - km) < 1.0, "\(from.distance(to: to))")
    #expect(abs(from.distance(to: to) - to.distance(to: from)) < 1e-9)
  }

  @Test func antipodesAreHalfTheWorldAway() {
    let distance = GeoPoint(latitude: 0, longitude: 0).distance(
      to: GeoPoint(latitude: 0, longitude: 180))
    #expect(abs(distance - .pi * GeoPoint.earthRadius) < 0.001)
  }

  @Test(arguments: [
    "49.59,17.25", "49.59, 17.25", "49.59 17.25", "49,59 17,25", "49.59;17.25", " 49.59 , 17.25 ",
    "49.59N 17.25E", "49.59° N, 17.25° E", "17.25E 49.59N", "geo:49.59,17.25",
    "geo:49.59,17.25?z=12",
  ])
  func coordinatesAsPeoplePasteThem(text: String) {
    #expect(GeoPoint.parse(text) == .point(GeoPoint(latitude: 49.59, longitude: 17.25)), "\(text)")
  }

  @Test func southAndWestAreNegative() {
    #expect(GeoPoint.parse("33.9S 18.4E") == .point(GeoPoint(latitude: -33.9, longitude: 18.4)))
    #expect(GeoPoint.parse("40.7, -74.0") == .point(GeoPoint(latitude: 40.7, longitude: -74)))
    #expect(GeoPoint.parse("40.7N 74.0W") == .point(GeoPoint(latitude: 40.7, longitude: -74)))
  }

  @Test(arguments: ["95.0,17.0", "49.59,200", "-91.5 0", "90.1 0", "0 -180.5"])
  func outOfRange(text: String) {
    guard case .outOfRange = GeoPoint.parse(text) else {
      Issue.record("\(text): \(GeoPoint.parse(text))")
      return
    }
  }

  @Test(arguments: [
    "Olomouc", "49.59", "1,2,3", "49.59,17.25,12", "nan,nan", "inf,1", "0x10,0x10", "4 9.5 9",
    "Brno 2", "", "📍", "49.59,abc", "1e9,1e9",
  ])
  func notCoordinates(text: String) {
    #expect(GeoPoint.parse(text) == .notCoordinates, "\(text)")
  }
}
