// Rendering and decoding: messages per second at 80 columns, MB/s decoded.
import Foundation
import MigrantChatCore

/// One bot answer as the bot writes it in a language: markup, a link, three buttons.
private struct Answer {
  var text: String
  var buttons: [(String, String)]
}

/// Two typical answers per language (a residence permit, health insurance), written in
/// each language, not English text under a ru or uk label.
private let answers: [Language: [Answer]] = [
  .en: [
    Answer(
      text:
        "To extend your **residence permit**, book an appointment at the Ministry of the Interior "
        + "office for your region at least 120 days before it expires. Bring your passport, a photo, "
        + "proof of accommodation and of the purpose of your stay. See [the ministry](https://frs.gov.cz/en/).",
      buttons: [
        ("Book an appointment", "/book"), ("What documents do I need?", "/documents"),
        ("Back", "/back"),
      ]),
    Answer(
      text:
        "Foreigners staying longer than 90 days need **comprehensive health insurance** from an "
        + "insurer licensed in the Czech Republic, unless they work here on a contract: an employee "
        + "is in the public system from the first day of work. Students and family members of EU "
        + "citizens may have other options. Compare the offers at [the Ministry of Health](https://mzd.gov.cz/).",
      buttons: [
        ("Which insurers offer it?", "/insurers"), ("I work on a contract", "/employee"),
        ("Back", "/back"),
      ]),
  ],
  .ru: [
    Answer(
      text:
        "Чтобы продлить **вид на жительство**, запишитесь на приём в отделение Министерства "
        + "внутренних дел по вашему краю не позднее чем за 120 дней до окончания его срока. "
        + "Возьмите паспорт, фотографию, подтверждение жилья и цели пребывания. Подробнее на "
        + "[сайте министерства](https://frs.gov.cz/ru/).",
      buttons: [
        ("Записаться на приём", "/book"), ("Какие документы нужны?", "/documents"),
        ("Назад", "/back"),
      ]),
    Answer(
      text:
        "Иностранцам, которые находятся в Чехии дольше 90 дней, нужна **комплексная медицинская "
        + "страховка** от страховой компании с чешской лицензией, если они не работают здесь по "
        + "трудовому договору: работник входит в государственную систему с первого рабочего дня. "
        + "У студентов и членов семей граждан ЕС могут быть другие варианты. Сравните предложения "
        + "на [сайте Министерства здравоохранения](https://mzd.gov.cz/).",
      buttons: [
        ("Какие компании её предлагают?", "/insurers"), ("Я работаю по договору", "/employee"),
        ("Назад", "/back"),
      ]),
  ],
  .uk: [
    Answer(
      text:
        "Щоб продовжити **посвідку на проживання**, запишіться на прийом до відділення "
        + "Міністерства внутрішніх справ у вашому краї щонайменше за 120 днів до закінчення її "
        + "строку. Візьміть паспорт, фотографію, підтвердження житла та мети перебування. "
        + "Докладніше на [сайті міністерства](https://frs.gov.cz/uk/).",
      buttons: [
        ("Записатися на прийом", "/book"), ("Які документи потрібні?", "/documents"),
        ("Назад", "/back"),
      ]),
    Answer(
      text:
        "Іноземцям, які перебувають у Чехії довше 90 днів, потрібне **комплексне медичне "
        + "страхування** від страхової компанії з чеською ліцензією, якщо вони не працюють тут "
        + "за трудовим договором: працівник входить до державної системи з першого робочого дня. "
        + "Студенти та члени родин громадян ЄС можуть мати інші варіанти. Порівняйте пропозиції "
        + "на [сайті Міністерства охорони здоров’я](https://mzd.gov.cz/).",
      buttons: [
        ("Які компанії його пропонують?", "/insurers"), ("Я працюю за договором", "/employee"),
        ("Назад", "/back"),
      ]),
  ],
]

/// Three contact cards, with the offices' names and opening hours in each language.
private func cards() -> ContactCards {
  var found: [String: Contact] = [:]
  for id in 1...3 {
    var contact = Contact(
      id: Int64(id), name: "Centre for the Integration of Foreigners \(id)",
      localized: [
        .ru: Contact.LocalizedAttributes(
          name: "Центр поддержки интеграции иностранцев \(id)",
          openingHours: "Пн–Чт 09:00–17:00, Пт 09:00–14:00"),
        .uk: Contact.LocalizedAttributes(
          name: "Центр підтримки інтеграції іноземців \(id)",
          openingHours: "Пн–Чт 09:00–17:00, Пт 09:00–14:00"),
      ])
    contact.address = "Mečová \(id), 602 00 Brno"
    contact.city = "Brno"
    contact.phone = "+420 500 000 00\(id)"
    contact.email = "office\(id)@example.org"
    contact.web = "https://office\(id).example.org"
    contact.openingHours = "Mo-Th 09:00-17:00, Fr 09:00-14:00"
    found[String(id)] = contact
  }
  return ContactCards(found: found, favourites: [2], resolved: true)
}

/// The typical replies in `language`: an answer with buttons, then three contact cards.
private func typicalReplies(_ language: Language) -> [ChatEvent] {
  let cardsMessage = BotMessage(
    custom: .object(["contacts": .array([.number(1), .number(2), .number(3)])]))
  return (answers[language] ?? []).map { answer in
    let text = BotMessage(
      text: answer.text, buttons: answer.buttons.map { Button(title: $0.0, payload: $0.1) })
    return .reply(BotReply(messages: [text, cardsMessage]), contacts: cards())
  }
}

func benchRendering(count: Int) {
  let clock = ContinuousClock()
  var best = 0.0
  for language in [Language.en, .ru, .uk] {
    let replies = typicalReplies(language)
    let renderer = Renderer(width: 80, color: false, language: language)
    var bytes = 0
    let elapsed = clock.measure {
      for index in 0..<count {
        bytes &+= renderer.render(replies[index % replies.count]).stdout.utf8.count
      }
    }
    // Two messages per reply: the text with buttons, and the cards.
    let rate = Double(count * 2) / (milliseconds(elapsed) / 1000)
    best = max(best, rate)
    print(
      String(
        format:
          "render %@ (text + 3 buttons, 3 cards), 80 columns: %.0f messages/s (%d bytes each)",
        language.rawValue, rate, bytes / count))
    figure("render.\(language.rawValue)_messages_per_s", rate)
  }
  figure("render.messages_per_s", best)
}

/// A recorded answer: its bytes and where it came from, for the message when it fails.
private struct Recorded {
  var body: Data
  var place: String
}

func benchDecoding(files: [String]) throws {
  var recorded: [Recorded] = []
  for file in files {
    let text = try String(contentsOfFile: file, encoding: .utf8)
    for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    where !line.isEmpty {
      recorded.append(Recorded(body: Data(line.utf8), place: "\(file):\(offset + 1)"))
    }
  }
  guard !recorded.isEmpty else {
    print("decode: no recorded answers given")
    exit(2)
  }
  // Every recorded answer must decode whole: a failure would be counted as decoded bytes.
  var failures: [String] = []
  for answer in recorded {
    do {
      let reply = try BotReplyDecoder.decode(answer.body)
      if !reply.problems.isEmpty {
        let problems = reply.problems.map { "\($0)" }.joined(separator: ", ")
        failures.append("\(answer.place): decoded with problems: \(problems)")
      }
    } catch {
      failures.append("\(answer.place): does not decode: \(error)")
    }
  }
  guard failures.isEmpty else {
    for failure in failures { FileHandle.standardError.write(Data("decode: \(failure)\n".utf8)) }
    FileHandle.standardError.write(
      Data(
        "decode: \(failures.count) of \(recorded.count) recorded answers failed; no figure\n".utf8))
    exit(1)
  }
  let bodies = recorded.map(\.body)
  let clock = ContinuousClock()
  var rounds = 0
  var messages = 0
  // Bytes of the bodies that decoded, not of the bodies tried.
  var decodedBytes = 0
  var failed = 0
  let elapsed = clock.measure {
    while rounds < 5 || messages < 200_000 {
      for body in bodies {
        if let reply = try? BotReplyDecoder.decode(body) {
          messages += reply.messages.count
          decodedBytes += body.count
        } else {
          failed += 1
        }
      }
      rounds += 1
    }
  }
  guard failed == 0 else {
    FileHandle.standardError.write(Data("decode: \(failed) decodings failed while timed\n".utf8))
    exit(1)
  }
  let seconds = milliseconds(elapsed) / 1000
  let rate = Double(decodedBytes) / 1e6 / seconds
  print(
    String(
      format: "decode %d recorded answers (%d bytes) x %d: %.1f MB/s, %.0f messages/s",
      bodies.count, decodedBytes / rounds, rounds, rate, Double(messages) / seconds))
  figure("decode.mb_per_s", rate)
  figure("decode.messages_per_s", Double(messages) / seconds)
}
