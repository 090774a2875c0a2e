import Foundation
import Synchronization
import TestSupport
import Testing

/// Runs `migrant-chat todo ...` in `home`.
func todo(
  _ arguments: [String], home: TemporaryDirectory, input: String = ""
) throws -> ProcessResult {
  try ProcessRunner.run(
    ProcessRunner.binaryPath, ["todo"] + arguments, input: input, environment: home.environment())
}

@Suite struct TodoEndToEndTests {
  let home = TemporaryDirectory()

  @Test func addListCompleteShowAndExport() throws {
    let empty = try todo([], home: home)
    #expect(empty.status == 0)
    #expect(empty.stdout.hasPrefix("Your to-do list is empty."))
    let added = try todo(
      [
        "add", "Book", "an", "appointment", "--due", "2099-12-01", "--place", "Brno, Cejl 2",
        "--contact", "138503", "--description", "Bring the passport",
      ], home: home)
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stdout.contains("1. [ ] Book an appointment · due Tue 1 December 2099"))
    #expect(try todo(["add", "Pay", "the", "fee", "--due", "через 3 дні"], home: home).status == 0)
    let list = try todo(["list"], home: home)
    #expect(list.stdout.contains("2. [ ] Pay the fee"))
    #expect(list.stdout.contains("(in 3 days)"))
    #expect(try todo(["done", "2"], home: home).stdout == "Done: 2. Pay the fee\n")
    #expect(!(try todo([], home: home).stdout.contains("Pay the fee")))
    #expect(
      try todo(["list", "--done", "--lang", "uk"], home: home).stdout.contains("Виконані справи"))
    let shown = try todo(["show", "1"], home: home)
    #expect(shown.stdout.contains("Bring the passport"))
    #expect(shown.stdout.contains("Place: Brno, Cejl 2"))
    #expect(shown.stdout.contains("• Centre for Foreigners  #138503"))
    let json = try todo(["list", "--all", "--json"], home: home)
    let tasks = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
    #expect(tasks?.count == 2)
    #expect(tasks?.first?["due"] as? String == "2099-12-01")
    #expect(tasks?.first?["contacts"] as? [Int] == [138503])
    let csv = try todo(["list", "--csv"], home: home)
    #expect(csv.stdout.hasPrefix("id,title,description,place,due,done"))
    #expect(
      csv.stdout.contains(#"1,Book an appointment,Bring the passport,"Brno, Cejl 2",2099-12-01,no"#)
    )
    let edited = try todo(["edit", "1", "--due", "none", "--title", "Book it"], home: home)
    // The result is shown, as the list shows the task.
    #expect(edited.stdout == "Changed: 1. Book it\n  1. [ ] Book it\n", "\(edited.stderr)")
    #expect(try todo(["undo", "2"], home: home).status == 0)
    let export = try todo(["export", "--ics", home.path + "/tasks.ics"], home: home)
    #expect(export.status == 0)
    #expect(export.stderr.contains("Wrote 2 tasks to"))
    let ics = try String(contentsOfFile: home.path + "/tasks.ics", encoding: .utf8)
    #expect(ics.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
    #expect(ics.contains("SUMMARY:Book it\r\n"))
    #expect(ics.contains("LOCATION:Brno\\, Cejl 2\r\n"))
    #expect(ics.contains("DESCRIPTION:Bring the passport\\nCentre for Foreigners\\, +420"))
    #expect(try todo(["remove", "1"], home: home).stdout == "Removed: 1. Book it\n")
    #expect(try todo(["show", "1"], home: home).status == 1)
  }

  @Test func badInputIsAClearErrorAndSavesNothing() throws {
    let badDate = try todo(["add", "Pay", "--due", "31.02.2026"], home: home)
    #expect(badDate.status == 2)
    #expect(badDate.stderr.contains("Cannot read the date '31.02.2026'"))
    let russian = try todo(
      ["add", "Оплатить", "--due", "вчера-завтра", "--lang", "ru"], home: home)
    #expect(russian.stderr.contains("Не удалось прочитать дату «вчера-завтра»"))
    #expect(try todo(["add", "x", "--contact", "abc"], home: home).status == 2)
    #expect(try todo(["add", String(repeating: "x", count: 201)], home: home).status == 2)
    #expect(try todo(["edit", "1"], home: home).status == 2)
    #expect(try todo(["done", "7"], home: home).status == 1)
    #expect(try todo(["done", "seven"], home: home).status == 2)
    #expect(try todo(["list", "--json"], home: home).stdout == "[]\n")
    // Nothing was saved, and nothing is in the cache: the to-do list lives in the state.
    let cacheFiles = try FileManager.default.subpathsOfDirectory(atPath: home.path + "/cache")
    #expect(!cacheFiles.contains { $0.contains("user.sqlite") })
  }

  /// Two processes edit one task at once, each its own field, several times in a row:
  /// the end holds each one's last value (an older value put back would be a lost
  /// update), and no run fails.
  @Test func twoProcessesEditingOneTaskLoseNeitherChange() throws {
    _ = try todo(["add", "Shared"], home: home)
    let failures = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 2) { writer in
      for round in 1...5 {
        let arguments =
          writer == 0
          ? ["edit", "1", "--place", "Office \(round)"]
          : ["edit", "1", "--due", "2099-01-0\(round)"]
        do {
          let run = try todo(arguments, home: home)
          if run.status != 0 { failures.withLock { $0.append(run.stderr) } }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
    }
    #expect(failures.withLock { $0 }.isEmpty)
    let task = try todo(["list", "--json"], home: home).stdout
    #expect(task.contains(#""place":"Office 5""#), "\(task)")
    #expect(task.contains(#""due":"2099-01-05""#), "\(task)")
    #expect(task.contains(#""title":"Shared""#))
  }

  /// Several numbers, nothing changed twice, remove without a terminal needs no answer,
  /// messages that name the command line's commands, past dates, missing folders.
  @Test func theCommandLineSpeaksCommandLine() throws {
    for title in ["One", "Two", "Three"] {
      #expect(try todo(["add", title], home: home).status == 0)
    }
    let done = try todo(["done", "1", "2", "3"], home: home)
    #expect(done.status == 0, "\(done.stderr)")
    #expect(done.stdout == "Done: 1. One\nDone: 2. Two\nDone: 3. Three\n")
    let again = try todo(["done", "2"], home: home)
    #expect(again.stdout.contains("Already done: 2. Two"), "\(again.stdout)")
    let missing = try todo(["done", "9"], home: home)
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("migrant-chat todo list") && !missing.stderr.contains("/todo"))
    let bad = try todo(["show", "x"], home: home)
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("migrant-chat todo show") && !bad.stderr.contains("/todo"))
    // Not a terminal: nothing to ask, the tasks go.
    #expect(
      try todo(["remove", "1", "3"], home: home).stdout == "Removed: 1. One\nRemoved: 3. Three\n")
    let list = try todo(["list", "--all"], home: home)
    #expect(!list.stdout.contains("/todo") && list.stdout.contains("migrant-chat todo done N"))
    let past = try todo(["add", "Late", "--due", "1.1.2020", "--lang", "ru"], home: home)
    #expect(past.status == 0)
    // "дней", "день" or "дня" by the day the test runs (2521 is "день"): the date is fixed.
    #expect(
      past.stderr.contains("1 января 2020) была") && past.stderr.contains("назад"), "\(past.stderr)"
    )
    let quoted = try todo(["add", "Купить полис", "--due", "к пятнице"], home: home)
    #expect(quoted.status == 0, "\(quoted.stderr)")
    // A file in a folder that does not exist: an error, and no folder is made.
    let export = try todo(["export", "--ics", home.path + "/no/such/dir/x.ics"], home: home)
    #expect(export.status == 1)
    #expect(export.stderr.contains("does not exist"), "\(export.stderr)")
    #expect(!FileManager.default.fileExists(atPath: home.path + "/no"))
  }

  @Test func theChatSavesAGuidesStepsAndSaysWhatIsDueAtStart() throws {
    let first = try chat(["--offline"], input: "1\n1\n3\n/todo\n", home: home)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("[3] Save these steps to my to-do list"))
    #expect(first.stdout.contains("Added 2 tasks to your to-do list."))
    #expect(first.stdout.contains("Employee card [sample]\n    1. [ ] Book an appointment"))
    _ = try todo(["add", "Renew", "the", "visa", "--due", "tomorrow"], home: home)
    let second = try chat(["--offline", "--lang", "ru"], input: "", home: home)
    // The reminder is not the conversation: stderr, never stdout.
    #expect(second.stderr.contains("Дела: 1 со сроком в ближайшую неделю."), "\(second.stderr)")
    #expect(!second.stdout.contains("Дела: 1"))
    let json = try chat(["--offline", "--json"], input: "", home: home)
    #expect(!json.stdout.contains("due_soon") && !json.stdout.contains("To do:"))
    // The steps were saved once; the saved file is not the cache.
    #expect(
      try todo(["list", "--json"], home: home).stdout.components(separatedBy: "\"id\"").count == 4)
  }

  /// The list is user data: deleting the cache (or its rebuild) leaves it as it was.
  @Test func theListSurvivesTheCachesLoss() throws {
    _ = try todo(["add", "Keep", "me"], home: home)
    try FileManager.default.removeItem(atPath: home.path + "/cache")
    #expect(try todo([], home: home).stdout.contains("1. [ ] Keep me"))
    let mode =
      try FileManager.default.attributesOfItem(
        atPath: home.path + "/state/migrant-chat/user.sqlite")[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  @Test func theChatsJSONModeGivesTodoEvents() throws {
    let result = try chat(
      ["--offline", "--json"], input: "/todo add Call the school --due 2099-09-01\n/todo\n",
      home: home)
    let objects = result.stdout.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    let todoEvents = objects.filter { $0["type"] as? String == "todo" }
    #expect(todoEvents.map { $0["code"] as? String } == ["added", "list"])
    let tasks = todoEvents.last?["tasks"] as? [[String: Any]]
    #expect(tasks?.first?["title"] as? String == "Call the school")
    #expect(tasks?.first?["due"] as? String == "2099-09-01")
  }
}
