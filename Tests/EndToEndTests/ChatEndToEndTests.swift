import Foundation
import TestSupport
import Testing

@Suite struct ChatEndToEndTests {
  /// Started with stdin closed (`<&-`, as some CI runners and service managers start
  /// programs): the first answer, then the end of input, never a read of whatever file
  /// took descriptor 0 (the SQLite cache, opened first, did).
  @Test func aClosedStdinIsNoInputAndTheCacheIsUntouched() throws {
    let home = TemporaryDirectory()
    let script = #"exec "$0" --offline --lang en <&-"#
    let first = try ProcessRunner.run(
      "/bin/sh", ["-c", script, ProcessRunner.binaryPath], input: "",
      environment: home.environment())
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("[1]"), "the first answer: \(first.stdout)")
    #expect(!first.stderr.contains("damaged") && !first.stderr.contains("corrupt"))
    let again = try chat(["--offline", "--lang", "en"], input: "", home: home)
    #expect(again.status == 0)
    #expect(
      !again.stderr.contains("rebuilt") && !again.stderr.contains("damaged"), "\(again.stderr)")
  }

  /// A number picks a button of the latest answer; the cards' answer offered none, so
  /// "housing" then is text for the bot, not the menu's "Housing" from before (#46).
  @Test func aConversationByNumberAndTitle() throws {
    let bot = try makeScenarioBot()
    let home = TemporaryDirectory()
    let result = try chat(["--server", bot.baseURL], input: "1\nhousing\nfree text\n", home: home)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        Hello (en)
        Pick one
          [1] Health insurance
          [2] Housing
        > 1
        Insurers:
          • Centre for Foreigners  #138503  [sample]
            Mečová 5, 602 00 Brno
            Phone: +420 500 000 001  E-mail: info@centre-brno.example
            Web: https://centre-brno.example
            Facebook: https://facebook.example/centre-brno
            Hours: Mo-Th 09:00-17:00, Fr 09:00-14:00
            Map: https://www.openstreetmap.org/?mlat=49.1925&mlon=16.6093
          • Labour Office, Brno branch  #138504  [sample]
            Polní 37, 639 00 Brno
            Phone: +420 500 000 002  E-mail: info@labour-brno.example
            Web: https://labour-brno.example
            Hours: Mo, We 08:00-17:00; Tu, Th 08:00-13:00
            Map: https://www.openstreetmap.org/?mlat=49.1806&mlon=16.5968
          Image: https://example.org/map.png
        Offices and guides marked [sample] are made up: migrant-chat bundles them so
        that it works before its first sync. Do not act on them. For the real directory
        and guidance, set a data API: --data-api URL, MIGRANT_CHAT_DATA_API, or
        data_api: in config.yaml.
        > housing
        echo: housing (en)
        > free text
        echo: free text (en)

        """)
    let messages = bot.requests.compactMap { $0.bodyJSON?["message"] as? String }
    #expect(messages == ["/start", "/health", "housing", "free text"])
    let senders = Set(bot.requests.compactMap { $0.bodyJSON?["sender"] as? String })
    #expect(senders.count == 1)
    #expect(senders.first?.count == 32)
  }

  @Test func theSenderIsRememberedPerServerAndOverridable() throws {
    let bot = try makeScenarioBot()
    let home = TemporaryDirectory()
    _ = try chat(["--server", bot.baseURL], input: "", home: home)
    _ = try chat(["--server", bot.baseURL], input: "", home: home)
    _ = try chat(["--server", bot.baseURL, "--sender", "tester-1"], input: "", home: home)
    _ = try chat(["--server", bot.baseURL], input: "/new\n", home: home)
    _ = try chat(["--server", bot.baseURL], input: "", home: home)
    let senders = bot.requests.compactMap { $0.bodyJSON?["sender"] as? String }
    #expect(senders.count == 6)
    #expect(senders[0] == senders[1])
    #expect(senders[2] == "tester-1")
    #expect(senders[3] == senders[0])
    #expect(senders[4] != senders[0])  // /new
    #expect(senders[5] == senders[4])  // and it is remembered
  }

  @Test func languageTravelsToTheBotAndSwitchesLive() throws {
    let bot = try makeScenarioBot()
    let home = TemporaryDirectory()
    let result = try chat(
      ["--server", bot.baseURL, "--start-message", ""], input: "hi\n/lang uk\nпривіт\n/lang\n",
      home: home)
    #expect(result.status == 0)
    #expect(result.stdout.contains("echo: hi (en)"))
    #expect(result.stdout.contains("Мову змінено: українська."))
    #expect(result.stdout.contains("echo: привіт (uk)"))
    #expect(result.stdout.contains("Мова: українська (uk)."))
    let metadata = bot.requests.compactMap {
      ($0.bodyJSON?["metadata"] as? [String: Any])?["language"] as? String
    }
    #expect(metadata == ["en", "uk"])
    // Remembered for the next run, below the environment and flags.
    let next = try chat(
      ["--server", bot.baseURL, "--start-message", ""], input: "again\n", home: home)
    #expect(next.stdout.contains("echo: again (uk)"))
    let overridden = try chat(
      ["--server", bot.baseURL, "--start-message", "", "--lang", "ru"], input: "x\n", home: home)
    #expect(overridden.stdout.contains("echo: x (ru)"))
  }

  @Test func languageFromTheLocale() throws {
    let bot = try makeScenarioBot()
    let result = try chat(
      ["--server", bot.baseURL], input: "9\n", home: TemporaryDirectory(),
      environment: ["LANG": "ru_RU.UTF-8"])
    #expect(result.stdout.hasPrefix("Hello (ru)"))
    #expect(result.messages.contains("Кнопки 9 нет. Выберите номер от 1 до 2."))
  }

  @Test func aNumberWithNoSuchButtonSendsNothingAndFails() throws {
    let bot = try makeScenarioBot()
    let result = try chat(["--server", bot.baseURL], input: "3\n2\n", home: TemporaryDirectory())
    #expect(result.status == 1)
    #expect(result.messages.contains("There is no button 3. Choose a number from 1 to 2."))
    // Counted as what it is: a line that could not be used, not a turn without an answer.
    #expect(
      result.messages.contains("1 line could not be used (see above); nothing was sent for it."))
    #expect(!result.messages.contains("got no answer"))
    let messages = bot.requests.compactMap { $0.bodyJSON?["message"] as? String }
    #expect(messages == ["/start", "/housing"])
    let both = try chat(
      ["--server", bot.baseURL, "--lang", "uk"], input: "7\n/lang xx\n/fav\nstatus500\n",
      home: TemporaryDirectory())
    #expect(both.status == 1)
    #expect(both.messages.contains("1 повідомлення залишилося без відповіді."))
    #expect(both.messages.contains("3 рядки не вдалося використати"))
  }

  @Test func restartHelpAndQuit() throws {
    let bot = try makeScenarioBot()
    let result = try chat(
      ["--server", bot.baseURL], input: "/restart\n/help\n/quit\nnever sent\n",
      home: TemporaryDirectory())
    #expect(result.status == 0)
    #expect(result.stdout.contains("/lang [code]"))
    let messages = bot.requests.compactMap { $0.bodyJSON?["message"] as? String }
    #expect(messages == ["/start", "/restart", "/start"])
  }

  @Test func slashSlashSendsASlash() throws {
    let bot = try makeScenarioBot()
    let result = try chat(
      ["--server", bot.baseURL, "--start-message", ""], input: "//help\n",
      home: TemporaryDirectory())
    #expect(result.stdout.contains("echo: /help (en)"))
  }

  @Test func customWebhookPathAndToken() throws {
    let bot = try LoopbackHTTPServer { request in
      request.path == "/webhooks/myrest/webhook"
        ? .json(#"[{"text":"myrest ok"}]"#) : .http(status: 404)
    }
    let home = TemporaryDirectory()
    let result = try chat(
      ["--server", bot.baseURL, "--webhook-path", "/webhooks/myrest/webhook"], input: "",
      home: home, environment: ["MIGRANT_CHAT_TOKEN": "tok-123"])
    #expect(result.stdout == "myrest ok\n")
    #expect(bot.requests.first?.headers["authorization"] == "Bearer tok-123")
    // The token is never written anywhere.
    let files = FileManager.default.enumerator(atPath: home.path)?.allObjects as? [String] ?? []
    for file in files {
      let contents = (try? String(contentsOfFile: home.path + "/" + file, encoding: .utf8)) ?? ""
      #expect(!contents.contains("tok-123"), "\(file)")
    }
  }

  @Test func jsonLinesOutput() throws {
    let bot = try makeScenarioBot()
    let result = try chat(
      ["--server", bot.baseURL, "--json"], input: "1\nempty\nstatus500\n",
      home: TemporaryDirectory())
    let objects = try result.stdout.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    let types = objects.compactMap { $0["type"] as? String }
    #expect(
      types == [
        "bot", "bot", "user", "bot", "bot", "bot", "notice", "user", "no_answer", "user", "error",
      ])
    #expect((objects[1]["buttons"] as? [[String: Any]])?.first?["payload"] as? String == "/health")
    #expect(objects[4]["contacts"] as? [Int] == [138503, 138504], "numbers, as in cards")
    // Made-up offices say so in every format: each card, and one notice.
    let cards = objects[4]["cards"] as? [[String: Any]] ?? []
    #expect(cards.count == 2 && cards.allSatisfy { $0["sample"] as? Bool == true })
    #expect(objects[6]["code"] as? String == "sample")
    #expect(objects[10]["code"] as? String == "http_status")
    #expect(result.status == 1)
  }
}
