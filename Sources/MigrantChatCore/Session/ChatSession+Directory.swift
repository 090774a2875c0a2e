extension ChatSession {
  /// The reply with its contact ids looked up; a sync that ran for them is reported if it failed.
  func withCards(_ reply: BotReply) async -> [ChatEvent] {
    let ids = reply.messages.flatMap(\.contactIDs)
    if !ids.isEmpty { shownContactIDs = ids.filter { Int64($0) != nil } }
    guard !ids.isEmpty, let directory else { return [.reply(reply)] }
    let (cards, outcome) = await directory.cards(for: ids)
    var events: [ChatEvent] = [.reply(reply, contacts: cards)]
    if let outcome, outcome.isFailure { events.append(.directory(.synced(outcome))) }
    return events
  }

  /// `/contacts`, `/contact`, `/fav`, `/unfav` and `/sync`.
  func runDirectory(_ command: ClientCommand) async -> [ChatEvent] {
    guard let directory else {
      return [.directory(.storageFailed(.storage(detail: "no directory")))]
    }
    do {
      switch command {
      case .contacts(let query):
        let result = try await directory.search(query ?? "", language: language)
        let isSample = (try? await directory.status().source?.isSample) == true
        return [
          .contactList(
            ContactListing(
              query: query, result: result, favourites: try await directory.favourites(),
              isSample: isSample))
        ]
      case .contact(let argument):
        let id = try await contactID(argument, directory: directory, command: "/contact")
        guard let contact = try await directory.contact(id: id) else {
          return [.directory(.contactMissing(id: String(id)))]
        }
        return [.contactCard(contact, favourite: try await directory.favourites().contains(id))]
      case .favourite(let argument):
        let id = try await contactID(argument, directory: directory, command: "/fav")
        if try await directory.favourites().contains(id),
          let contact = try await directory.contact(id: id)
        {
          return [.directory(.alreadyFavourite(contact))]
        }
        guard let contact = try await directory.addFavourite(id) else {
          return [.directory(.contactMissing(id: String(id)))]
        }
        return [.directory(.favouriteAdded(contact))]
      case .unfavourite(let argument):
        let id = try await contactID(argument, directory: directory, command: "/unfav")
        let contact = try await directory.contact(id: id)
        return try await directory.removeFavourite(id)
          ? [.directory(.favouriteRemoved(id: id, contact: contact))]
          : [.directory(.notAFavourite(id: id))]
      case .sync:
        let outcome = await directory.syncNow()
        // Reports go when the data API answered; after a failure they would fail too.
        return [.directory(.synced(outcome))]
          + (outcome.isFailure ? [] : await sendQueuedReports())
      default:
        return []
      }
    } catch let error as InputError {
      return [.inputError(error)]
    } catch let error as DirectoryError {
      return [.directory(.storageFailed(error))]
    } catch {
      return []
    }
  }

  private func contactID(
    _ argument: String?, directory: ContactDirectory, command: String
  ) async throws(InputError) -> Int64 {
    if let argument, !argument.isEmpty, let id = Contact.id(typed: argument) { return id }
    // The example in the message is an id this directory has (synced data has other ids
    // than the sample).
    let example = await directory.exampleID()
    guard let argument, !argument.isEmpty else {
      throw .needsContactID(command: command, example: example)
    }
    throw .badContactID(argument, example: example)
  }
}
