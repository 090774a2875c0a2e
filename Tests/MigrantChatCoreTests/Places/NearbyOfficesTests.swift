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

/// The read of the whole change (a reviewer helper) found these.
@Suite struct PlacesReviewTests {
  static func map(_ place: String?, within: Double?, columns: Int = 80) throws -> String {
    let office = try OfficeFinder.map(
      SampleDirectory.contacts(), text: place, home: nil, within: within, isSample: true)
    return Renderer(width: columns, color: false, language: .en).render(.officeMap(office)).stdout
  }

  /// A view around a pole was upside down and trapped.
  @Test(arguments: ["90.0,17.0", "-90.0,17.0", "89.9,0.5", "-89.5,179.9"])
  func mapsAroundThePoles(place: String) throws {
    for within in [nil, 5.0, 20_000.0] {
      #expect(!(try Self.map(place, within: within)).isEmpty)
    }
  }

  @Test func aHugeWidthIsCapped() throws {
    let text = try Self.map(nil, within: nil, columns: 100_000)
    let widest = text.split(separator: "\n").map(\.count).max() ?? 0
    #expect(widest <= TerminalMap.maxColumns)
  }

  @Test func aTinyViewDrawsQuickly() throws {
    // A border point and a view of a tenth of a millimetre: the border's segments run
    // from far off one side to far off the other, and only the canvas is walked.
    let office = try OfficeFinder.map(
      [], text: "50.859,14.809", home: nil, within: 1e-7, isSample: false)
    _ = office.drawing(columns: 80, maxRows: 24)
  }

  /// Labels that would touch share a marker: "12" beside "1" was drawn "121".
  @Test func labelsNeverRunTogether() {
    let offices = (0..<30).map { index -> NearbyOffice in
      let point = GeoPoint(latitude: 49.8, longitude: 13.0 + Double(index) * 0.08)
      return NearbyOffice(
        contact: Contact(id: Int64(index), name: "O\(index)"), point: point, distance: 0,
        approximate: false)
    }
    let map = TerminalMap(
      view: MapOutline.czechia.bounds, outline: MapOutline(tsv: ""), offices: offices, place: nil,
      towns: [], columns: 60, rows: 20)
    let line = map.lines.map(\.plainText).first { $0.contains { $0.isNumber } } ?? ""
    let labels = line.split(whereSeparator: { !$0.isNumber }).map(String.init)
    #expect(labels == map.markers.map { String($0.number) })
    #expect(map.markers.flatMap(\.offices).count == 30)
  }

  @Test func anOfficeEnteredLongitudeFirstIsPutRight() {
    var office = Contact(id: 1, name: "Swapped")
    office.latitude = 16.6068
    office.longitude = 49.1951
    let locator = NearbyOffices.Locator()
    let located = locator.location(of: office)
    #expect(located?.0 == GeoPoint(latitude: 49.1951, longitude: 16.6068))
  }

  /// 2.65 km is 2.7 in the text, the JSON and `--within`.
  @Test func oneRoundingEverywhere() {
    let office = NearbyOffice(
      contact: Contact(id: 1, name: "A"), point: GeoPoint(latitude: 0, longitude: 0),
      distance: 2.65, approximate: false)
    let text = Renderer(width: 80, color: false, language: .en).kilometres(office.distance)
    guard case .object(let fields) = NearbyExport.object(office, language: .en, favourite: false),
      case .number(let json)? = fields["distance_km"]
    else {
      Issue.record("no distance")
      return
    }
    #expect(text == "\(json) km")
    #expect(office.shownDistance <= 2.7 && office.shownDistance > 2.65)
  }

  @Test func withinNeedsAPlaceOnTheMap() {
    #expect(throws: PlaceProblem.withinNeedsPlace) {
      try OfficeFinder.map([], text: "all", home: nil, within: 10, isSample: false)
    }
  }
}
