/// One message of a bot's reply, as the client understood it.
///
/// Every field is optional because Rasa sends text, buttons, images and
/// custom payloads as separate messages. Strings here are raw, as the server
/// sent them; the renderer sanitizes them before they reach a terminal.
public struct BotMessage: Sendable, Hashable {
  public var text: String?
  /// `buttons` and `quick_replies`, in that order.
  public var buttons: [Button]
  public var image: String?
  public var attachment: JSONValue?
  /// The `custom` payload as the server sent it (transcripts and `--json` keep it whole).
  public var custom: JSONValue?
  public var elements: [CardElement]
  /// The guide this message shows: what `/todo save` and `/report` refer to.
  ///
  /// The offline assistant and `serve` send it as `custom.faq_item`; it is the
  /// client's marker, never shown as data.
  public var guideID: Int64?

  public init(
    text: String? = nil, buttons: [Button] = [], image: String? = nil,
    attachment: JSONValue? = nil, custom: JSONValue? = nil, elements: [CardElement] = [],
    guideID: Int64? = nil
  ) {
    self.text = text
    self.buttons = buttons
    self.image = image
    self.attachment = attachment
    self.custom = custom
    self.elements = elements
    self.guideID = guideID ?? custom?["faq_item"].flatMap(ItemsPayloadDecoder.id)
  }

  /// The choices a user can pick by number, in the order they are shown:
  /// the message's buttons, then each card's buttons.
  public var choices: [Button] {
    buttons.filter(\.isChoice) + elements.flatMap { $0.buttons.filter(\.isChoice) }
  }

  /// `custom.sample: true`: made-up guidance from the embedded sample, marked where shown.
  public var isSample: Bool { custom?["sample"] == .bool(true) }

  /// What of `custom` the client does not understand, shown as data; nil when nothing is left.
  ///
  /// The markers that have their own place (`sample`, `contacts`, `faq_item`) are left out,
  /// so no marker of the client's own ever reaches the screen as raw JSON.
  public var unknownCustom: JSONValue? {
    guard case .object(var members)? = custom else { return custom }
    if isSample { members["sample"] = nil }
    if !contactIDs.isEmpty { members["contacts"] = nil }
    if guideID != nil || members["faq_item"].flatMap(ItemsPayloadDecoder.id) != nil {
      members["faq_item"] = nil
    }
    return members.isEmpty ? nil : .object(members)
  }

  /// Contact ids from `custom.contacts`, as strings (ids may be numbers or strings).
  public var contactIDs: [String] {
    guard let contacts = custom?["contacts"]?.arrayValue else { return [] }
    return contacts.compactMap { value in
      switch value {
      case .number(let number): JSONValue.format(number)
      case .string(let string): string
      default: nil
      }
    }
  }
}

/// A quick reply: choosing it sends its payload as the next message.
public struct Button: Sendable, Hashable {
  public var title: String
  /// What is sent when the button is chosen; nil for a link-only button.
  public var payload: String?
  /// A web link (`type: web_url`), shown rather than sent.
  public var url: String?

  public init(title: String, payload: String? = nil, url: String? = nil) {
    self.title = title
    self.payload = payload
    self.url = url
  }

  /// Whether choosing this button sends something to the bot.
  public var isChoice: Bool { payload != nil }
}

/// A card from a generic template (`elements`): title, subtitle, image, buttons.
public struct CardElement: Sendable, Hashable {
  public var title: String
  public var subtitle: String?
  public var imageURL: String?
  public var buttons: [Button]

  public init(
    title: String, subtitle: String? = nil, imageURL: String? = nil, buttons: [Button] = []
  ) {
    self.title = title
    self.subtitle = subtitle
    self.imageURL = imageURL
    self.buttons = buttons
  }
}
