import Foundation

/// The to-do list as an iCalendar file (RFC 5545) of `VTODO` entries, so a
/// phone or desktop calendar can hold the due dates.
///
/// Lines end in CRLF and are folded at 75 octets without splitting a UTF-8
/// sequence (§3.1); text values escape backslash, semicolon, comma and line
/// breaks (§3.3.11); due dates are `DATE` values (a day, no time). Each task's
/// `UID` is stable, so importing the file again updates the entries rather
/// than duplicating them.
public enum TodoCalendar {
  public static func ics(
    _ tasks: [TodoTask], contacts: [Int64: Contact], language: Language, now: Date
  ) -> String {
    var lines = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//migrant-chat//to-do list//EN",
      "CALSCALE:GREGORIAN",
    ]
    let stamp = timestamp(now)
    for task in tasks {
      lines.append("BEGIN:VTODO")
      lines.append("UID:migrant-chat-todo-\(task.id)-\(Int(task.createdAt.timeIntervalSince1970))")
      lines.append("DTSTAMP:" + stamp)
      lines.append("CREATED:" + timestamp(task.createdAt))
      lines.append("LAST-MODIFIED:" + timestamp(task.updatedAt))
      lines.append("SUMMARY:" + escape(task.title))
      let offices = task.contacts.compactMap { contacts[$0] }.map { contact in
        [contact.name(in: language), contact.phone, contact.address(in: language)]
          .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
      }
      let description = ([task.details] + offices).filter { !$0.isEmpty }
        .joined(separator: "\n")
      if !description.isEmpty { lines.append("DESCRIPTION:" + escape(description)) }
      if !task.place.isEmpty { lines.append("LOCATION:" + escape(task.place)) }
      if let guide = task.guideTitle, !guide.isEmpty {
        lines.append("CATEGORIES:" + escape(guide))
      }
      if let due = task.due { lines.append("DUE;VALUE=DATE:" + due.basic) }
      if let completed = task.completedAt {
        lines.append("STATUS:COMPLETED")
        lines.append("COMPLETED:" + timestamp(completed))
      } else {
        lines.append("STATUS:NEEDS-ACTION")
      }
      lines.append("END:VTODO")
    }
    lines.append("END:VCALENDAR")
    return lines.map(fold).joined(separator: "\r\n") + "\r\n"
  }

  /// A TEXT value: `\`, `;`, `,` and line breaks escaped; what a terminal would act on
  /// (C0 and C1 controls, ESC sequences such as OSC 52, bidi overrides) dropped first, as
  /// `TerminalSanitizer` does: `--ics -` prints it, and calendars show it.
  static func escape(_ text: String) -> String {
    var result = ""
    let clean = TerminalSanitizer.clean(text.replacingOccurrences(of: "\r\n", with: "\n"))
    for scalar in clean.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case ";": result += "\\;"
      case ",": result += "\\,"
      case "\n", "\r": result += "\\n"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F { continue }
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// Splits a content line into lines of at most 75 octets, continued by a space.
  static func fold(_ line: String) -> String {
    var output: [String] = []
    var current = String.UnicodeScalarView()
    var octets = 0
    // By scalar, not by character: a cluster of combining marks can be longer than a line.
    for scalar in line.unicodeScalars {
      let size = UTF8.width(scalar)
      // The first line holds 75 octets; continuation lines 74 after their leading space.
      let limit = output.isEmpty ? 75 : 74
      if octets + size > limit {
        output.append(String(current))
        current = String.UnicodeScalarView()
        octets = 0
      }
      current.append(scalar)
      octets += size
    }
    output.append(String(current))
    return output.joined(separator: "\r\n ")
  }

  /// `YYYYMMDDTHHMMSSZ` in UTC.
  static func timestamp(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    let parts = calendar.dateComponents(
      [.year, .month, .day, .hour, .minute, .second], from: date)
    return String(
      format: "%04d%02d%02dT%02d%02d%02dZ", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1,
      parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
  }
}
