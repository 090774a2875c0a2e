// Rendering and decoding: messages per second at 80 columns, MB/s decoded.
import Foundation
import MigrantChatCore

/// A typical reply: text with markup, buttons, and three contact cards.
private func typicalReply() -> ChatEvent {
  let text = BotMessage(
    text:
      "To extend your **residence permit**, book an appointment at the Ministry of the Interior "
      + "office for your region at least 120 days before it expires. Bring your passport, a photo, "
      + "proof of accommodation and of the purpose of your stay. See [the ministry](https://frs.gov.cz/en/).",
    buttons: [
      Button(title: "Book an appointment", payload: "/book"),
      Button(title: "What documents do I need?", payload: "/documents"),
      Button(title: "Back", payload: "/back"),
    ])
  let cards = BotMessage(
    custom: .object(["contacts": .array([.number(1), .number(2), .number(3)])]))
  var found: [String: Contact] = [:]
  for id in 1...3 {
    var contact = Contact(id: Int64(id), name: "Centre for the Integration of Foreigners \(id)")
    contact.address = "Mečová \(id), 602 00 Brno"
    contact.city = "Brno"
    contact.phone = "+420 500 000 00\(id)"
    contact.email = "office\(id)@example.org"
    contact.web = "https://office\(id).example.org"
    contact.openingHours = "Mo-Th 09:00-17:00, Fr 09:00-14:00"
    found[String(id)] = contact
  }
  return .reply(
    BotReply(messages: [text, cards]),
    contacts: ContactCards(found: found, favourites: [2], resolved: true))
}

func benchRendering(count: Int) {
  let clock = ContinuousClock()
  let event = typicalReply()
  var best = 0.0
  for language in [Language.en, .ru, .uk] {
    let renderer = Renderer(width: 80, color: false, language: language)
    var bytes = 0
    let elapsed = clock.measure {
      for _ in 0..<count { bytes &+= renderer.render(event).stdout.utf8.count }
    }
    // Two messages per reply: the text with buttons, and the cards.
    let rate = Double(count * 2) / (milliseconds(elapsed) / 1000)
    best = max(best, rate)
    print(
      String(
        format:
          "render %@ (text + 3 buttons, 3 cards), 80 columns: %.0f messages/s (%d bytes each)",
        language.rawValue, rate, bytes / count))
  }
  figure("render.messages_per_s", best)
}

func benchDecoding(files: [String]) throws {
  var bodies: [Data] = []
  for file in files {
    let text = try String(contentsOfFile: file, encoding: .utf8)
    bodies += text.split(separator: "\n").map { Data($0.utf8) }
  }
  guard !bodies.isEmpty else {
    print("decode: no recorded answers given")
    exit(2)
  }
  let total = bodies.reduce(0) { $0 + $1.count }
  let clock = ContinuousClock()
  var rounds = 0
  var messages = 0
  let elapsed = clock.measure {
    while rounds < 5 || messages < 200_000 {
      for body in bodies {
        if let reply = try? BotReplyDecoder.decode(body) { messages += reply.messages.count }
      }
      rounds += 1
    }
  }
  let seconds = milliseconds(elapsed) / 1000
  let rate = Double(total * rounds) / 1e6 / seconds
  print(
    String(
      format: "decode %d recorded answers (%d bytes) x %d: %.1f MB/s, %.0f messages/s",
      bodies.count, total, rounds, rate, Double(messages) / seconds))
  figure("decode.mb_per_s", rate)
  figure("decode.messages_per_s", Double(messages) / seconds)
}
