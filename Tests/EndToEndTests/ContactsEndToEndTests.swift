import Foundation
import TestSupport
import Testing

@Suite struct ContactsEndToEndTests {
  let home = TemporaryDirectory()

  func jsonIDs(_ result: ProcessResult) -> [Int] {
    let array =
      try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
    return (array ?? []).compactMap { $0["id"] as? Int }
  }

  @Test func theSampleWorksOfflineOnFirstRun() throws {
    let list = try contacts(["list"], home: home)
    #expect(list.status == 0)
    #expect(list.stdout.contains("#138503 Centre for Foreigners (Brno)"))
    #expect(list.messages.contains("sample data"))
    #expect(try contacts(["search", "mecova"], home: home).stdout.contains("#138503"))
    #expect(try contacts(["search", "leto"], home: home).stdout.contains("Letohrad"))
    let russian = try contacts(["search", "бюро", "--lang", "ru"], home: home)
    #expect(russian.stdout.contains("#138504 Бюро по труду, филиал Брно (Brno)"))
    #expect(russian.messages.contains("только пример, встроенный в migrant-chat"))
  }

  @Test func firstNoChangeAndChangedSync() throws {
    let api = try DataAPIServer()
    api.setContacts([
      DataAPIServer.contact(1, "Alpha Office"), DataAPIServer.contact(2, "Beta Office"),
      DataAPIServer.contact(3, "Gamma Office", city: "Ostrava"),
    ])
    let first = try contacts(["sync", "--data-api", api.baseURL], home: home)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout == "Directory updated: 3 offices.\n")
    #expect(api.requests.map(\.path) == ["/contacts/", "/faq/tags/", "/faq/items/"])
    #expect(jsonIDs(try contacts(["list", "--json"], home: home)) == [1, 2, 3])
    // No "sample" note once real data is in.
    #expect(!(try contacts(["list"], home: home)).messages.contains("sample"))

    let unchanged = try contacts(["sync", "--data-api", api.baseURL], home: home)
    #expect(unchanged.stdout == "The directory is up to date.\n")
    let versionRequest = try #require(api.requests.last)
    #expect(versionRequest.path == "/data-version")
    let since = Int(versionRequest.target.split(separator: "=").last ?? "") ?? 0
    #expect(abs(Double(since) - Date().timeIntervalSince1970) < 600)
    #expect(api.contactFetches == 1)

    api.setChanged(["faq_items", "contacts"])
    api.setContacts([DataAPIServer.contact(4, "Delta Office")])
    let changed = try contacts(
      ["sync"], home: home, environment: ["MIGRANT_CHAT_DATA_API": api.baseURL])
    #expect(changed.stdout == "Directory updated: 1 office.\n")
    #expect(jsonIDs(try contacts(["list", "--json"], home: home)) == [4])
  }

  @Test(arguments: [
    ("<html><title>502 Bad Gateway</title></html>", "it is not JSON"),
    (#"[{"id":1,"name":"x"}]"#, "it is a JSON array, not an object with an 'items' list"),
  ])
  func aGarbagePayloadKeepsTheOldDirectory(body: String, reason: String) throws {
    let api = try DataAPIServer()
    api.setContacts([DataAPIServer.contact(1, "Kept Office")])
    _ = try contacts(["sync", "--data-api", api.baseURL], home: home)
    api.setChanged(["contacts"])
    api.setContacts(.http(status: 200, body: Data(body.utf8)))
    let result = try contacts(["sync", "--data-api", api.baseURL], home: home)
    #expect(result.status == 1)
    #expect(result.messages.contains("sent an unusable 'contacts' table: \(reason)."))
    #expect(result.messages.contains("The cached directory was kept."))
    #expect(jsonIDs(try contacts(["search", "kept", "--json"], home: home)) == [1])
  }

  @Test func partialItemsAreSkippedAndCounted() throws {
    let api = try DataAPIServer()
    api.setContacts([
      DataAPIServer.contact(1, "Good Office"), #"{"name":"no id"}"#,
      #"{"id":"2","name":"String Id"}"#,
      #"{"id":3,"name":"Bad","email":["x"]}"#,
    ])
    let result = try contacts(["sync", "--data-api", api.baseURL], home: home)
    #expect(result.status == 0)
    #expect(
      result.stdout
        == "Directory updated: 2 offices. 2 items were skipped: no id, or fields of the wrong type.\n"
    )
    #expect(jsonIDs(try contacts(["list", "--json"], home: home)) == [1, 2])
  }

  @Test func aDataAPIThatIsDownLeavesTheCacheAndSaysSoOnce() throws {
    let down = "http://127.0.0.1:\(unusedLoopbackPort())"
    let bot = try makeScenarioBot()
    let result = try chat(
      ["--server", bot.baseURL, "--data-api", down], input: "1\n", home: home)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("• Centre for Foreigners  #138503"))
    #expect(result.messages.components(separatedBy: "is offline").count == 2)
    #expect(result.messages.contains("The data API at \(down) is offline (connection refused)."))

    // Within the hour the chat does not try again; asking does.
    let again = try chat(["--server", bot.baseURL, "--data-api", down], input: "1\n", home: home)
    #expect(!again.messages.contains("is offline"))
    let sync = try contacts(["sync", "--data-api", down], home: home)
    #expect(sync.status == 1)
    #expect(sync.messages.contains("The data API at \(down) is offline (connection refused)."))
  }

  @Test func retryAfterIsHonoured() throws {
    let api = try DataAPIServer()
    api.failFirst([
      .http(status: 429, headers: ["Retry-After": "1"], body: Data("slow down".utf8)),
      .http(status: 503, body: Data("<html><title>Maintenance</title></html>".utf8)),
    ])
    api.setContacts([DataAPIServer.contact(1, "Patient Office")])
    let result = try contacts(["sync", "--data-api", api.baseURL], home: home)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(api.contactFetches == 3)
  }

  @Test func aClientErrorIsReportedWithItsStatus() throws {
    let api = try DataAPIServer()
    let result = try contacts(["sync", "--data-api", api.baseURL + "/wrong"], home: home)
    #expect(result.status == 1)
    #expect(result.messages.contains("answered with HTTP status 404 (Not Found)"))
    #expect(api.contactFetches == 0)
  }

  @Test func unknownIDsInAReplyTriggerASyncOrAHint() throws {
    let bot = try makeScenarioBot()
    let offline = try chat(["--server", bot.baseURL], input: "unknown\n", home: home)
    #expect(offline.status == 0)
    // No data API: /sync could not help, so the hint says how to configure one.
    let folded = offline.stdout.replacingOccurrences(of: "\n    ", with: " ")
    #expect(
      folded.contains(
        "  Contact 999999 is not in the directory. For the real directory, set a data API:"))
    #expect(!offline.stdout.contains("/sync"))
    #expect(offline.stdout.contains("• Centre for Foreigners  #138503"))
    let cli = try contacts(["show", "999999", "--lang", "uk"], home: home)
    #expect(cli.messages.contains("вкажіть адресу сервера довідника"))

    let api = try DataAPIServer()
    api.setContacts([DataAPIServer.contact(999999, "Found After Sync")])
    let online = try chat(
      ["--server", bot.baseURL, "--data-api", api.baseURL], input: "unknown\n", home: home)
    #expect(online.stdout.contains("• Found After Sync  #999999"))
    // The synced directory replaced the sample: the other id is missing now, and said so.
    #expect(
      online.stdout.contains("Contact 138503 is not in the directory. Type /sync to update it."))
    #expect(api.contactFetches == 1)
  }

  @Test func chatCommandsForTheDirectory() throws {
    let bot = try makeScenarioBot()
    let result = try chat(
      ["--server", bot.baseURL, "--start-message", "", "--lang", "uk"],
      input:
        "/contacts brno\n/fav 138505\n/fav 138505\n/contacts brno\n/contact 138505\n/unfav 138505\n/fav 1x\n/sync\n",
      home: home)
    #expect(result.status == 1, "the bad id and /sync without a data API are failed turns")
    #expect(result.stdout.contains("★ #138505 Відділ у справах перебування, Брно (Brno)"))
    #expect(result.stdout.contains("Додано до обраного: Відділ у справах перебування, Брно."))
    #expect(result.stdout.contains("Відділ у справах перебування, Брно уже в обраному."))
    #expect(result.stdout.contains("Прибрано з обраного: Відділ у справах перебування, Брно."))
    #expect(result.messages.contains("«1x» — не номер контакту."))
    #expect(result.messages.contains("Не вказано адресу сервера довідника"))
    #expect(bot.requests.isEmpty)
  }

  @Test func favouritesSurviveACorruptCacheWhichIsReportedOnce() throws {
    _ = try chat(
      ["--server", "http://127.0.0.1:9", "--start-message", ""], input: "/fav 138510\n", home: home)
    let cache = home.path + "/cache/migrant-chat/directory.sqlite"
    // Garbage where the pages were and no log to restore them: damaged for certain. (The
    // chat ends with its stores open, so its log, which SQLite would read the pages from,
    // is still there.)
    try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: cache))
    for suffix in ["-wal", "-shm"] { unlink(cache + suffix) }
    let first = try contacts(["list"], home: home)
    #expect(first.status == 0)
    #expect(first.messages.contains("The directory cache was damaged. It was moved to"))
    #expect(first.stderr.contains("directory.sqlite.corrupt-"))
    #expect(first.stdout.contains("★ #138510 Family Centre Letohrad (Letohrad)"))
    let aside = try FileManager.default.contentsOfDirectory(
      atPath: home.path + "/cache/migrant-chat"
    )
    .filter { $0.hasPrefix("directory.sqlite.corrupt-") }
    #expect(aside.count == 1)
    let second = try contacts(["list"], home: home)
    #expect(!second.messages.contains("damaged"))
  }

  /// `contacts list` takes no words: its "more" line says what does narrow it.
  @Test func listSaysHowToSeeMore() throws {
    let list = try contacts(["list", "--limit", "2"], home: home)
    #expect(list.stdout.contains("… and 10 more. --limit 0 lists all;"))
    #expect(!list.stdout.contains("Add words"))
  }

  @Test func outputFormats() throws {
    let csv = try contacts(["search", "brno", "--csv"], home: home)
    let rows = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    #expect(
      rows.first
        == "id,name,description,city,address,phone,email,web,facebook,opening_hours,latitude,longitude,map,favourite,sample"
    )
    let bom = try contacts(["search", "brno", "--csv", "--csv-bom"], home: home)
    #expect(bom.stdout.hasPrefix("\u{FEFF}id,name,"))
    #expect(!csv.stdout.hasPrefix("\u{FEFF}"))
    #expect(rows.count == 4)
    #expect(
      rows.contains {
        $0.hasPrefix(
          "138503,Centre for Foreigners,\"Free advice on residence, work and housing; Czech courses.\",Brno,\"Mečová 5, 602 00 Brno\",+420 500 000 001,"
        )
      })

    let show = try contacts(["show", "138503", "--json", "--lang", "ru"], home: home)
    let object = try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any]
    #expect(object?["name"] as? String == "Центр для иностранцев")
    #expect(object?["map"] as? String == "https://www.openstreetmap.org/?mlat=49.1925&mlon=16.6093")

    let text = try contacts(["show", "#138510"], home: home)
    #expect(text.stdout.contains("Help for families"))
    #expect(text.stdout.contains("Map: https://www.openstreetmap.org/?mlat=50.0358&mlon=16.4989"))
  }

  @Test func badInputGetsClearErrors() throws {
    let missing = try contacts(["show", "424242"], home: home)
    #expect(missing.status == 1)
    #expect(
      missing.messages.contains(
        "Contact 424242 is not in the directory. For the real directory, set a data API:"))
    let bad = try contacts(["show", "abc", "--lang", "ru"], home: home)
    #expect(bad.status == 2)
    #expect(bad.messages.contains("«abc» — не номер контакта."))
    let both = try contacts(["list", "--json", "--csv"], home: home)
    #expect(both.status == 2)
    #expect(both.messages.contains("--json and --csv cannot be used together; choose one."))
    let url = try contacts(["sync", "--data-api", "ftp://x"], home: home)
    #expect(url.status == 2)
    #expect(url.messages.contains("'ftp://x' is not an http:// or https:// address."))
    let none = try contacts(["sync"], home: home)
    #expect(none.status == 2)
    #expect(none.messages.contains("No data API is configured."))
    let nothing = try contacts(["search", "zzzz"], home: home)
    #expect(nothing.status == 1)
    #expect(nothing.stdout.contains("No office matches 'zzzz'."))
    // Close to a city that exists: it is offered, in the user's language.
    let typo = try contacts(["search", "Brmo", "--lang", "uk"], home: home)
    #expect(typo.status == 1)
    #expect(typo.stdout.contains("Можливо, ви мали на увазі Brno?"))
    let json = try contacts(["search", "Brmo", "--json"], home: home)
    #expect(json.stdout == "[]\n")
    #expect(json.stderr.contains("Did you mean Brno?"))
    // As people type: a Cyrillic city, an exonym, a locative with a changed consonant.
    for query in ["брно", "Brünn", "у Брні"] {
      let found = try contacts(["search", query], home: home)
      #expect(found.status == 0 && found.stdout.contains("#138503"), "\(query)")
    }
  }

  /// Issue #34 from the binary: the wrong keyboard layout both ways (saying how it
  /// was read), postcodes with and without the space, offices by what they are.
  @Test func layoutsPostcodesAndKinds() throws {
    let switched = try contacts(["search", ",hyj", "--lang", "ru"], home: home)
    #expect(switched.status == 0 && switched.stdout.contains("#138503"))
    #expect(switched.stdout.contains("Искали «брно»: текст, набранный в другой раскладке"))
    let latin = try contacts(["search", "иктщ"], home: home)
    #expect(latin.stdout.contains("Searched for “brno”") && latin.stdout.contains("#138503"))
    // In JSON the data stays clean; the reading goes to stderr.
    let json = try contacts(["search", "ghfuf", "--json", "--lang", "uk"], home: home)
    #expect(jsonIDs(json).contains(138506) && json.stderr.contains("Шукали «прага»"))
    // A real word is not switched: "cheb" finds nothing here, and says so as typed.
    let word = try contacts(["search", "cheb"], home: home)
    #expect(word.status == 1 && word.stdout.contains("No office matches 'cheb'."))
    for postcode in ["60200", "602 00", "PSČ 602-00"] {
      let found = try contacts(["search", postcode], home: home)
      #expect(found.status == 0 && found.stdout.contains("#138503"), "\(postcode)")
      #expect(!found.stdout.contains("#138504"), "\(postcode): 639 00 is another postcode")
    }
    for (query, id) in [
      ("OAMP brno", "#138505"), ("МВС", "#138505"), ("центр занятости", "#138504"),
      ("pojišťovna ostrava", "#138508"), ("ФОП", "#138513"), ("cizpol praha", "#138507"),
    ] {
      let found = try contacts(["search", query], home: home)
      #expect(found.status == 0 && found.stdout.contains(id), "\(query): \(found.stdout)")
    }
  }
}

@Suite struct OfflineAssistantEndToEndTests {
  let home = TemporaryDirectory()

  @Test func syncedGuidanceReplacesTheSample() throws {
    let api = try DataAPIServer()
    api.setContacts([DataAPIServer.contact(7, "Synced Office")])
    api.setGuidance(
      tags:
        #"{"items":[{"id":9,"name":"Synced topic","localizedAttributes":{"ru":{"name":"Тема"}}}]}"#,
      items: """
        {"items":[{"id":90,"parentId":null,"title":"Synced guide","tags":[9],"contacts":[7],
          "text":"<p>From the <b>API</b>.</p><script>evil()</script>"}]}
        """)
    #expect(try contacts(["sync", "--data-api", api.baseURL], home: home).status == 0)
    let result = try chat([], input: "1\n1\n", home: home)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("  [1] Synced topic"))
    #expect(result.stdout.contains("Synced guide\nFrom the API."))
    #expect(result.stdout.contains("• Synced Office  #7"))
    #expect(!result.stdout.contains("evil"))
    let russian = try chat(["--lang", "ru"], input: "", home: home)
    #expect(russian.stdout.contains("  [1] Тема"))
  }

  @Test func freeTextAndButtonsInUkrainian() throws {
    let result = try chat(["--lang", "uk"], input: "страхування\n1\n/back\n", home: home)
    #expect(result.status == 0)
    #expect(
      result.stdout.contains("Інструкції за запитом «страхування»:\n  [1] Медичне страхування"))
    #expect(result.stdout.contains("Ви працюєте в чеського роботодавця?"))
    #expect(result.stdout.contains("• Відділення медичного страхування, Острава  #138508"))
  }
}
