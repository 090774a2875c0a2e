import Foundation

extension ChatSession {
  /// `/place` takes these to forget the place.
  static let forgetPlaceWords: Set<String> = ["off", "-", "none", "забыть", "забути"]

  /// The keyboard layout a place typed in the other one is read in first.
  private var layout: KeyboardLayout { KeyboardLayout.preferred(for: language) }

  /// `/near`, `/map` and `/place`.
  func runPlaces(_ command: ClientCommand) async -> [ChatEvent] {
    do {
      switch command {
      case .place(nil):
        return [.placeShown(home)]
      case .place(let text?) where Self.forgetPlaceWords.contains(text.lowercased()):
        home = nil
        return [.placeSet(nil)] + remembering(nil)
      case .place(let text?):
        let reading = try NearbyPlace.resolve(text, preferring: layout)
        // A guess is not kept: the user types the name found, if it is right.
        if reading.guessed, case .place(let place) = reading.place {
          throw PlaceProblem.guessNotKept(typed: text, place: place)
        }
        home = reading.place.asHome
        return [.placeSet(home)] + remembering(home)
      case .near(let argument):
        let (text, within, limit) = try Self.options(argument)
        guard let directory else { throw DirectoryError.storage(detail: "no directory") }
        let (contacts, favourites, isSample) = try await OfficeFinder.offices(
          in: directory, language: language)
        return [
          .nearby(
            try OfficeFinder.listing(
              contacts, text: text, home: home, within: within,
              limit: limit.map { $0 == 0 ? nil : $0 } ?? Self.nearLimit,
              favourites: favourites, isSample: isSample, preferring: layout))
        ]
      case .map(let argument):
        let (text, within, _) = try Self.options(argument)
        guard let directory else { throw DirectoryError.storage(detail: "no directory") }
        let (contacts, _, isSample) = try await OfficeFinder.offices(
          in: directory, language: language)
        return [
          .officeMap(
            try OfficeFinder.map(
              contacts, text: text, home: home, within: within, isSample: isSample,
              preferring: layout))
        ]
      default:
        return []
      }
    } catch let problem as PlaceProblem {
      return [.placeProblem(problem)]
    } catch let error as DirectoryError {
      return [.directory(.storageFailed(error))]
    } catch {
      return [.directory(.storageFailed(.storage(detail: "\(error)")))]
    }
  }

  /// `PLACE --within KM --limit N` (as on the command line, the options anywhere, `=`
  /// or a space before their values): the place, the km and the limit (0: all).
  static func options(_ argument: String?) throws(PlaceProblem) -> (
    place: String?, within: Double?, limit: Int?
  ) {
    guard let argument, argument.contains("--") else { return (argument, nil, nil) }
    var words = argument.split(whereSeparator: \.isWhitespace).map(String.init)
    func value(of option: String) -> String? {
      guard let index = words.firstIndex(where: { $0 == option || $0.hasPrefix(option + "=") })
      else { return nil }
      var value = String(words[index].dropFirst(option.count))
      words.remove(at: index)
      if value.hasPrefix("=") {
        value.removeFirst()
      } else if index < words.count {
        value = words.remove(at: index)
        // "10 km": the unit as a word of its own.
        if index < words.count, ["km", "км"].contains(words[index].lowercased()) {
          value += words.remove(at: index)
        }
      }
      return value
    }
    var within: Double?
    if let typed = value(of: "--within") {
      guard let km = PlaceDistance.kilometres(typed) else { throw .badDistance(typed) }
      within = km
    }
    var limit: Int?
    if let typed = value(of: "--limit") {
      guard let number = Int(typed), number >= 0 else { throw .badLimit(typed) }
      limit = number
    }
    let place = words.joined(separator: " ")
    return (place.isEmpty ? nil : place, within, limit)
  }

  /// `/near` lists this many, nearest first.
  static let nearLimit = 10

  private func remembering(_ home: HomePlace?) -> [ChatEvent] {
    do {
      try store.rememberPlace(home)
      return []
    } catch {
      return [.saveFailed(detail: "\(error)")]
    }
  }
}
