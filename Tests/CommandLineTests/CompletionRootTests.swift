import ArgumentParser
import Foundation
import Testing

@testable import migrant_chat

@Suite struct CompletionRootTests {
  @Test func takesTheCompletionRequestInItsForms() {
    #expect(CompletionRoot.requestedShell(["--generate-completion-script", "bash"]) == .bash)
    #expect(CompletionRoot.requestedShell(["--generate-completion-script=zsh"]) == .zsh)
    #expect(CompletionRoot.requestedShell(["--generate-completion-script", "fish"]) == .fish)
    // An unknown shell, or anything more, is swift-argument-parser's to report.
    #expect(CompletionRoot.requestedShell(["--generate-completion-script", "tcsh"]) == nil)
    #expect(CompletionRoot.requestedShell(["--generate-completion-script=", "bash"]) == nil)
    #expect(CompletionRoot.requestedShell(["chat", "--generate-completion-script", "bash"]) == nil)
    #expect(CompletionRoot.requestedShell([]) == nil)
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
}
