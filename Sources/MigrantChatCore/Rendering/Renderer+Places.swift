import Foundation

/// Offices near a place, the map, and the remembered place.
extension Renderer {
  /// "12.3 km" (one decimal; a decimal comma in Russian and Ukrainian), with `≈`
  /// when the office is placed by its town.
  public func kilometres(_ distance: Double, approximate: Bool = false) -> String {
    let distance = (distance * 10).rounded() / 10  // as `NearbyOffice.shownDistance`
    return (approximate ? "≈" : "")
      + l10n(.placesKilometres, ["km": l10n.number(distance, fractionDigits: 1)])
  }

  /// How a place found is named back: "Olomouc (Olomoucký kraj)", "Wien (Austria)",
  /// "49.59, 17.25".
  public func placeName(_ found: NearbyPlace) -> String {
    switch found {
    case .place(let place):
      if let country = place.country {
        let name = Locale(identifier: l10n.language.rawValue).localizedString(
          forRegionCode: country)
        return clean(place.name) + " (" + clean(name ?? country) + ")"
      }
      return clean(place.name) + (place.region.map { " (" + clean($0) + ")" } ?? "")
    case .point(let point):
      // Pasted from a map: the town it falls in or beside, so a wrong paste shows.
      let numbers = coordinate(point.latitude) + "; " + coordinate(point.longitude)
      guard let (town, _) = PlaceTable.nearest(to: point) else { return numbers }
      return l10n(.placesPointNear, ["point": numbers, "place": clean(town.name)])
    case .home(let home):
      return clean(home.name)
    }
  }

  /// A coordinate to five decimals at most (a metre), as the language writes numbers.
  func coordinate(_ value: Double) -> String {
    var text = String(format: "%.5f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return l10n.number(Double(text) ?? value)
  }

  /// The list `contacts near` and `/near` print.
  func render(nearby listing: NearbyListing) -> Rendered {
    var output = notes(for: listing.reading)
    let result = listing.result
    guard !result.offices.isEmpty else {
      let text =
        listing.within.map {
          l10n(.placesNoneWithin, ["km": l10n.number($0), "place": placeName(listing.place)])
        } ?? l10n(.contactsEmpty)
      output += lines(StyledText(text, style: .notice))
      if let nearest = listing.nearestBeyond {
        output += lines(
          StyledText(
            l10n(
              .placesNearestBeyond,
              [
                "name": clean(nearest.contact.name(in: l10n.language)),
                "km": kilometres(nearest.distance, approximate: nearest.approximate),
              ]), style: .notice), indent: "  ")
      }
      return Rendered(stdout: output)
    }
    output += lines(
      StyledText(l10n(.placesNearTitle, ["place": placeName(listing.place)]), style: .bold))
    let widths = result.offices.map { kilometres($0.distance, approximate: $0.approximate) }
    let column = widths.map(\.count).max() ?? 0
    for (office, distance) in zip(result.offices, widths) {
      if accessible {
        output += spokenRow(
          office, distance: true, favourite: listing.favourites.contains(office.contact.id))
        continue
      }
      var line = StyledText(
        String(repeating: " ", count: column - distance.count) + distance + "  ", style: .notice)
      if listing.favourites.contains(office.contact.id) { line.append("★ ", style: .notice) }
      line.append("#\(office.contact.id) ", style: .label)
      line.append(clean(office.contact.name(in: l10n.language)), style: .bold)
      if let city = office.contact.city, !city.isEmpty { line.append(" (" + clean(city) + ")") }
      output += lines(line, indent: "  ", hangingIndent: String(repeating: " ", count: column + 6))
    }
    var footer = [String]()
    if result.total > result.offices.count {
      footer.append(
        l10n.plural(
          commandLine ? .placesMoreCLI : .placesMore, count: result.total - result.offices.count))
    }
    if result.offices.contains(where: \.approximate) { footer.append(l10n(.placesApproximate)) }
    if result.unplaced > 0 { footer.append(l10n.plural(.placesUnplaced, count: result.unplaced)) }
    for note in footer { output += lines(StyledText(note, style: .notice), indent: "  ") }
    return Rendered(
      stdout: output,
      stderr: listing.isSample && commandLine
        ? lines(StyledText(l10n(.directorySample), style: .notice)) : "")
  }

  /// How the place was read, when not plainly: in the other keyboard layout, as the
  /// closest name, coordinates swapped, outside Czechia.
  public func notes(for reading: PlaceReading) -> String {
    var notes: [String] = []
    if let readAs = reading.readAs {
      notes.append(l10n(.contactsReadAs, ["text": clean(Self.shortened(readAs))]))
    }
    if reading.guessed, let typed = reading.typed {
      notes.append(
        l10n(
          .placesGuessed,
          ["typed": clean(Self.shortened(typed)), "place": placeName(reading.place)]))
    }
    if reading.swapped { notes.append(l10n(.placesSwapped)) }
    if let namesakes = namesakesNote(reading) { notes.append(namesakes) }
    if reading.place.isOutsideCzechia {
      notes.append(l10n(.placesOutsideCzechia, ["place": placeName(reading.place)]))
    }
    return notes.map { lines(StyledText($0, style: .notice)) }.joined()
  }

  /// "Other places are called Nová Ves too: in Liberecký kraj, Středočeský kraj (2).
  /// To choose one, add its region: Nová Ves, Liberecký kraj": the place found is
  /// named with its region in the title, so a wrong one shows.
  func namesakesNote(_ reading: PlaceReading) -> String? {
    guard case .place(let place) = reading.place, let first = reading.namesakes.first else {
      return nil
    }
    // The example picks one the region tells apart from the place taken, where one is.
    let example = reading.namesakes.first { $0.region != place.region } ?? first
    var counts: [String: Int] = [:]
    var order: [String] = []
    for other in reading.namesakes {
      let region = other.region ?? "?"
      if counts[region] == nil { order.append(region) }
      counts[region, default: 0] += 1
    }
    let regions = order.map { region in
      clean(region) + ((counts[region] ?? 0) > 1 ? " (\(counts[region] ?? 0))" : "")
    }
    return l10n(
      .placesNamesakes,
      [
        "name": clean(place.name), "regions": regions.joined(separator: ", "),
        "example": clean(example.name) + ", " + clean(example.region ?? ""),
      ])
  }

  /// Why a place could not be used, with what to type instead.
  public func message(for problem: PlaceProblem) -> String {
    let hint = l10n(.placesHint)
    switch problem {
    case .empty:
      return l10n(.placesEmpty) + " " + hint
    case .tooLong(let count):
      return l10n(.placesTooLong, ["count": String(count)]) + " " + hint
    case .outOfRange(let latitude, let longitude):
      return l10n(
        .placesOutOfRange,
        ["latitude": l10n.number(latitude), "longitude": l10n.number(longitude)])
    case .unknown(let typed, let suggestions):
      var text = l10n(.placesUnknown, ["place": clean(Self.shortened(typed))])
      if let suggestion = didYouMean(suggestions) { text += " " + suggestion }
      return text + " " + hint
    case .abroad(let place, let typed):
      let country =
        place.country.flatMap {
          Locale(identifier: l10n.language.rawValue).localizedString(forRegionCode: $0)
        } ?? place.country ?? ""
      return l10n(
        .placesAbroad, ["place": clean(Self.shortened(typed)), "country": clean(country)]) + " "
        + hint
    case .noPlaceSet:
      return l10n(.placesNoneSet)
    case .badLimit(let typed):
      return l10n(.placesBadLimit, ["value": clean(Self.shortened(typed))])
    case .withinNeedsPlace:
      return l10n(.placesWithinNeedsPlace)
    case .badDistance(let typed):
      return l10n(.placesBadDistance, ["value": clean(Self.shortened(typed))])
    case .guessNotKept(let typed, let place):
      return l10n(
        .placesGuessNotKept,
        [
          "typed": clean(Self.shortened(typed)), "place": placeName(.place(place)),
          "name": clean(place.name),
        ])
    }
  }

  /// The map, the place's line, the legend (number, name, town, km) and the scale,
  /// in the terminal's height when it is known: the map gives up rows to the legend
  /// (at least eight are kept), so the top of the map does not scroll away.
  func render(map: OfficeMap) -> Rendered {
    let sample =
      map.isSample && commandLine ? lines(StyledText(l10n(.directorySample), style: .notice)) : ""
    guard let height else {
      return Rendered(stdout: render(map: map, rows: 1_000), stderr: sample)
    }
    let spare = 1 + sample.split(separator: "\n").count
    var rows = max(8, height - spare - 6)
    var output = render(map: map, rows: rows)
    for _ in 0..<3 {
      let over =
        output.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        + spare - height
      guard over > 0, rows > 8 else { break }
      rows = max(8, rows - over)
      output = render(map: map, rows: rows)
    }
    return Rendered(stdout: output, stderr: sample)
  }

  /// A row of a list in the accessible mode, name first: "Centre for Foreigners
  /// (Brno), about 12.3 km, id 138503, favourite".
  func spokenRow(_ office: NearbyOffice, distance: Bool, favourite: Bool = false) -> String {
    var text = clean(office.contact.name(in: l10n.language))
    if let city = office.contact.city, !city.isEmpty { text += " (" + clean(city) + ")" }
    if distance { text += ", " + kilometres(office.distance, approximate: office.approximate) }
    text += ", " + idText(office.contact.id)
    if favourite { text += ", " + l10n(.a11yFavourite) }
    return lines(StyledText(text), indent: "  ", hangingIndent: "    ")
  }

  /// The map in the accessible mode: said to be a list, then the place and each office.
  private func spokenMap(_ map: OfficeMap) -> String {
    var output = map.reading.map { notes(for: $0) } ?? ""
    output += lines(StyledText(l10n(.a11yMapAsList)))
    if let place = map.place { output += lines(StyledText(placeName(place))) }
    let offices = map.offices.sorted {
      map.place != nil ? $0.distance < $1.distance : $0.contact.name < $1.contact.name
    }
    for office in offices { output += spokenRow(office, distance: map.place != nil) }
    if offices.isEmpty { output += lines(StyledText(l10n(.placesMapNoOffices))) }
    if offices.contains(where: \.approximate) {
      output += lines(StyledText(l10n(.placesApproximate)))
    }
    if map.unplaced > 0 {
      output += lines(StyledText(l10n.plural(.placesUnplaced, count: map.unplaced)))
    }
    return output
  }

  private func render(map: OfficeMap, rows maxRows: Int) -> String {
    if accessible { return spokenMap(map) }
    var output = map.reading.map { notes(for: $0) } ?? ""
    let drawing = map.drawing(columns: width, maxRows: maxRows)
    for line in drawing.lines {
      output += ANSIStyle.apply(line, color: color) + "\n"
    }
    if let place = map.place {
      var line = StyledText("+ ", style: .error)
      line.append(placeName(place))
      output += lines(line)
    }
    let markers = drawing.markers
    let width = String(markers.count).count
    for marker in markers {
      let number =
        String(repeating: " ", count: width - String(marker.number).count)
        + String(marker.number)
      var line = StyledText(number, style: .marker)
      line.append("  ")
      let offices = marker.offices
      if offices.count == 1, let office = offices.first {
        // The id, as a grouped marker's offices have: `/contact ID` from the legend.
        line.append("#\(office.contact.id) ", style: .label)
        line.append(clean(office.contact.name(in: l10n.language)), style: .bold)
        append(office, to: &line, distance: map.place != nil)
        output += lines(line, indent: "", hangingIndent: String(repeating: " ", count: width + 2))
        continue
      }
      line.append(l10n.plural(.placesOfficesHere, count: offices.count), style: .bold)
      output += lines(line)
      let shown = offices.prefix(Self.officesPerMarker)
      for office in shown {
        var entry = StyledText("#\(office.contact.id) ", style: .label)
        entry.append(clean(office.contact.name(in: l10n.language)))
        append(office, to: &entry, distance: map.place != nil)
        output += lines(
          entry, indent: String(repeating: " ", count: width + 2),
          hangingIndent: String(repeating: " ", count: width + 4))
      }
      if offices.count > shown.count {
        output += lines(
          StyledText(
            l10n.plural(.placesMoreHere, count: offices.count - shown.count), style: .notice),
          indent: String(repeating: " ", count: width + 2))
      }
    }
    if markers.isEmpty {
      output += lines(StyledText(l10n(.placesMapNoOffices), style: .notice))
    }
    let scale = l10n(.placesMapScale, ["km": l10n.number(drawing.kmPerColumn, fractionDigits: 1)])
    // The braille is noise to a screen reader: the same offices as a list, said.
    var footer = [scale, l10n(commandLine ? .placesMapAsTextCLI : .placesMapAsText)]
    if markers.flatMap(\.offices).contains(where: \.approximate) {
      footer.append(l10n(.placesApproximate))
    }
    if map.unplaced > 0 { footer.append(l10n.plural(.placesUnplaced, count: map.unplaced)) }
    for note in footer { output += lines(StyledText(note, style: .label)) }
    return output
  }

  /// A merged marker lists this many offices, then "and N more".
  static let officesPerMarker = 5

  private func append(_ office: NearbyOffice, to line: inout StyledText, distance: Bool) {
    if let city = office.contact.city, !city.isEmpty { line.append(" (" + clean(city) + ")") }
    if distance {
      line.append(
        " " + kilometres(office.distance, approximate: office.approximate), style: .notice)
    }
  }

  /// The card's line for the remembered place: "12.3 km from Olomouc".
  func distanceLine(_ contact: Contact) -> String? {
    guard let home else { return nil }
    let locator = NearbyOffices.Locator()
    guard let (point, approximate) = locator.location(of: contact) else { return nil }
    return l10n(
      .placesDistanceFrom,
      [
        "km": kilometres(home.point.distance(to: point), approximate: approximate),
        "place": clean(home.name),
      ])
  }
}
