import Foundation

extension ChatSession {
  /// `/place` takes these to forget the place.
  static let forgetPlaceWords: Set<String> = ["off", "-", "none", "забыть", "забути"]

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
        let reading = try NearbyPlace.resolve(text)
        // A guess is not kept: the user types the name found, if it is right.
        if reading.guessed, case .place(let place) = reading.place {
          throw PlaceProblem.guessNotKept(typed: text, place: place)
        }
        home = reading.place.asHome
        return [.placeSet(home)] + remembering(home)
      case .near(let argument):
        let (text, within) = try Self.within(argument)
        guard let directory else { throw DirectoryError.storage(detail: "no directory") }
        let (contacts, favourites, isSample) = try await OfficeFinder.offices(
          in: directory, language: language)
        return [
          .nearby(
            try OfficeFinder.listing(
              contacts, text: text, home: home, within: within, limit: Self.nearLimit,
              favourites: favourites, isSample: isSample))
        ]
      case .map(let argument):
        let (text, within) = try Self.within(argument)
        guard let directory else { throw DirectoryError.storage(detail: "no directory") }
        let (contacts, _, isSample) = try await OfficeFinder.offices(
          in: directory, language: language)
        return [
          .officeMap(
            try OfficeFinder.map(
              contacts, text: text, home: home, within: within, isSample: isSample))
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

  /// `PLACE --within KM` (as on the command line, the option anywhere, `=` or a
  /// space before its value): the place, and the km.
  static func within(_ argument: String?) throws(PlaceProblem) -> (String?, Double?) {
    guard let argument, argument.contains("--within") else { return (argument, nil) }
    var words = argument.split(whereSeparator: \.isWhitespace).map(String.init)
    guard let index = words.firstIndex(where: { $0 == "--within" || $0.hasPrefix("--within=") })
    else { return (argument, nil) }
    var value = String(words[index].dropFirst("--within".count))
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
    guard let km = PlaceDistance.kilometres(value) else { throw .badDistance(value) }
    let place = words.joined(separator: " ")
    return (place.isEmpty ? nil : place, km)
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
