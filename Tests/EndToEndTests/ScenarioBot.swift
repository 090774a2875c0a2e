import Foundation
import TestSupport

/// A loopback bot whose answer depends on the message: one scenario per word.
///
/// `/start` answers with a menu, `/health` with cards; a few words answer
/// slowly, with an error or with hostile text (the full table of bad answers
/// is `HostileBot`); anything else is echoed back.
func makeScenarioBot() throws -> LoopbackHTTPServer {
  try LoopbackHTTPServer { request in
    let body = request.bodyJSON ?? [:]
    let message = body["message"] as? String ?? ""
    let language = body["language"] as? String ?? "?"
    switch message {
    case "/start":
      return .json(
        #"[{"text":"Hello (\#(language))"},{"text":"Pick one","buttons":[{"title":"Health insurance","payload":"/health"},{"title":"Housing","payload":"/housing"}]}]"#
      )
    case "/health":
      return .json(
        #"[{"text":"Insurers:"},{"custom":{"contacts":[138503,"138504"]}},{"image":"https://example.org/map.png"}]"#
      )
    case "unknown":
      return .json(#"[{"text":"Try these:"},{"custom":{"contacts":[999999, 138503]}}]"#)
    case "/restart":
      return .json("[]")
    case "empty":
      return .json("[]")
    case "slow":
      return .delayed(seconds: 4, then: ResponseBox(.json(#"[{"text":"too late"}]"#)))
    case "status500":
      return .http(status: 500, body: Data("Internal Server Error\n\u{1B}[31mtrace".utf8))
    case "evil":
      return .json(#"[{"text":"a\u001b]0;owned\u0007b\u001b[2Jc\u202ed"}]"#)
    default:
      return .json(#"[{"text":"echo: \#(message) (\#(language))"}]"#)
    }
  }
}

/// Runs `migrant-chat` with `input` on stdin and a private environment.
func chat(
  _ arguments: [String], input: String, home: TemporaryDirectory,
  environment: [String: String] = [:]
) throws -> ProcessResult {
  try ProcessRunner.run(
    ProcessRunner.binaryPath, arguments, input: input, environment: home.environment(environment))
}

extension ProcessResult {
  /// stderr with the wrapper's line breaks folded back into spaces, for searching sentences.
  var messages: String { stderr.replacingOccurrences(of: "\n", with: " ") }
}
