import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct NearbyOfficesTests {
  static let olomouc = GeoPoint(latitude: 49.59552, longitude: 17.25175)

  @Test func nearestFirstWithinReach() {
    let contacts = SampleDirectory.contacts()
    let all = NearbyOffices.find(in: contacts, from: Self.olomouc, within: nil, limit: nil)
    #expect(all.total == contacts.count)
    #expect(all.offices.first?.contact.name == "Integration Centre Olomouc")
    #expect(zip(all.offices, all.offices.dropFirst()).allSatisfy { $0.distance <= $1.distance })
    // Brno's offices next, about 64 km away.
    #expect(all.offices.dropFirst().first?.contact.city == "Brno")
    #expect((60...68).contains(all.offices[1].distance))
    let near = NearbyOffices.find(in: contacts, from: Self.olomouc, within: 50, limit: nil)
    #expect(near.offices.map(\.contact.name) == ["Integration Centre Olomouc"])
    let two = NearbyOffices.find(in: contacts, from: Self.olomouc, within: nil, limit: 2)
    #expect(two.offices.count == 2 && two.total == contacts.count)
  }

  @Test func anOfficeWithoutCoordinatesIsPlacedByItsTown() {
    var byCity = Contact(id: 1, name: "By city")
    byCity.city = "Olomouc"
    var byAddress = Contact(id: 2, name: "By address")
    byAddress.address = "Náměstí 1, 779 00 Olomouc"
    var zero = Contact(id: 3, name: "Zero coordinates")
    zero.latitude = 0
    zero.longitude = 0
    zero.city = "Brno"
    var broken = Contact(id: 4, name: "Out of range")
    broken.latitude = 500
    broken.longitude = .nan
    var nowhere = Contact(id: 5, name: "Nowhere")
    nowhere.city = "Atlantis"
    let result = NearbyOffices.find(
      in: [byCity, byAddress, zero, broken, nowhere], from: Self.olomouc, within: nil, limit: nil)
    #expect(result.offices.map(\.contact.id) == [1, 2, 3])
    #expect(result.offices.allSatisfy { $0.approximate })
    #expect(result.offices[0].distance < 2)
    #expect(result.unplaced == 2)
  }

  @Test(arguments: [
    ("Example square 2, 602 00 Brno", "Brno"), ("Palackého 1, 77900 Olomouc", "Olomouc"),
    ("Main street 5", nil),
  ])
  func townsOfAddresses(address: String, town: String?) {
    #expect(NearbyOffices.Locator.town(inAddress: address) == town)
  }
}

@Suite struct TerminalMapTests {
  static func map(place: String?, columns: Int, rows: Int? = nil) throws -> String {
    let office = try OfficeFinder.map(
      SampleDirectory.contacts(), text: place, home: nil, within: nil, isSample: true)
    var renderer = Renderer(width: columns, color: false, language: .en)
    renderer.height = rows
    return renderer.render(.officeMap(office)).stdout
  }

  /// The whole country at 40, 80 and 120 columns, and around Olomouc at 80.
  @Test(arguments: [40, 80, 120])
  func goldens(columns: Int) throws {
    expectGolden(try Self.map(place: nil, columns: columns), named: "map-czechia-\(columns)")
  }

  @Test func aroundAPlace() throws {
    expectGolden(try Self.map(place: "Olomouc", columns: 80), named: "map-olomouc-80")
  }

  @Test func fittedToTheWidthAndHeight() throws {
    for columns in [20, 40, 80, 120, 200] {
      let text = try Self.map(place: nil, columns: columns, rows: 24)
      let mapLines = text.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(mapLines.allSatisfy { $0.count <= columns }, "\(columns)")
    }
    let short = try Self.map(place: nil, columns: 200, rows: 20)
    let drawn = short.split(separator: "\n").filter {
      $0.contains { ("\u{2800}"..."\u{28FF}").contains($0) }
    }
    #expect(drawn.count <= 14)
  }

  @Test func markersThatWouldTouchAreMerged() throws {
    // Brno's three offices are one marker at 40 columns: "3 offices" in the legend.
    let text = try Self.map(place: nil, columns: 40)
    #expect(text.contains("3 offices"))
    let office = try OfficeFinder.map(
      SampleDirectory.contacts(), text: nil, home: nil, within: nil, isSample: true)
    let drawing = office.drawing(columns: 40, maxRows: 100)
    #expect(drawing.markers.flatMap(\.offices).count == SampleDirectory.contacts().count)
    #expect(drawing.markers.count < SampleDirectory.contacts().count)
  }

  @Test func brailleDots() {
    var canvas = TerminalMap.Canvas(columns: 2, rows: 1)
    canvas.set(0, 0, layer: .border)
    canvas.set(1, 3, layer: .border)
    canvas.set(2, 1, layer: .water)
    canvas.set(99, 99, layer: .border)  // off the canvas: left out
    let line = canvas.lines()[0]
    #expect(line.plainText == "\u{2881}\u{2802}")
    #expect(line.runs.last?.style == .water)
  }

  @Test func colourOnlyWhenAsked() throws {
    let office = try OfficeFinder.map(
      SampleDirectory.contacts(), text: nil, home: nil, within: nil, isSample: true)
    let plain = Renderer(width: 80, color: false, language: .en).render(.officeMap(office)).stdout
    let coloured = Renderer(width: 80, color: true, language: .en).render(.officeMap(office)).stdout
    #expect(!plain.contains("\u{1B}"))
    #expect(coloured.contains("\u{1B}[34m"))
    #expect(coloured.contains("\u{1B}[1;33m"))
  }
}
