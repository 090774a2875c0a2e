import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `migrant-chat serve` as a process, stopped with SIGTERM when the test ends.
final class ServeProcess {
  let process = Process()
  let port: Int
  let stderr = Pipe()
  var baseURL: String { "http://127.0.0.1:\(port)" }

  init(home: TemporaryDirectory, arguments: [String] = []) throws {
    port = unusedLoopbackPort()
    process.executableURL = URL(fileURLWithPath: ProcessRunner.binaryPath)
    process.arguments = ["serve", "--port", String(port)] + arguments
    process.environment = home.environment()
    // Never the test run's own stdin: CI's may be a pipe that never ends.
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = stderr
    try process.run()
    guard waitForPort(port, seconds: hangGuard) else { throw ServeDidNotStart() }
  }

  struct ServeDidNotStart: Error {}

  /// SIGTERM, then the exit status and what it wrote to stderr.
  func stop() -> (status: Int32, stderr: String) {
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return (process.terminationStatus, text)
  }

  deinit { if process.isRunning { process.terminate() } }

  /// POSTs `body` (a JSON string) and returns the status and the parsed JSON.
  func post(_ path: String, _ body: String) throws -> (status: Int, json: Any?) {
    try Self.request(baseURL, "POST", path, body: Data(body.utf8))
  }

  func request(_ method: String, _ path: String, body: Data? = nil) throws -> (
    status: Int, json: Any?
  ) {
    try Self.request(baseURL, method, path, body: body)
  }

  /// The reports `serve` stored in `home`, oldest first, as JSON objects
  /// `{id, itemId, description}`: read from its SQLite store by python3's sqlite3
  /// module (as any other program would; this target links no SQLite).
  static func storedReports(home: TemporaryDirectory) throws -> [[String: Any]] {
    let script = """
      import json, sqlite3, sys
      database = sqlite3.connect(sys.argv[1], timeout=30)
      rows = database.execute("SELECT id, item_id, description FROM report ORDER BY id")
      print(json.dumps([{"id": i, "itemId": t, "description": d} for i, t, d in rows]))
      """
    let result = try ProcessRunner.run(
      "/usr/bin/env",
      ["python3", "-c", script, home.path + "/state/migrant-chat/reports.sqlite"],
      environment: home.environment())
    guard result.status == 0 else { throw StoredReportsUnreadable(detail: result.stderr) }
    return try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
  }

  struct StoredReportsUnreadable: Error { var detail: String }

  static func request(
    _ baseURL: String, _ method: String, _ path: String, body: Data? = nil
  ) throws -> (status: Int, json: Any?) {
    var request = URLRequest(url: try #require(URL(string: baseURL + path)))
    request.httpMethod = method
    request.httpBody = body
    if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
    let result = Mutex<(Int, Data)?>(nil)
    let done = DispatchSemaphore(value: 0)
    URLSession.shared.dataTask(with: request) { data, response, _ in
      result.withLock { $0 = ((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data()) }
      done.signal()
    }.resume()
    done.wait()
    let (status, data) = result.withLock { $0 } ?? (0, Data())
    return (status, try? JSONSerialization.jsonObject(with: data))
  }
}

@Suite struct ServeEndToEndTests {
  let home = TemporaryDirectory()

  @Test func theClientChatsWithServeByButtonsAndFreeText() throws {
    let serve = try ServeProcess(home: home)
    let result = try chat(
      ["--server", serve.baseURL, "--lang", "ru"], input: "2\n1\nстраховка\n", home: home)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("Здравствуйте! Я офлайн-справочник migrant-chat."))
    #expect(result.stdout.contains("> 2\nМедицинская страховка: выберите инструкцию."))
    #expect(result.stdout.contains("Вы работаете у чешского работодателя?\n  [1] Да, я работаю"))
    #expect(result.stdout.contains("• Отделение медицинского страхования, Острава  #138508"))
    #expect(result.stdout.contains("Инструкции по запросу «страховка»:"))
    let myrest = try chat(
      ["--server", serve.baseURL, "--webhook-path", "/webhooks/myrest/webhook", "--lang", "uk"],
      input: "", home: home)
    #expect(myrest.stdout.contains("З чим вам допомогти?"))
    let stopped = serve.stop()
    #expect(stopped.status == 0)
    #expect(stopped.stderr.contains("Stopped."))
  }

  @Test func responsesHaveExactlyRasasShape() throws {
    let serve = try ServeProcess(home: home)
    let (status, json) = try serve.post(
      "/webhooks/rest/webhook", #"{"sender":"shape","message":"/faq_item{\"id\":20}"}"#)
    #expect(status == 200)
    let messages = try #require(json as? [[String: Any]])
    #expect(messages.count >= 4)
    for message in messages {
      #expect(Set(message.keys).isSubset(of: ["recipient_id", "text", "buttons", "custom"]))
      #expect(message["recipient_id"] as? String == "shape")
      if let buttons = message["buttons"] as? [[String: Any]] {
        #expect(buttons.allSatisfy { Set($0.keys) == ["title", "payload"] })
      }
    }
    #expect(
      messages.contains { ($0["custom"] as? [String: Any])?["contacts"] as? [Int] == [138508] })
    #expect(
      (try serve.request("GET", "/webhooks/rest/").json as? [String: String]) == ["status": "ok"])
  }

  @Test func concurrentSendersDoNotSeeEachOthersState() throws {
    let serve = try ServeProcess(home: home)
    let base = serve.baseURL
    @Sendable func post(_ body: String) throws -> (status: Int, json: Any?) {
      try ServeProcess.request(base, "POST", "/webhooks/rest/webhook", body: Data(body.utf8))
    }
    let failures = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 8) { index in
      let sender = "sender-\(index)"
      let tag = index % 5 + 1
      do {
        _ = try post(#"{"sender":"\#(sender)","message":"/faq_tag{\"id\":\#(tag)}"}"#)
        _ = try post(#"{"sender":"\#(sender)","message":"/faq_item{\"id\":\#(tag * 10)}"}"#)
        let back = try post(#"{"sender":"\#(sender)","message":"/back"}"#)
        let buttons =
          ((back.json as? [[String: Any]])?.first?["buttons"] as? [[String: String]]) ?? []
        if buttons.first?["payload"] != #"/faq_item{"id":\#(tag * 10)}"# {
          failures.withLock { $0.append("\(sender): \(buttons)") }
        }
      } catch {
        failures.withLock { $0.append("\(sender): \(error)") }
      }
    }
    #expect(failures.withLock { $0 }.isEmpty)
  }

  @Test func boundsAndBadRequests() throws {
    let serve = try ServeProcess(home: home, arguments: ["--max-body-bytes", "1000"])
    let big = try serve.request(
      "POST", "/webhooks/rest/webhook",
      body: Data((#"{"message":""# + String(repeating: "a", count: 5000) + #""}"#).utf8))
    #expect(big.status == 413)
    #expect((big.json as? [String: String])?["error"]?.contains("larger than 1000 bytes") == true)
    let bad = try serve.post("/webhooks/rest/webhook", "{not json")
    #expect(bad.status == 400)
    #expect(try serve.request("GET", "/nothing").status == 404)
    // Still serving after all that.
    #expect(try serve.post("/webhooks/rest/webhook", #"{"message":"/start"}"#).status == 200)
  }

  @Test func theDataAPISyncsAnotherClientsDirectory() throws {
    let serve = try ServeProcess(home: home)
    let other = TemporaryDirectory()
    let sync = try contacts(["sync", "--data-api", serve.baseURL], home: other)
    #expect(sync.status == 0, "\(sync.stderr)")
    #expect(sync.stdout == "Directory updated: 12 offices.\n")
    let again = try contacts(["sync", "--data-api", serve.baseURL], home: other)
    #expect(again.stdout == "The directory is up to date.\n")
    let report = try serve.post(
      "/faq/reports/", #"{"itemId":30,"description":"Deposit rules changed."}"#)
    #expect(report.status == 201)
    let saved = try ServeProcess.storedReports(home: home)
    #expect(saved.count == 1)
    #expect(saved.first?["id"] as? Int == 1 && saved.first?["itemId"] as? Int == 30)
    #expect(saved.first?["description"] as? String == "Deposit rules changed.")
  }

  /// `serve` serves the cache, so after a sync the bundled transcripts no longer match it;
  /// `serve --sample` serves the bundled sample whatever the cache holds, and leaves it.
  @Test func sampleServesTheBundledSampleWhateverTheCacheHolds() throws {
    let api = try DataAPIServer()
    api.setContacts([DataAPIServer.contact(7, "Synced Office")])
    api.setGuidance(
      tags: #"{"items":[{"id":9,"name":"Synced topic"}]}"#,
      items: #"{"items":[{"id":90,"parentId":null,"title":"Synced guide","tags":[9]}]}"#)
    let sync = try contacts(["sync", "--data-api", api.baseURL], home: home)
    #expect(sync.status == 0, "\(sync.stderr)")
    let transcripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Transcripts/offline").standardized.path
    // The transcripts' cards are the sample's offices: a client whose directory is the sample.
    let client = TemporaryDirectory()
    let cached = try ServeProcess(home: home)
    let mismatch = try ProcessRunner.run(
      ProcessRunner.binaryPath, ["replay", transcripts, "--server", cached.baseURL],
      environment: client.environment())
    #expect(mismatch.status == 1, "the synced cache is not the sample the transcripts expect")
    _ = cached.stop()
    let sample = try ServeProcess(home: home, arguments: ["--sample"])
    let replayed = try ProcessRunner.run(
      ProcessRunner.binaryPath, ["replay", transcripts, "--server", sample.baseURL],
      environment: client.environment())
    #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
    _ = sample.stop()
    let list = try contacts(["list"], home: home)
    #expect(!list.stdout.contains("sample data bundled"), "the cache is still the synced one")
  }

  /// The banner comes as soon as the server listens (not at the stop), with the port it
  /// really listens on when given 0; the stop says so and exits 0.
  @Test func theBannerShowsTheRealAddressAtOnce() throws {
    let process = Process()
    // Never the test run's own stdin: CI's may be a pipe that never ends.
    process.standardInput = FileHandle.nullDevice
    process.executableURL = URL(fileURLWithPath: ProcessRunner.binaryPath)
    process.arguments = ["serve", "--port", "0"]
    process.environment = home.environment()
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    var seen = ""
    let deadline = Date().addingTimeInterval(hangGuard)
    while !seen.contains("(Ctrl-C stops)\n"), Date() < deadline {
      let chunk = errors.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      seen += String(decoding: chunk, as: UTF8.self)
    }
    // The URL ends at a space: nothing after it is copied with it.
    let port = seen.firstMatch(of: #/http://127\.0\.0\.1:(\d+) \(/#).flatMap { Int($0.1) } ?? 0
    #expect(port > 0, "\(seen)")
    #expect(waitForPort(port, seconds: hangGuard))
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    seen += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 0)
    #expect(seen.hasSuffix("Stopped.\n"), "\(seen)")
  }

  /// `serve --help` says each default once, in the user's language (#14).
  @Test func helpSaysEachDefaultOnce() throws {
    let help = try ProcessRunner.run(
      ProcessRunner.binaryPath, ["serve", "--help", "--lang", "uk"], environment: home.environment()
    )
    #expect(help.stdout.contains("типово 127.0.0.1"))
    #expect(!help.stdout.contains("(default:"), "\(help.stdout)")
  }

  @Test func aTakenPortIsAClearError() throws {
    let serve = try ServeProcess(home: home)
    let second = try ProcessRunner.run(
      ProcessRunner.binaryPath, ["serve", "--port", String(serve.port)],
      environment: home.environment())
    #expect(second.status == 1)
    #expect(
      second.messages.contains(
        "Port \(serve.port) on 127.0.0.1 is already in use by another program."))
    let ukrainian = try ProcessRunner.run(
      ProcessRunner.binaryPath, ["serve", "--port", String(serve.port), "--lang", "uk"],
      environment: home.environment())
    #expect(ukrainian.messages.contains("уже зайнятий іншою програмою"))
    #expect(!ukrainian.stderr.contains("errno") && !ukrainian.stderr.contains("Address already"))
    let badHost = try ProcessRunner.run(
      ProcessRunner.binaryPath, ["serve", "--host", "not-an-ip"], environment: home.environment())
    #expect(badHost.status == 2)
    #expect(badHost.messages.contains("--host: 'not-an-ip' is not an IPv4 or IPv6 address"))
  }
}
