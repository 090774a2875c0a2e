import Foundation
import MigrantChatCore
import MigrantChatIO

/// `contacts near` and `contacts map`.
extension ContactsContext {
  /// The offices nearest to `text` (nil: the place set with `/place`): 0, or 1 when
  /// the place is unknown or nothing is within reach, 2 when no place is given or set,
  /// 3 when the place is a guess and `acceptGuess` is false (the offices are written
  /// all the same, the place marked as a guess).
  func printNear(_ text: String?, within: Double?, limit: Int, acceptGuess: Bool) async -> Int32 {
    let listing: NearbyListing
    do {
      let (contacts, favourites, isSample) = try await OfficeFinder.offices(
        in: directory, language: language)
      listing = try OfficeFinder.listing(
        contacts, text: text, home: home, within: within, limit: limit > 0 ? limit : nil,
        favourites: favourites, isSample: isSample,
        preferring: KeyboardLayout.preferred(for: language))
    } catch let problem as PlaceProblem {
      return placeFailed(problem)
    } catch let error as DirectoryError {
      return fail(error.message(l10n))
    } catch {
      return fail("\(error)")
    }
    switch format {
    case .text:
      var renderer = renderer
      renderer.commandLine = true  // "… and 2 more" says --limit, not the chat's words
      write(renderer.render(.nearby(listing)))
    case .json:
      // The chat's `nearby` object (`chat --json`'s /near): the place as read, with
      // `guess`, beside the offices. Before this it was the bare array of offices.
      let object = JSONValue.object([
        "type": .string("nearby"), "place": NearbyExport.place(reading: listing.reading),
        "contacts": .array(
          listing.result.offices.map {
            NearbyExport.object(
              $0, language: language, favourite: listing.favourites.contains($0.contact.id))
          }),
        "total": .number(Double(listing.result.total)), "sample": .bool(listing.isSample),
      ])
      ConsoleOutput.write(object.compactText + "\n")
      note(listing)
    case .csv:
      // Every row says where it was measured from, and whether that place is a guess.
      let place = NearbyExport.csvPlaceFields(listing.reading)
      var text = csvStart + ContactExport.csvHeader + ",distance_km,place,place_guess\r\n"
      for office in listing.result.offices {
        text +=
          ContactExport.csvRow(
            office.contact, language: language,
            favourite: listing.favourites.contains(office.contact.id))
          + "," + String(format: "%.1f", office.shownDistance) + "," + place + "\r\n"
      }
      ConsoleOutput.write(text)
      note(listing)
    }
    if listing.reading.isGuess, !acceptGuess {
      ConsoleOutput.write(l10n(.placesGuessExit) + "\n", to: STDERR_FILENO)
      return 3
    }
    return listing.result.offices.isEmpty ? 1 : 0
  }

  /// The map (of Czechia, or around `text` or the place set with `/place`).
  func printMap(_ text: String?, within: Double?, acceptGuess: Bool) async -> Int32 {
    guard format == .text else { return fail(l10n(.placesMapFormat), status: 2) }
    guard within == nil || text != nil || home != nil else {
      return fail(l10n(.placesWithinNeedsPlace), status: 2)
    }
    do {
      let (contacts, _, isSample) = try await OfficeFinder.offices(
        in: directory, language: language)
      // Without a place, the whole country, even when one is set.
      let map = try OfficeFinder.map(
        contacts, text: text, home: text == nil && within == nil ? nil : home, within: within,
        isSample: isSample, preferring: KeyboardLayout.preferred(for: language))
      var renderer = renderer
      renderer.height = TerminalInfo.height()
      renderer.commandLine = true  // the sample's note on stderr, counted in the height
      write(renderer.render(.officeMap(map)))
      if map.reading?.isGuess == true, !acceptGuess {
        ConsoleOutput.write(l10n(.placesGuessExit) + "\n", to: STDERR_FILENO)
        return 3
      }
      return 0
    } catch let problem as PlaceProblem {
      return placeFailed(problem)
    } catch let error as DirectoryError {
      return fail(error.message(l10n))
    } catch {
      return fail("\(error)")
    }
  }

  /// For a person, on stderr, while the data goes to stdout: how the place was read,
  /// which place it is (a script can check it), and the nearest office when none
  /// was within reach.
  private func note(_ listing: NearbyListing) {
    var text = renderer.notes(for: listing.reading)
    text += l10n(.placesNearTitle, ["place": renderer.placeName(listing.place)]) + "\n"
    if let within = listing.within, listing.result.offices.isEmpty {
      text +=
        l10n(
          .placesNoneWithin,
          ["km": l10n.number(within), "place": renderer.placeName(listing.place)])
        + "\n"
      if let nearest = listing.nearestBeyond {
        text +=
          l10n(
            .placesNearestBeyond,
            [
              "name": TerminalSanitizer.clean(nearest.contact.name(in: language)),
              "km": renderer.kilometres(nearest.distance, approximate: nearest.approximate),
            ]) + "\n"
      }
    }
    if listing.result.total > listing.result.offices.count {
      text +=
        l10n.plural(.placesMoreCLI, count: listing.result.total - listing.result.offices.count)
        + "\n"
    }
    if listing.isSample { text += l10n(.directorySample) + "\n" }
    ConsoleOutput.write(text, to: STDERR_FILENO)
  }

  private func placeFailed(_ problem: PlaceProblem) -> Int32 {
    let status: Int32
    switch problem {
    case .empty, .noPlaceSet, .badDistance, .badLimit, .withinNeedsPlace: status = 2
    default: status = 1
    }
    ConsoleOutput.write(renderer.message(for: problem) + "\n", to: STDERR_FILENO)
    return status
  }
}
