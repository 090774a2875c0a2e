import Foundation
import TestSupport
import Testing

/// Runs `migrant-chat report ...` in `home`.
func report(_ arguments: [String], home: TemporaryDirectory) throws -> ProcessResult {
  try ProcessRunner.run(
    ProcessRunner.binaryPath, ["report"] + arguments, environment: home.environment())
}

/// Reports of wrong guides: the queue with the data API down, up, answering 500 and 400.
@Suite struct ReportEndToEndTests {
  let home = TemporaryDirectory()

  /// A port nothing listens on.
  static let downAPI = "http://127.0.0.1:9"

  @Test func aReportWaitsWhileTheAPIIsDownAndIsSentAtTheNextChatStart() throws {
    let down = try report(
      ["30", "The", "deposit", "rule", "changed", "--data-api", Self.downAPI], home: home)
    #expect(down.status == 1)
    #expect(down.messages.contains("Your report on 'Finding accommodation' is saved"))
    #expect(down.messages.contains("will be sent at the next sync or chat start"))
    let pending = try report(["--pending"], home: home)
    #expect(
      pending.stdout.hasPrefix("1. \"Finding accommodation\" (guide 30), "), "\(pending.stdout)")
    #expect(pending.stdout.contains("The deposit rule changed"))
    #expect(pending.stdout.contains("waiting: cannot reach"))

    let api = try DataAPIServer()
    let started = try chat(["--offline", "--data-api", api.baseURL], input: "", home: home)
    #expect(started.stdout.contains("1 saved report on a guide was sent."), "\(started.stderr)")
    #expect(api.postedReports.count == 1)
    #expect(api.postedReports.first?["itemId"] as? Int == 30)
    #expect(api.postedReports.first?["description"] as? String == "The deposit rule changed")
    #expect(try report(["--pending"], home: home).stdout == "No report is waiting to be sent.\n")
    // Sent once: the next start sends nothing.
    _ = try chat(["--offline", "--data-api", api.baseURL], input: "", home: home)
    #expect(api.postedReports.count == 1)
  }

  @Test func a500KeepsItWaitingAnd400KeepsItRefusedUntilSentOrDropped() throws {
    let api = try DataAPIServer()
    api.setReportAnswers([.http(status: 500, body: Data("oops".utf8))])
    let failed = try report(["10", "Fee", "is", "wrong", "--data-api", api.baseURL], home: home)
    #expect(failed.status == 1)
    #expect(failed.messages.contains("HTTP 500"))
    #expect(try report(["--pending"], home: home).stdout.contains("waiting: "))

    api.setReportAnswers([.http(status: 400, body: Data("itemId unknown".utf8))])
    let refused = try report(["999", "No such guide", "--data-api", api.baseURL], home: home)
    #expect(refused.status == 1)
    #expect(
      refused.messages.contains("did not accept the report on '#999' (HTTP 400: itemId unknown)"))
    let pending = try report(["--pending"], home: home).stdout
    #expect(
      pending.contains("1. \"Employee card [sample]\" (guide 10)")
        || pending.contains("1. \"Employee card\" (guide 10)"), "\(pending)")
    #expect(pending.contains("2. guide 999, not in the cached guidance"))
    #expect(pending.contains("not accepted: HTTP 400: itemId unknown"))

    // A chat start sends the waiting one, not the refused one.
    api.setReportAnswers([.json("{}", status: 201)])
    let posts = api.postedReports.count
    let started = try chat(["--offline", "--data-api", api.baseURL], input: "", home: home)
    #expect(started.stdout.contains("1 saved report on a guide was sent."))
    #expect(api.postedReports.count == posts + 1)
    #expect(try report(["--pending"], home: home).stdout.hasPrefix("2. guide 999"))

    #expect(try report(["--drop", "5"], home: home).status == 1)
    #expect(try report(["--drop", "2"], home: home).stdout == "Dropped waiting report 2.\n")
    #expect(try report(["--pending"], home: home).stdout == "No report is waiting to be sent.\n")
  }

  @Test func reportSendRetriesEvenRefusedOnes() throws {
    let api = try DataAPIServer()
    api.setReportAnswers([.http(status: 422, body: Data()), .json("{}", status: 201)])
    #expect(try report(["10", "x", "--data-api", api.baseURL], home: home).status == 1)
    let sent = try report(["--send", "--data-api", api.baseURL], home: home)
    #expect(sent.status == 0, "\(sent.stderr)")
    #expect(sent.stdout.hasPrefix("1 saved report on a guide was sent."))
  }

  /// `--send` with reports waiting and no data API cannot send: exit 1, as documented;
  /// `--pending` in Russian is Russian throughout.
  @Test func sendWithoutADataAPIFailsAndPendingSpeaksTheLanguage() throws {
    #expect(try report(["10", "Сбор", "изменился"], home: home).status == 1)
    let send = try report(["--send", "--lang", "ru"], home: home)
    #expect(send.status == 1)
    #expect(send.stderr.contains("не удаётся отправить"), "\(send.stderr)")
    let pending = try report(["--pending", "--lang", "ru"], home: home).stdout
    #expect(
      pending.contains("(инструкция 10)") && pending.contains("ждёт отправки: не указан адрес"),
      "\(pending)")
    #expect(!pending.contains("no data API"), "\(pending)")
  }

  @Test func aContactsSyncSendsTheQueue() throws {
    #expect(try report(["20", "Old", "--data-api", Self.downAPI], home: home).status == 1)
    let api = try DataAPIServer()
    let sync = try contacts(["sync", "--data-api", api.baseURL], home: home)
    #expect(sync.status == 0, "\(sync.stderr)")
    #expect(sync.stderr.contains("1 saved report on a guide was sent."))
    #expect(api.postedReports.first?["itemId"] as? Int == 20)
  }

  @Test func badInputIsAUsageError() throws {
    #expect(try report([], home: home).status == 2)
    #expect(try report(["ten", "wrong"], home: home).messages.contains("'ten' is not a guide id"))
    #expect(try report(["10"], home: home).status == 2)
    #expect(try report(["10", String(repeating: "x", count: 10_001)], home: home).status == 2)
    #expect(try report(["--pending"], home: home).stdout == "No report is waiting to be sent.\n")
  }

  /// The whole way: the chat's `/report` -> `serve`'s data API -> its reports database.
  @Test func theChatsReportReachesServesReportsFile() throws {
    let serverHome = TemporaryDirectory()
    let serve = try ServeProcess(home: serverHome)
    let result = try chat(
      ["--server", serve.baseURL, "--data-api", serve.baseURL, "--lang", "uk"],
      input: "3\n1\n/report\nЗастава тепер інша\n", home: home)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Що не так з інструкцією «Пошук житла»?"), "\(result.stdout)")
    #expect(
      result.stdout.contains("Дякуємо! Ваше повідомлення про помилку в інструкції «Пошук житла"))
    let saved = try ServeProcess.storedReports(home: serverHome)
    #expect(saved.first?["description"] as? String == "Застава тепер інша")
    #expect(saved.first?["itemId"] as? Int == 30)
    _ = serve.stop()
  }
}
