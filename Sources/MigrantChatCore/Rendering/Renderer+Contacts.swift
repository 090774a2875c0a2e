/// Contact cards, lists and directory messages.
///
/// A card is at most seven lines at 80 columns (name, address, phone and
/// e-mail, web, Facebook, hours, map), eight with the distance from the place set
/// with `/place`, so three fit on a 24-line screen with the bot's text; the full
/// card (`/contact ID`) adds the description.
extension Renderer {
  func render(contactIDs: [String], cards: ContactCards) -> String {
    guard cards.resolved else {
      return labelled(.labelContacts, contactIDs.map(clean).joined(separator: ", "), indent: "  ")
    }
    var output = ""
    for id in contactIDs {
      if let contact = cards.found[id] {
        output += card(contact, favourite: cards.favourites.contains(contact.id), full: false)
      } else {
        output += lines(
          StyledText(missingContact(id), style: .notice), indent: "  ",
          hangingIndent: "    ")
      }
    }
    return output
  }

  public func card(_ contact: Contact, favourite: Bool, full: Bool) -> String {
    let language = l10n.language
    var title = StyledText(accessible ? "" : "• ")
    title.append(clean(contact.name(in: language)), style: .bold)
    if accessible {
      // Name first, then what it is: "Name, favourite, id 138503".
      if favourite { title.append(", " + l10n(.a11yFavourite)) }
      title.append(", " + idText(contact.id))
    } else {
      if favourite { title.append(" ★", style: .notice) }
      title.append("  #\(contact.id)", style: .label)
    }
    if contact.isSample { title.append("  " + l10n(.sampleCard), style: .notice) }
    var output = lines(title, indent: "  ", hangingIndent: "    ")
    let indent = "    "
    if full, let description = contact.description(in: language), !description.isEmpty {
      output += lines(InlineMarkup.parse(clean(description)), indent: indent)
    }
    if let address = contact.address(in: language), !address.isEmpty {
      output += lines(StyledText(clean(address)), indent: indent, hangingIndent: indent + "  ")
    } else if let city = contact.city, !city.isEmpty {
      output += lines(StyledText(clean(city)), indent: indent)
    }
    var reach = StyledText()
    for (label, value) in [(MessageKey.labelPhone, contact.phone), (.labelEmail, contact.email)] {
      guard let value, !value.isEmpty else { continue }
      if !reach.runs.isEmpty { reach.append("  ") }
      reach.append(l10n(label) + ": ", style: .label)
      reach.append(clean(value), style: .link)
    }
    if !reach.runs.isEmpty {
      output += lines(reach, indent: indent, hangingIndent: indent + "  ")
    }
    let rest: [(MessageKey, String?, TextStyle)] = [
      (.labelWeb, contact.web, .link), (.labelFacebook, contact.facebook, .link),
      (.labelHours, contact.openingHours(in: language), .plain), (.labelMap, contact.mapURL, .link),
    ]
    for (label, value, style) in rest {
      guard let value, !value.isEmpty else {
        // The whole card says when the hours are not known, rather than nothing.
        if full && label == .labelHours {
          output += labelled(label, l10n(.cardHoursUnknown), indent: indent, valueStyle: .plain)
        }
        continue
      }
      let shown =
        accessible && label == .labelHours
        ? Accessibility.spokenHours(clean(value), l10n: l10n) : clean(value)
      output += labelled(label, shown, indent: indent, valueStyle: style)
    }
    if let distance = distanceLine(contact) {
      output += labelled(.labelDistance, distance, indent: indent, valueStyle: .plain)
    }
    return output
  }

  func render(listing: ContactListing) -> Rendered {
    let result = listing.result
    guard !result.contacts.isEmpty else {
      // A pasted page is not printed back whole.
      var text =
        listing.query.map { l10n(.contactsNoneFound, ["query": clean(Self.shortened($0))]) }
        ?? l10n(.contactsEmpty)
      if let suggestion = didYouMean(result.suggestions) { text += " " + suggestion }
      return Rendered(stdout: lines(StyledText(text, style: .notice)))
    }
    var output = ""
    for note in [readAs(result), leftOut(result)].compactMap({ $0 }) {
      output += lines(StyledText(note, style: .notice))
    }
    for contact in result.contacts {
      output += listLine(contact, favourite: listing.favourites.contains(contact.id))
    }
    if result.total > result.contacts.count {
      let more = l10n.plural(
        listing.narrowedBy == .words ? .contactsMore : .contactsMoreInList,
        count: result.total - result.contacts.count)
      output += lines(StyledText(more, style: .notice), indent: "  ")
    }
    var notes = ""
    if listing.isSample {
      notes = lines(StyledText(l10n(.directorySample), style: .notice))
    }
    return Rendered(stdout: output, stderr: notes)
  }

  /// "Did you mean Olomouc?" for the names and cities closest to a search that found nothing.
  public func didYouMean(_ suggestions: [String]) -> String? {
    guard !suggestions.isEmpty else { return nil }
    return l10n(
      .contactsDidYouMean, ["names": suggestions.map { clean($0) }.joined(separator: ", ")])
  }

  /// "Searched for “прага”: …" when the query was read in the other keyboard layout.
  public func readAs(_ result: SearchResult) -> String? {
    result.readAs.map { l10n(.contactsReadAs, ["text": clean(Self.shortened($0))]) }
  }

  /// "Found in no office, so left out: Opava." when results came without some words.
  public func leftOut(_ result: SearchResult) -> String? {
    let words = result.leftOut.filter { !$0.isEmpty }
    guard !words.isEmpty else { return nil }
    return l10n(
      .contactsLeftOut, ["words": words.map { clean(Self.shortened($0)) }.joined(separator: ", ")])
  }

  /// At most 80 characters of what was typed, to say it back.
  static func shortened(_ text: String) -> String {
    text.count > 80 ? String(text.prefix(79)) + "…" : text
  }

  /// One line per office: `★ #138503 Centre for Foreigners (Brno)`.
  public func listLine(_ contact: Contact, favourite: Bool) -> String {
    if accessible {
      // Name first: "Centre for Foreigners (Brno), id 138503, favourite".
      var text = clean(contact.name(in: l10n.language))
      if let city = contact.city, !city.isEmpty { text += " (" + clean(city) + ")" }
      text += ", " + idText(contact.id)
      if favourite { text += ", " + l10n(.a11yFavourite) }
      return lines(StyledText(text), indent: "", hangingIndent: "  ")
    }
    var line = StyledText(favourite ? "★ " : "  ", style: .notice)
    line.append("#\(contact.id) ", style: .label)
    line.append(clean(contact.name(in: l10n.language)), style: .bold)
    if let city = contact.city, !city.isEmpty { line.append(" (" + clean(city) + ")") }
    return lines(line, indent: "", hangingIndent: "    ")
  }

  /// An office's id as a list shows it: `#138503`, or "id 138503" in the accessible mode.
  func idText(_ id: Int64) -> String {
    accessible ? l10n(.a11yID, ["id": String(id)]) : "#\(id)"
  }

  func render(directory event: DirectoryEvent) -> Rendered {
    func out(_ text: String) -> Rendered {
      Rendered(stdout: lines(StyledText(text, style: .notice)))
    }
    func err(_ text: String) -> Rendered {
      Rendered(stderr: lines(StyledText(text, style: .error)))
    }
    switch event {
    case .favouriteAdded(let contact):
      return out(l10n(.favouriteAdded, ["name": clean(contact.name(in: l10n.language))]))
    case .alreadyFavourite(let contact):
      return out(l10n(.favouriteAlready, ["name": clean(contact.name(in: l10n.language))]))
    case .favouriteRemoved(_, let contact?):
      return out(
        l10n(.favouriteRemovedNamed, ["name": clean(contact.name(in: l10n.language))]))
    case .favouriteRemoved(let id, nil):
      return out(l10n(.favouriteRemoved, ["id": String(id)]))
    case .notAFavourite(let id):
      return out(l10n(.favouriteNotFavourite, ["id": String(id)]))
    case .contactMissing(let id):
      return err(missingContact(id))
    case .synced(let outcome):
      let text = message(for: outcome)
      return outcome.isFailure || outcome == .notConfigured ? err(text) : out(text)
    case .notice(let notice):
      return Rendered(stderr: lines(StyledText(clean(notice.message(l10n)), style: .notice)))
    case .storageFailed(let error):
      return err(error.message(l10n))
    }
  }

  public func message(for outcome: SyncOutcome, configPath: String = "config.yaml") -> String {
    switch outcome {
    case .updated(let count, let skipped):
      let updated = l10n.plural(.syncUpdated, count: count)
      return skipped == 0 ? updated : updated + " " + l10n.plural(.syncSkippedItems, count: skipped)
    case .unchanged: return l10n(.syncUnchanged)
    case .notDue: return l10n(.syncNotDue)
    case .notConfigured: return l10n(.syncNotConfigured, ["config": configPath])
    case .failed(let error): return clean(error.message(l10n))
    case .storageFailed(let error): return error.message(l10n)
    }
  }
}
