import Foundation
import Testing

@testable import MigrantChatCore

@Suite struct TodoCalendarTests {
  let now = Date(timeIntervalSince1970: 1_795_000_000)

  func task(
    _ id: Int64, _ title: String, details: String = "", due: DayDate? = nil, done: Bool = false
  )
    -> TodoTask
  {
    TodoTask(
      id: id,
      draft: TodoDraft(
        title: title, details: details, place: "Brno; Mečová 5", due: due,
        contacts: [138503], guideTitle: "Employee card"),
      completedAt: done ? now : nil, createdAt: now, updatedAt: now)
  }

  /// RFC 5545's shape: CRLF lines of at most 75 octets, continuation lines start with a
  /// space, BEGIN and END balanced, the properties each VTODO needs.
  @Test func structureFoldingAndEscaping() throws {
    let long = String(repeating: "Запишіться на прийом до відділу МВС, ", count: 6)
    let tasks = [
      task(1, long, details: "line one\nline two, with \\ and ;", due: DayDate(iso: "2026-12-01")),
      task(2, "Done thing", done: true),
    ]
    var contact = Contact(id: 138503, name: "Centre for Foreigners")
    contact.phone = "+420 500 000 001"
    let text = TodoCalendar.ics(tasks, contacts: [138503: contact], language: .en, now: now)
    #expect(text.hasSuffix("\r\n"))
    let lines = text.components(separatedBy: "\r\n").dropLast()
    #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    for line in lines { #expect(line.utf8.count <= 75, "\(line)") }
    // Unfolding gives back whole UTF-8 (no sequence was split) and the escaped values.
    let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
    let properties = unfolded.components(separatedBy: "\r\n").dropLast()
    #expect(properties.filter { $0 == "BEGIN:VTODO" }.count == 2)
    #expect(properties.filter { $0 == "END:VTODO" }.count == 2)
    #expect(properties.first == "BEGIN:VCALENDAR" && properties.last == "END:VCALENDAR")
    #expect(properties.contains("VERSION:2.0"))
    #expect(properties.contains("SUMMARY:" + long.replacingOccurrences(of: ",", with: "\\,")))
    #expect(
      properties.contains(
        #"DESCRIPTION:line one\nline two\, with \\ and \;\nCentre for Foreigners\, +420 500 000 001"#
      ))
    #expect(properties.contains(#"LOCATION:Brno\; Mečová 5"#))
    #expect(properties.contains("DUE;VALUE=DATE:20261201"))
    #expect(properties.contains("STATUS:NEEDS-ACTION"))
    #expect(properties.contains("STATUS:COMPLETED"))
    #expect(properties.filter { $0.hasPrefix("UID:") }.count == 2)
    #expect(properties.filter { $0.hasPrefix("DTSTAMP:") }.allSatisfy { $0.hasSuffix("Z") })
    #expect(lines.count > properties.count, "the long summary was folded")
  }

  @Test func foldingNeverSplitsAScalarAndKeepsEveryOctet() {
    for text in [
      "a", String(repeating: "ж", count: 200), String(repeating: "🙂", count: 40),
      "e" + String(repeating: "\u{0301}", count: 100),
    ] {
      let folded = TodoCalendar.fold("SUMMARY:" + text)
      for line in folded.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 75) }
      // Unfolded by bytes: a space before a combining mark would join it as one character.
      var bytes: [UInt8] = []
      for byte in folded.utf8 {
        bytes.append(byte)
        if bytes.suffix(3) == [13, 10, 32] { bytes.removeLast(3) }
      }
      #expect(bytes == Array(("SUMMARY:" + text).utf8))
    }
  }

  /// What a terminal would act on is dropped whole: ESC sequences (colours, OSC 52 to
  /// the clipboard), C1 controls, bidi overrides; the file and `--ics -` carry none.
  @Test func controlCharactersAreDropped() {
    #expect(TodoCalendar.escape("a\u{1B}[31mb\u{07}") == "ab")
    #expect(TodoCalendar.escape("x\u{1B}]52;c;ZXZpbA==\u{07}y") == "xy")
    #expect(TodoCalendar.escape("p\u{9B}2Jq\u{85}r\u{202E}s") == "pqrs")
  }
}
