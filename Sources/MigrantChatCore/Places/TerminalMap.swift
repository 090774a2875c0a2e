import Foundation

/// A map drawn in the terminal: lines in braille (a character holds 2×4 dots), the
/// offices as numbered markers, towns as names, the place asked about as `+` (beside
/// the marker of an office in the same spot).
///
/// Pure: it returns styled lines, and the renderer colours them or not. Without
/// colour (and in a pipe) the lines read the same: braille for the outlines, digits
/// for the markers, names for the towns. The projection is equirectangular, scaled
/// by the cosine of the middle latitude (at Czechia's size, within 1 % of a proper
/// conic one), and a braille dot is taken as square (a character is about half as
/// wide as it is high).
public struct TerminalMap: Sendable {
  /// Offices that share a marker: those whose markers would touch.
  public struct Marker: Sendable, Hashable {
    public var number: Int
    public var offices: [NearbyOffice]
  }

  public var lines: [StyledText]
  public var markers: [Marker]
  /// How many km one character is across.
  public var kmPerColumn: Double

  /// How many rows the map of `view` needs to fill `columns` (capped by `maxRows`).
  public static func rows(for view: MapView, columns: Int, maxRows: Int) -> Int {
    let projection = Projection(view: view, columns: min(columns, maxColumns), rows: 1_000)
    let needed = projection.height * projection.scale / 4
    guard needed.isFinite else { return 4 }
    return max(4, min(maxRows, maxColumns, Int(needed.rounded(.up))))
  }

  /// No map is wider or taller than this (`COLUMNS=100000` would otherwise take
  /// gigabytes).
  static let maxColumns = 400

  public init(
    view: MapView, outline: MapOutline, offices: [NearbyOffice], place: GeoPoint?,
    towns: [MapOutline.Town], columns: Int, rows: Int
  ) {
    let columns = min(Self.maxColumns, max(10, columns))
    let rows = min(Self.maxColumns, max(4, rows))
    let projection = Projection(view: view, columns: columns, rows: rows)
    var canvas = Canvas(columns: columns, rows: rows)
    for ring in outline.borders {
      canvas.polyline(ring.map(projection.dot), closed: true, layer: .border)
    }
    for river in outline.rivers {
      canvas.polyline(river.map(projection.dot), closed: false, layer: .water)
    }
    // Markers, nearest first (or, with no place, as a page is read: row by row, from
    // the left): one that would touch another joins it.
    var markers: [Marker] = []
    var spans: [(row: Int, start: Int, end: Int)] = []
    var placed = offices.map { office in
      let (row, column) = projection.cell(office.point)
      return (office, row: row, column: column)
    }
    if place == nil {
      placed.sort { ($0.row, $0.column, $0.0.contact.id) < ($1.row, $1.column, $1.0.contact.id) }
    }
    for (office, row, column) in placed {
      guard (0..<rows).contains(row), (0..<columns).contains(column) else { continue }
      // Its label, were it a new marker: one that would touch another's joins it.
      let label = String(markers.count + 1)
      let start = min(column, columns - label.count)
      if let index = spans.indices.first(where: {
        spans[$0].row == row && start <= spans[$0].end && start + label.count >= spans[$0].start
      }) {
        markers[index].offices.append(office)
        continue
      }
      markers.append(Marker(number: markers.count + 1, offices: [office]))
      spans.append((row, start, start + label.count))
      canvas.write(label, row: row, column: start, style: .marker)
    }
    if let place {
      let (row, column) = projection.cell(place)
      // Beside the marker when one is on it (an office in the town itself).
      if (0..<rows).contains(row),
        let free = [column, column - 1, column + 1, column + 2, column + 3].first(where: {
          (0..<columns).contains($0) && canvas.isFree(row, $0)
        })
      {
        canvas.write("+", row: row, column: free, style: .error)
      }
    }
    // Towns where their names fit: a dot, then the name.
    for town in towns {
      let (row, column) = projection.cell(town.point)
      let text = "·" + town.name
      guard (0..<rows).contains(row), column >= 0, column + text.count <= columns,
        (max(0, column - 1)...min(columns - 1, column + text.count)).allSatisfy({
          canvas.isFree(row, $0)
        })
      else { continue }
      canvas.write(text, row: row, column: column, style: .label)
    }
    lines = canvas.lines()
    self.markers = markers
    kmPerColumn = 2 / projection.scale * 111.2
  }

  /// Degrees to dots: x to the east, y to the south.
  struct Projection {
    var view: MapView
    var cosine: Double
    var scale: Double
    var offsetX: Double
    var offsetY: Double

    var width: Double { (view.east - view.west) * cosine }
    var height: Double { view.north - view.south }

    init(view: MapView, columns: Int, rows: Int) {
      self.view = view
      cosine = max(0.05, cos((view.north + view.south) / 2 * .pi / 180))
      let width = max(1e-6, (view.east - view.west) * cosine)
      let height = max(1e-6, view.north - view.south)
      let dotsWide = Double(columns * 2)
      let dotsHigh = Double(rows * 4)
      scale = min(dotsWide / width, dotsHigh / height)
      offsetX = (dotsWide - width * scale) / 2
      offsetY = (dotsHigh - height * scale) / 2
    }

    /// The character cell a point falls in (off the canvas: negative, or past it;
    /// never a number too big for an Int).
    func cell(_ point: GeoPoint) -> (row: Int, column: Int) {
      let (x, y) = dot(point)
      func whole(_ value: Double) -> Int {
        value.isFinite ? Int(max(-1e9, min(1e9, value)).rounded(.down)) : -1
      }
      return (whole(y / 4), whole(x / 2))
    }

    func dot(_ point: GeoPoint) -> (Double, Double) {
      (
        offsetX + (point.longitude - view.west) * cosine * scale,
        offsetY + (view.north - point.latitude) * scale
      )
    }
  }

  enum Layer: Int { case none, water, border }

  /// Braille cells, and text written over them.
  struct Canvas {
    let columns: Int
    let rows: Int
    var dots: [UInt8]
    var layers: [Layer]
    var text: [(Character, TextStyle)?]

    init(columns: Int, rows: Int) {
      self.columns = columns
      self.rows = rows
      dots = Array(repeating: 0, count: columns * rows)
      layers = Array(repeating: .none, count: columns * rows)
      text = Array(repeating: nil, count: columns * rows)
    }

    /// The bit of each dot of a cell, by column (0, 1) and row (0 to 3): Unicode's
    /// braille numbering (1 2 3 7 down the left, 4 5 6 8 down the right).
    static let bits: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]

    mutating func set(_ x: Int, _ y: Int, layer: Layer) {
      guard x >= 0, y >= 0, x < columns * 2, y < rows * 4 else { return }
      let cell = (y / 4) * columns + x / 2
      dots[cell] |= Self.bits[x % 2][y % 4]
      if layer.rawValue > layers[cell].rawValue { layers[cell] = layer }
    }

    /// Straight lines between the points (Bresenham), dots off the canvas left out.
    mutating func polyline(_ points: [(Double, Double)], closed: Bool, layer: Layer) {
      guard points.count >= 2 else { return }
      let pairs =
        zip(points, points.dropFirst()).map { ($0, $1) }
        + (closed ? [(points[points.count - 1], points[0])] : [])
      for (start, end) in pairs {
        // Only the part on the canvas is walked dot by dot: a zoomed map's border can
        // run from a million dots off one side to a million off the other.
        guard let (from, to) = clipped(start, end) else { continue }
        var x0 = Int(from.0.rounded(.down))
        var y0 = Int(from.1.rounded(.down))
        let x1 = Int(to.0.rounded(.down))
        let y1 = Int(to.1.rounded(.down))
        let dx = abs(x1 - x0)
        let dy = -abs(y1 - y0)
        let sx = x0 < x1 ? 1 : -1
        let sy = y0 < y1 ? 1 : -1
        var error = dx + dy
        while true {
          set(x0, y0, layer: layer)
          if x0 == x1 && y0 == y1 { break }
          let doubled = 2 * error
          if doubled >= dy {
            error += dy
            x0 += sx
          }
          if doubled <= dx {
            error += dx
            y0 += sy
          }
        }
      }
    }

    /// The part of the segment inside the canvas (Liang–Barsky), nil when none is.
    func clipped(_ from: (Double, Double), _ to: (Double, Double)) -> (
      (Double, Double), (Double, Double)
    )? {
      guard from.0.isFinite, from.1.isFinite, to.0.isFinite, to.1.isFinite else { return nil }
      let dx = to.0 - from.0
      let dy = to.1 - from.1
      var low = 0.0
      var high = 1.0
      let width = Double(columns * 2) - 0.001
      let height = Double(rows * 4) - 0.001
      for (p, q) in [(-dx, from.0), (dx, width - from.0), (-dy, from.1), (dy, height - from.1)] {
        if p == 0 {
          if q < 0 { return nil }
        } else {
          let t = q / p
          if p < 0 { low = max(low, t) } else { high = min(high, t) }
        }
      }
      guard low <= high else { return nil }
      return ((from.0 + low * dx, from.1 + low * dy), (from.0 + high * dx, from.1 + high * dy))
    }

    func isFree(_ row: Int, _ column: Int) -> Bool {
      text[row * columns + column] == nil
    }

    mutating func write(_ string: String, row: Int, column: Int, style: TextStyle) {
      for (offset, character) in string.enumerated() where column + offset < columns {
        text[row * columns + column + offset] = (character, style)
      }
    }

    func lines() -> [StyledText] {
      (0..<rows).map { row in
        var line = StyledText()
        var pending = ""
        for column in 0..<columns {
          let cell = row * columns + column
          if let (character, style) = text[cell] {
            line.append(pending)
            pending = ""
            line.append(String(character), style: style)
          } else if dots[cell] == 0 {
            pending += " "
          } else {
            line.append(pending)
            pending = ""
            let character = Character(Unicode.Scalar(0x2800 + UInt32(dots[cell])) ?? " ")
            line.append(String(character), style: layers[cell] == .water ? .water : .plain)
          }
        }
        return line
      }
    }
  }
}
