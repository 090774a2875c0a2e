import Foundation
import MigrantChatCore
import MigrantChatIO

/// The contact directory as `chat` and `contacts` open it.
///
/// The data API comes from `--data-api`, else `MIGRANT_CHAT_DATA_API`, else
/// `data_api:` in the config file; without one there is no sync and the
/// cache (at first, the bundled sample) is all there is.
struct DirectorySetup {
  let directory: ContactDirectory
  /// To tell the user once: a rebuilt cache, unreadable favourites.
  let notices: [DirectoryNotice]
  let dataAPI: String?
  /// The opened cache and favourites.
  let files: DirectoryFiles
  /// Where reports of wrong guides go (nil without a data API: they wait in the queue).
  let reportAPI: CurlDataAPI?

  init(
    flag: String?, environment: [String: String], config: ConfigFile, paths: AppPaths,
    timeout: Double, insecure: Bool, policy: RetryPolicy, l10n: Localizer,
    progress: (@Sendable (DirectorySync.SyncProgress) -> Void)? = nil
  ) throws(SetupFailure) {
    let files = DirectoryFiles.open(paths: paths)
    notices = files.notices
    var sync: DirectorySync?
    var reportAPI: CurlDataAPI?
    dataAPI = firstGiven(flag, environment["MIGRANT_CHAT_DATA_API"], config.dataAPI)
    if let url = dataAPI {
      do {
        let api = try CurlDataAPI(baseURL: url, timeout: timeout, insecure: insecure)
        reportAPI = api
        sync = DirectorySync(
          api: api, store: files.store, guidance: files.guidance, policy: policy)
        sync?.progress = progress
      } catch {
        throw SetupFailure(
          message: l10n(
            .invalidDataAPI, ["url": TerminalSanitizer.clean(ServerEndpoint.redacted(url))]))
      }
    }
    directory = ContactDirectory(store: files.store, favourites: files.favourites, sync: sync)
    self.files = files
    self.reportAPI = reportAPI
  }
}

extension DirectorySetup {
  /// The guidance tree as cached (the sample until a sync), for the offline assistant.
  func guidanceTree() -> GuidanceTree { files.guidanceTree() }

  /// Sends reports now, or keeps them in the state database's queue.
  var reportDesk: ReportDesk { ReportDesk(queue: files.reports, api: reportAPI) }

  /// The to-do list and reports, for the chat.
  func chatTools() -> ChatTools {
    let files = self.files
    var tools = ChatTools(
      todos: files.todos, reports: reportDesk, guidance: { files.guidanceTree() })
    tools.stemmer = SnowballStemmer.shared
    return tools
  }
}

/// A start-up problem, already in the user's language; the command exits with 2.
struct SetupFailure: Error {
  var message: String
}
