import ArgumentParser
import Foundation
import Testing

@testable import migrant_chat

@Suite struct CompletionRootTests {
  /// The request wherever it is given, as swift-argument-parser reads it, gives
  /// the script of the whole tree, with the chat's options at the top level.
  @Test func answersTheCompletionRequestInItsForms() {
    let bash = CompletionRoot.completionScript(for: .bash)
    for arguments in [
      ["--generate-completion-script", "bash"], ["--generate-completion-script=bash"],
      ["chat", "--generate-completion-script", "bash"],
      ["--offline", "--generate-completion-script", "bash"],
    ] {
      #expect(CompletionRoot.requestedScript(arguments) == bash, "\(arguments)")
    }
    #expect(
      CompletionRoot.requestedScript(["--generate-completion-script", "fish"])
        == CompletionRoot.completionScript(for: .fish))
    // No request, or a shell it cannot write for: the root's parse answers.
    #expect(CompletionRoot.requestedScript(["--generate-completion-script", "tcsh"]) == nil)
    #expect(CompletionRoot.requestedScript(["--offline"]) == nil)
    #expect(CompletionRoot.requestedScript([]) == nil)
  }

  /// The top level offers the chat's options beside the subcommands, in every
  /// shell: each is named more often than in the script of the root alone, which
  /// names them only under `chat`.
  @Test(arguments: [CompletionShell.bash, .zsh, .fish])
  func offersTheChatsOptionsAtTheTopLevel(shell: CompletionShell) {
    let script = CompletionRoot.completionScript(for: shell)
    let rootAlone = MigrantChat.completionScript(for: shell)
    for option in ["lang", "server", "offline", "color", "record", "json"] {
      #expect(
        script.components(separatedBy: option).count
          > rootAlone.components(separatedBy: option).count, "\(shell.rawValue): \(option)")
    }
  }

  @Test func bashsTopLevelFunctionCompletesTheLanguages() throws {
    let script = CompletionRoot.completionScript(for: .bash)
    let start = try #require(script.range(of: "\n_migrant-chat() {"))
    let end = try #require(script.range(of: "\n}\n", range: start.upperBound..<script.endIndex))
    let topLevel = script[start.upperBound..<end.lowerBound]
    #expect(topLevel.contains("'--lang')"))
    #expect(topLevel.contains("'en'$'\\n''ru'$'\\n''uk'"))
  }

  /// zsh refuses a function with two rest arguments ("doubled rest argument
  /// definition") and completes nothing there: `replay`'s paths and its
  /// subcommand were two. No function of the zsh script has two now.
  @Test func noZshFunctionHasTwoRestArguments() throws {
    let script = try #require(
      CompletionRoot.requestedScript(["--generate-completion-script", "zsh"]))
    let functions = script.components(separatedBy: "\n_migrant-chat").dropFirst()
    #expect(functions.count > 10)
    for function in functions {
      let rests = function.components(separatedBy: "\n").filter {
        let spec = $0.trimmingCharacters(in: .whitespaces)
        return spec.hasPrefix("'*:") || spec.hasPrefix("'(-)*::")
      }
      #expect(rests.count <= 1, "\(function.prefix(40)): \(rests)")
    }
    #expect(script.contains("'*:paths:_files'"))
  }
}
